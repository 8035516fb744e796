//! Merges replayed on three consecutive versions v0 → v1 → v2 of a file:
//! `git revert` of the commit that wrote v1, made on top of v2, then that
//! commit applied again (a cherry-pick of it onto the revert).
//!
//! ```text
//! revert     base = v1   ours = v2              theirs = v0   expected: git's revert
//! re-apply   base = v0   ours = R (the revert)  theirs = v1   expected: v2
//!            (both only where the two changes are apart, below)
//! ```
//!
//! `irgit merge` runs as git's driver (`irgit merge %O %A %B 7 %P`, the
//! result read back from `%A`); `git merge-file --diff3` runs on the same
//! three texts. The re-application runs on irgit's revert when irgit's was
//! clean. Judged per merge:
//!
//! - *clean* / *conflict*: exit 0 without markers / exit 1 with markers;
//!   anything else (a crash, exit 1 without markers) is *broken* (counted
//!   apart where LLVM 22 rejects an input: irgit then refuses the line
//!   merge's invalid result without markers, saying so).
//! - *ours' text*: clean, not written in canonical form, and
//!   `diff ours result` no larger than `diff base theirs`.
//! - *canonical form*: stderr says "written in canonical form".
//! - *fallback*: stderr says "falling back to a line merge" although LLVM 22
//!   accepts all three inputs.
//! - *LLVM rejects*: clean, the inputs accepted, the result not.
//! - *expected known*: the expected result of a merge is known only where
//!   the two changes are apart: `git merge-file` reverts cleanly, its
//!   revert, re-applied by git, gives v2 byte for byte, and LLVM 22 accepts
//!   git's revert (where the inputs are accepted). Then git's revert is the
//!   expected revert and v2 the expected re-application. (A revert that
//!   LLVM rejects is no expectation: tinygo's `interface.ll` at
//!   2f57e4ff6dbb, where git's revert renames a declaration back that
//!   ours' new call still names.) Where they
//!   overlap (v1 → v2 undid part of v0 → v1, say, so that v2 = v0) the
//!   revert has less to undo and the re-application need not give v2.
//! - *wrong*: clean, the expected known, and the result is not it (neither
//!   its bytes nor its canonical form, comments included).
//! - *conflict where git is clean and right*: LLVM 22 accepts the inputs,
//!   irgit conflicts, the expected is known, and git's result on the same
//!   inputs is it; unless irgit names the clash on stderr (a call to a
//!   signature the other side changed, a function removed that the other
//!   side calls, a value both sides renamed, git's clean result and the
//!   structured merge disagreeing, both sides changing one function's
//!   generated CHECK lines where FileCheck could not confirm the merge):
//!   such a conflict is counted apart, as
//!   *clash named*, since git's result is then right only by this bench's
//!   measure (tinygo's `gc-stackslots.out.ll` at 2c93a4085cf3: ours adds
//!   calls to `@runtime.alloc` with the parameter theirs removes).
//! - *round trip exact*: revert and re-application clean, and the result
//!   is v2 byte for byte (for git: its own revert, re-applied by git).
//! - *worse than git* (git clean & right, irgit conflicts): over every
//!   triple, whatever LLVM 22 says of the inputs and whether irgit names a
//!   clash: the expected is known, `git merge-file` on the same three texts
//!   is clean and gives it byte for byte, and `irgit merge` exits non-zero.
//!   (The re-application runs only on a clean irgit revert, so a triple
//!   counts at most once.)

use crate::history::Version;
use crate::merge_support::{git_merge_file, merge_as_driver, MergeRun, Outcome};
use crate::tools::{changed_lines, llvm_accepts_text, same_module, Blobs};

const MARKER: usize = 7;

/// What one `irgit merge` did.
#[derive(Debug, Clone, Default)]
pub struct Judged {
    /// LLVM 22 accepts all three inputs.
    pub accepted: bool,
    pub clean: bool,
    pub broken: Option<String>,
    pub ours_text: bool,
    pub canonical_form: bool,
    pub fallback: bool,
    pub llvm_rejects: bool,
    pub wrong: bool,
    pub conflict_git_right: bool,
    /// A conflict where git is clean and right, whose clash irgit names.
    pub conflict_clash_named: bool,
    /// irgit's stderr names a clash ([`CLASHES_NAMED`]).
    pub clash_named: bool,
    /// `irgit merge` exited non-zero.
    pub exit_nonzero: bool,
    /// Git is clean and right and irgit exited non-zero, inputs accepted or
    /// not, clash named or not (see the module comment).
    pub worse_than_git: bool,
    /// irgit's stderr, first lines (for the lists of what to look at).
    pub note: String,
}

/// One triple: both merges, irgit's and git's.
#[derive(Debug, Clone)]
pub struct TripleResult {
    pub commit: String,
    pub path: String,
    pub inputs_accepted: bool,
    pub revert: Judged,
    pub git_revert_clean: bool,
    pub reapply: Option<Judged>,
    pub git_reapply_clean: bool,
    pub round_trip_exact: bool,
    pub git_round_trip_exact: bool,
    /// The expected results are known (see the module comment).
    pub expected_known: bool,
}

/// The three texts of one merge.
struct Inputs<'a> {
    base: &'a str,
    ours: &'a str,
    theirs: &'a str,
    accepted: bool,
}

/// Replays the revert and the re-application on `v0 → v1 → v2`.
pub fn measure(blobs: &Blobs, versions: [&Version; 3]) -> TripleResult {
    let [v0, v1, v2] = versions.map(|v| blobs.text(&v.blob));
    let accepted = versions.iter().all(|v| blobs.accepted(&v.blob));
    let revert_in = Inputs {
        base: v1,
        ours: v2,
        theirs: v0,
        accepted,
    };
    let irgit_revert = merge_as_driver(v1, v2, v0, MARKER);
    let (git_revert_clean, git_revert, _) = git_merge_file(v1, v2, v0);
    let git_round_trip_exact = git_revert_clean && git_merge_file(v0, &git_revert, v1).1 == v2;
    let expected_known = git_round_trip_exact && (!accepted || llvm_accepts_text(&git_revert));
    let mut revert = judge(&irgit_revert, &revert_in);
    revert.wrong =
        revert.clean && expected_known && !same_module(&irgit_revert.output, &git_revert);
    revert.set_git_right_conflict(
        accepted && !revert.clean && revert.broken.is_none() && expected_known,
    );
    // The expected revert is git's own (clean, since the expected is known).
    revert.worse_than_git = expected_known && git_revert_clean && revert.exit_nonzero;
    let mut result = TripleResult {
        commit: versions[2].commit[..12].to_string(),
        path: versions[2].path.clone(),
        inputs_accepted: accepted,
        revert,
        git_revert_clean,
        reapply: None,
        git_reapply_clean: false,
        round_trip_exact: false,
        git_round_trip_exact,
        expected_known,
    };
    let (reapplied, reapply_stderr) = if result.revert.clean {
        reapply(&mut result, &irgit_revert.output, v0, v1, v2)
    } else {
        (String::new(), String::new())
    };
    keep(
        &result,
        [
            ("v0.ll", v0),
            ("v1.ll", v1),
            ("v2.ll", v2),
            ("revert.ll", &irgit_revert.output),
            ("reapply.ll", &reapplied),
            ("git-revert.ll", &git_revert),
            ("revert.stderr", &irgit_revert.stderr),
            ("reapply.stderr", &reapply_stderr),
        ],
    );
    result
}

/// With `IRGIT_HISTORY_KEEP=DIR`, a triple with a defect leaves
/// `DIR/merge-<commit>-<file>/` with `v0.ll`, `v1.ll`, `v2.ll`, irgit's
/// `revert.ll` and `reapply.ll`, git's `git-revert.ll`, and irgit's stderr
/// of each merge (`revert.stderr`, `reapply.stderr`).
fn keep(result: &TripleResult, files: [(&str, &str); 8]) {
    let defect = |j: &Judged| {
        j.canonical_form
            || j.fallback
            || j.wrong
            || j.llvm_rejects
            || j.conflict_git_right
            || j.worse_than_git
            || j.broken.is_some()
    };
    if !(defect(&result.revert) || result.reapply.as_ref().is_some_and(defect)) {
        return;
    }
    let name = format!("merge-{}-{}", result.commit, result.path.replace('/', "_"));
    crate::common::keep_files("IRGIT_HISTORY_KEEP", &name, &files);
}

/// The re-application of v0 → v1 onto irgit's revert `reverted`; returns
/// irgit's result and stderr.
fn reapply(
    result: &mut TripleResult,
    reverted: &str,
    v0: &str,
    v1: &str,
    v2: &str,
) -> (String, String) {
    let inputs = Inputs {
        base: v0,
        ours: reverted,
        theirs: v1,
        accepted: result.inputs_accepted,
    };
    let run = merge_as_driver(v0, reverted, v1, MARKER);
    let mut judged = judge(&run, &inputs);
    let (git_clean, git_text, _) = git_merge_file(v0, reverted, v1);
    result.git_reapply_clean = git_clean;
    let known = result.expected_known;
    judged.wrong = judged.clean && known && !same_module(&run.output, v2);
    judged.set_git_right_conflict(
        judged.accepted
            && !judged.clean
            && judged.broken.is_none()
            && known
            && git_clean
            && same_module(&git_text, v2),
    );
    judged.worse_than_git = known && git_clean && git_text == v2 && judged.exit_nonzero;
    result.round_trip_exact = judged.clean && run.output == v2;
    result.reapply = Some(judged);
    (run.output, run.stderr)
}

/// What irgit's stderr says when it names the clash a conflict is about
/// (`src/merge/choose.rs`, `src/merge/clash.rs`).
const CLASHES_NAMED: [&str; 6] = [
    "with the old signature in",
    "with another signature than its own",
    "calls in @",
    "are both clean but disagree on",
    "both sides renamed the same value differently",
    "is clean only when FileCheck passes",
];

impl Judged {
    /// Records a conflict where git is clean and right (`is`): named or not.
    fn set_git_right_conflict(&mut self, is: bool) {
        self.conflict_git_right = is && !self.clash_named;
        self.conflict_clash_named = is && self.clash_named;
    }
}

/// What the run's exit, output and stderr say, against its inputs.
fn judge(run: &MergeRun, inputs: &Inputs) -> Judged {
    let outcome = run.outcome(MARKER);
    let clean = outcome == Outcome::Clean;
    let canonical_form = run.stderr.contains("written in canonical form");
    Judged {
        accepted: inputs.accepted,
        clean,
        broken: match outcome {
            Outcome::Broken(why) => Some(why),
            _ => None,
        },
        ours_text: clean
            && !canonical_form
            && changed_lines(inputs.ours, &run.output) <= changed_lines(inputs.base, inputs.theirs),
        canonical_form,
        fallback: inputs.accepted && run.stderr.contains("falling back to a line merge"),
        llvm_rejects: clean && inputs.accepted && !llvm_accepts_text(&run.output),
        clash_named: CLASHES_NAMED.iter().any(|c| run.stderr.contains(c)),
        exit_nonzero: run.code != Some(0),
        note: run.stderr.lines().take(2).collect::<Vec<_>>().join(" / "),
        ..Judged::default()
    }
}
