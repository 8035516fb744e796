//! Choosing what to write. The structured merge decides what the result
//! *means*; this stage decides how to *write* it, by one rule ([`decide`])
//! over the candidates of every route, in the order of the ways a result
//! can be written ([`Writer`]). The fast paths (a side unchanged, every hunk
//! text-safe) hand it *proven* candidates before the structured merge runs;
//! [`choose`] hands it the others once it has, after the conflicts the
//! structured merge itself finds.
//!
//! Every clean way of writing is a *candidate* that LLVM checks against the
//! structured merge's meaning (parse, verify, canonical form): the first
//! that agrees is written. A candidate that is clean, verifies and means
//! something else is evidence that one derivation is wrong, so the merge
//! stops with a conflict that names the two ([`super::disputes`]): never a
//! silent choice.
//!
//! ```text
//! structured: clean, `%add = add i32 %arg0, 5` in @f
//! git merge-file: conflicts           -> no evidence, next
//! ours' text (theirs in ours' names): `%5 = add i32 %4, 5`, same canonical form -> written
//! ```

use super::clash::Clash;
use super::debug_values;
use super::disputes;
use super::git_merge::GitMerge;
use super::kept_declarations;
use super::loading::{canonical_of, verifies};
use super::ours_text::{llvm_comments, placed, result_in_ours_layout, OursText};
use super::outcome::{debug_dump, Conflict, MadeBy, MergeError, Outcome, Writer};
use super::render::{self, Markers};
use super::structured::Structured;
use crate::compare::faithful;
use crate::config::CanonOptions;
use crate::three::Side;
use crate::three::Three;

/// The clean writers tried once the result is known to need ours' names.
const IN_OURS_NAMES: [Writer; 7] = [
    Writer::GitResult,
    Writer::OursText,
    Writer::OursTextDeclarationsKept,
    Writer::OursTextUnknownDebugValues,
    Writer::PlacedLines,
    Writer::ResultInOursLayout,
    Writer::CanonicalForm,
];

/// How a candidate compares with the structured merge's meaning.
pub(crate) enum Check {
    /// It parses, verifies and has the expected canonical form.
    Agrees,
    /// It parses and verifies, but means something else: its canonical form.
    Disagrees(String),
    /// It has conflicts or is not valid IR: no evidence either way.
    NoEvidence,
}

/// One way of writing the result.
pub(crate) struct Candidate {
    /// Who derived it.
    pub(crate) writer: Writer,
    /// Its text (ours' text, possibly with markers).
    pub(crate) text: String,
    /// Conflict regions it reports.
    pub(crate) conflicts: usize,
    /// Its canonical form, when already in hand (parsed and verified).
    pub(crate) canonical: Option<String>,
    /// The bytes to write instead of `text`: an input as it is (a side
    /// unchanged, maybe bitcode).
    pub(crate) bytes: Option<Vec<u8>>,
}

impl Candidate {
    /// A clean candidate `writer` wrote as `text`.
    pub(crate) fn clean(writer: Writer, text: String) -> Candidate {
        Candidate {
            writer,
            text,
            conflicts: 0,
            canonical: None,
            bytes: None,
        }
    }

    /// Whether it is proven without the structured merge, so written as
    /// soon as it is made: a side unchanged, or every hunk text-safe
    /// (LLVM verified both).
    fn proven(&self) -> bool {
        matches!(self.writer, Writer::UnchangedSide | Writer::TextSafe)
    }
}

/// What the candidates decided.
pub(crate) enum Decision {
    /// This candidate agrees: write it.
    Write(Candidate),
    /// This candidate is valid and means something else.
    Disagree(Candidate, String),
    /// None agreed, none disagreed.
    Undecided,
}

/// Checks `c` against the structured merge's canonical form `expected`.
pub(crate) fn check(c: &Candidate, path: &str, expected: &str) -> Check {
    if c.conflicts > 0 {
        return Check::NoEvidence;
    }
    let canonical = match &c.canonical {
        Some(k) => Some(k.clone()),
        None => canonical_of(&c.text, path),
    };
    match canonical {
        Some(k) if k == expected => Check::Agrees,
        Some(k) => Check::Disagrees(k),
        None => Check::NoEvidence,
    }
}

/// The one rule every candidate of a merge meets, the fast paths' too: in
/// order, a proven candidate ([`Candidate::proven`]) is written as soon as
/// it is made; any other is checked against the structured merge's
/// canonical form `expected` (each only when the ones before neither agreed
/// nor disagreed): the first that agrees is written, the first valid one
/// that disagrees stops the merge. Before the structured merge has run
/// (`expected` is `None`), only a proven candidate decides. A
/// transcription of the structured result itself
/// ([`Writer::ResultInOursLayout`]) that means something else is no second
/// derivation, only a failed transcription: the next candidate is tried.
pub(crate) fn decide(
    candidates: impl IntoIterator<Item = Candidate>,
    path: &str,
    expected: Option<&str>,
) -> Decision {
    for c in candidates {
        if c.proven() {
            return Decision::Write(c);
        }
        let Some(expected) = expected else {
            continue;
        };
        match check(&c, path, expected) {
            Check::Agrees => return Decision::Write(c),
            Check::Disagrees(_) if c.writer == Writer::ResultInOursLayout => {}
            Check::Disagrees(k) => return Decision::Disagree(c, k),
            Check::NoEvidence => {}
        }
    }
    Decision::Undecided
}

/// A decided clean candidate as it is written: an input byte for byte;
/// any other text in ours' form (canonical when ours is, `ours` its text),
/// with LLVM's `; preds` comments that no longer match their branches
/// written again.
pub(crate) fn written(c: Candidate, ours: Option<&str>, path: &str) -> Outcome {
    let made_by = MadeBy::Written(c.writer);
    match (c.bytes, ours) {
        (Some(bytes), _) => Outcome::exact(&bytes, 0, made_by),
        (None, Some(ours)) => {
            let text = Outcome::exact_text(c.text, made_by);
            without_stale_comments(in_ours_form(text, ours, path))
        }
        (None, None) => Outcome::exact_text(c.text, made_by),
    }
}

/// What the chooser works from.
pub(crate) struct Evidence<'a> {
    pub(crate) structured: Structured,
    pub(crate) git: Option<GitMerge>,
    /// Calls in the clean result to a signature the other side changed.
    pub(crate) clashes: Vec<Clash>,
    /// Base, ours, theirs as bytes.
    pub(crate) inputs: Three<&'a [u8]>,
    /// The same as text, when all three are textual IR in UTF-8.
    pub(crate) texts: Option<Three<&'a str>>,
    pub(crate) path: &'a str,
    pub(crate) markers: &'a Markers,
}

/// The rule: the first line that applies decides what is written.
///
/// 1. bitcode: the structured merge's own result;
/// 2. clean, no clash, and git's result means the same: git's bytes;
/// 3. a call to a signature the other side changed: a conflict on the caller;
/// 4. both sides renamed a value differently: a conflict on its function;
/// 5. the structured merge conflicts: its conflicts in ours' text;
/// 6. else the first of [`IN_OURS_NAMES`] that agrees, a conflict where one
///    disagrees, the line merge for review where none decides.
///
/// Every clean result in ours' text is then written in ours' form
/// (canonical when ours is) with LLVM's `; preds` comments refreshed, and a
/// conflict that cannot be resolved to a valid side is widened.
pub(crate) fn choose(evidence: Evidence<'_>) -> Result<Outcome, MergeError> {
    let Evidence {
        mut structured,
        mut git,
        clashes,
        inputs,
        texts,
        path,
        markers,
    } = evidence;
    let Some(texts) = texts else {
        return Ok(bitcode_result(structured, &clashes));
    };
    let clean = structured.outcome.conflicts == 0;
    if clean && clashes.is_empty() {
        if let Some(agreed) = agreeing_git_text(&structured, &mut git) {
            // The models are freed before the result is copied (not on
            // another thread, which would free them while the copies are
            // made): a large merge's peak memory is here.
            drop((structured, git));
            let agreed = Candidate::clean(Writer::GitResult, agreed);
            return Ok(written(agreed, Some(texts.ours), path));
        }
    }
    let ours_text = OursText::write(&mut structured, inputs, texts, path, markers)?;
    let sides = ours_text.sides(texts.ours);
    let outcome = if !clashes.is_empty() {
        call_clash(&ours_text.merged, &clashes, sides, markers)
    } else if clean && !ours_text.rename_clashes.is_empty() {
        let host = &ours_text.merged.text;
        rename_clash(host, &ours_text.rename_clashes, sides, markers)
    } else if !clean {
        conflicts_in_ours_text(structured, &ours_text, texts, markers)
    } else {
        let writers = Writers {
            structured: &structured,
            git: git.as_ref(),
            ours_text: &ours_text,
            base: texts.base,
            ours: texts.ours,
            theirs: texts.theirs,
            path,
            markers,
            has_comments: texts.iter().any(|t| crate::comments::has_user_comments(t)),
        };
        match first_agreeing(&writers) {
            Chosen::Canonical => in_canonical_form(structured, path)?,
            Chosen::Written(outcome) => outcome,
        }
    };
    let outcome = either_side_parses(outcome, sides, texts, markers);
    Ok(without_stale_comments(outcome))
}

/// Bitcode inputs: the structured merge's result (canonical form, or its
/// conflicts); a clash makes it a conflict, written as text for review.
fn bitcode_result(structured: Structured, clashes: &[Clash]) -> Outcome {
    let mut outcome = structured.outcome;
    if outcome.conflicts > 0 {
        outcome.made_by = Conflict::Structured.into();
    }
    if !clashes.is_empty() {
        outcome.conflicts = clashes.len();
        outcome.made_by = Conflict::CallClash.into();
        let said: Vec<String> = clashes.iter().map(Clash::describe).collect();
        outcome.notes.push(format!(
            "{}; the merged module is written as text, without markers",
            said.join("; ")
        ));
    }
    outcome
}

/// git's clean result, taken out of `git`, when it means what the
/// structured merge means: it is clean, parses and verifies, and its
/// canonical form is the structured merge's (what [`check`] asks of
/// [`git_candidate`], without copying the texts).
fn agreeing_git_text(structured: &Structured, git: &mut Option<GitMerge>) -> Option<String> {
    let expected = structured.canonical.as_deref()?;
    let merged = git.as_mut()?;
    let agrees = merged.merged.conflicts == 0 && merged.clean_canonical() == Some(expected);
    agrees.then(|| std::mem::take(&mut merged.merged.text))
}

/// git's line merge as a candidate, when it is clean and its result parses
/// and verifies (its canonical form is then in hand).
fn git_candidate(git: Option<&GitMerge>) -> Option<Candidate> {
    let git = git?;
    let canonical = git.clean_canonical()?.to_string();
    (git.merged.conflicts == 0).then(|| Candidate {
        canonical: Some(canonical),
        ..Candidate::clean(Writer::GitResult, git.merged.text.clone())
    })
}

/// What the writers of a clean result in ours' names work from.
struct Writers<'a> {
    structured: &'a Structured,
    git: Option<&'a GitMerge>,
    ours_text: &'a OursText,
    /// Base, ours and theirs, as written.
    base: &'a str,
    ours: &'a str,
    theirs: &'a str,
    path: &'a str,
    markers: &'a Markers,
    /// Whether any side has a comment of the user's.
    has_comments: bool,
}

/// What [`first_agreeing`] chose.
enum Chosen {
    /// The structured merge's canonical form.
    Canonical,
    /// Anything else, ready to write.
    Written(Outcome),
}

impl Writers<'_> {
    /// The candidates `writer` makes (most make one at most).
    fn candidates(&self, writer: Writer) -> Vec<Candidate> {
        if writer == Writer::ResultInOursLayout {
            return self.results_in_ours_layout();
        }
        self.candidate(writer).into_iter().collect()
    }

    /// The structured result written into ours' text, when it keeps every
    /// comment: ours' all, and theirs changed none (the result has none).
    fn results_in_ours_layout(&self) -> Vec<Candidate> {
        use crate::comments::{missing_fragments, user_comment_fragments};
        let (Some(expected), Some(ours_canonical)) = (
            self.structured.canonical.as_deref(),
            self.structured.ours_canonical.as_deref(),
        ) else {
            return Vec::new();
        };
        if user_comment_fragments(self.base) != user_comment_fragments(self.theirs) {
            return Vec::new();
        }
        let ours = (self.ours, &self.ours_text.ours_names, &self.structured.ma);
        let texts = result_in_ours_layout(expected, ours_canonical, ours, self.path, self.markers);
        for (n, text) in texts.iter().enumerate() {
            debug_dump(&[(&format!("result-in-ours-layout-{n}.ll"), text)]);
        }
        texts
            .into_iter()
            .filter(|text| missing_fragments(self.ours, text).is_empty())
            .map(|text| Candidate::clean(Writer::ResultInOursLayout, text))
            .collect()
    }

    /// The candidate `writer` makes, if it makes one.
    fn candidate(&self, writer: Writer) -> Option<Candidate> {
        let merged = &self.ours_text.merged;
        let clean_text = |text: &str| Candidate::clean(writer, faithful::renumber(text));
        match writer {
            Writer::GitResult => git_candidate(self.git),
            Writer::OursText => Some(Candidate {
                conflicts: merged.conflicts,
                ..clean_text(&merged.text)
            }),
            Writer::OursTextDeclarationsKept => {
                let expected = self.structured.canonical.as_deref()?;
                let text = faithful::renumber(&merged.text);
                (merged.conflicts == 0)
                    .then(|| kept_declarations::restored(&text, self.ours, expected))
                    .flatten()
                    .map(|text| Candidate::clean(writer, text))
            }
            // The line merge's conflicts are debug values both sides changed:
            // the structured merge wrote them as unknown, and so can the line merge.
            Writer::OursTextUnknownDebugValues => (merged.conflicts > 0)
                .then(|| debug_values::resolved(&merged.text, self.markers))
                .flatten()
                .map(|text| clean_text(&text)),
            // Ours reprinted (blocks, functions reordered): the line merge
            // conflicts, but theirs' change may still have a place in ours' layout.
            Writer::PlacedLines => (merged.conflicts > 0)
                .then(|| placed::place(&self.ours_text.base, self.ours, &self.ours_text.theirs))
                .flatten()
                .map(|text| clean_text(&text)),
            // The canonical form drops comments, so only without them.
            Writer::ResultInOursLayout => None,
            // Made before the structured merge ([`super::merge_sides`]).
            Writer::UnchangedSide | Writer::TextSafe => None,
            Writer::CanonicalForm => (!self.has_comments).then(|| Candidate {
                canonical: self.structured.canonical.clone(),
                ..Candidate::clean(writer, self.structured.outcome.text.clone())
            }),
        }
    }
}

/// A clean structured merge: the first writer of [`IN_OURS_NAMES`] whose
/// candidate agrees with it; a conflict when one disagrees; the line merge
/// for review when none decides.
fn first_agreeing(w: &Writers<'_>) -> Chosen {
    let path = w.path;
    let Some(expected) = w.structured.canonical.clone() else {
        return Chosen::Written(w.structured.outcome.clone());
    };
    debug_dump(&[
        ("base-in-ours-names.ll", &w.ours_text.base),
        ("theirs-in-ours-names.ll", &w.ours_text.theirs),
        (
            "line-merge.ll",
            &faithful::renumber(&w.ours_text.merged.text),
        ),
        ("expected-canonical.ll", &expected),
    ]);
    let candidates = IN_OURS_NAMES
        .iter()
        .flat_map(|&writer| w.candidates(writer));
    let outcome = match decide(candidates, path, Some(&expected)) {
        Decision::Write(c) if c.writer == Writer::CanonicalForm => return Chosen::Canonical,
        Decision::Write(c) => written(c, Some(w.ours), path),
        Decision::Disagree(c, meaning) => {
            let sides = w.ours_text.sides(w.ours);
            disagreement(&c, &meaning, &expected, sides, w.markers)
        }
        Decision::Undecided => for_review(&w.ours_text.merged),
    };
    Chosen::Written(outcome)
}

/// The structured merge's canonical form, said on stderr.
fn in_canonical_form(structured: Structured, path: &str) -> Result<Outcome, MergeError> {
    // LLVM must accept it as written (when it came from git's result, it
    // was not verified after canonicalizing).
    if !structured.canonical_verified && !verifies(structured.outcome.text.as_bytes(), path) {
        return Err(MergeError::Internal(
            "the canonical form of the merge does not verify".into(),
        ));
    }
    let mut outcome = structured.outcome;
    outcome.made_by = MadeBy::Written(Writer::CanonicalForm);
    outcome.notes.push(
        "the merge could not be written in ours' text; it is written in canonical form".into(),
    );
    Ok(outcome)
}

/// No candidate decided: the line merge for review, never a comment
/// dropped silently.
fn for_review(merged: &super::fallback::LineMerge) -> Outcome {
    let conflicts = merged.conflicts.max(1);
    let mut outcome = Outcome::exact(
        merged.text.as_bytes(),
        conflicts,
        Conflict::ForReview.into(),
    );
    outcome.notes.push(
        "the structured merge is clean, but it could not be written in ours' text; the \
         line merge of the three versions (in ours' names) is written for review"
            .into(),
    );
    outcome
}

/// A clean result with each LLVM `; preds = ...` comment that no longer
/// matches its branches written again ([`llvm_comments`]).
fn without_stale_comments(outcome: Outcome) -> Outcome {
    if outcome.conflicts > 0 {
        return outcome;
    }
    let Some(fresh) = outcome
        .bytes
        .as_deref()
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(llvm_comments::refresh_preds)
    else {
        return outcome;
    };
    outcome.replaced_by(fresh.as_bytes(), 0)
}

/// A conflict whose sections, all taken ours' or all theirs', do not
/// parse and verify (a hunk that cuts a function, a declaration one side removed
/// while the other's section still calls it) is widened to one conflict
/// over the lines where the files differ: taking a side then gives that
/// side's file (theirs in ours' names, or as written when that does not
/// parse).
fn either_side_parses(
    outcome: Outcome,
    Three {
        base: base_in_ours,
        ours,
        theirs: theirs_in_ours,
    }: Three<&str>,
    raw: Three<&str>,
    markers: &Markers,
) -> Outcome {
    if outcome.conflicts == 0 {
        return outcome;
    }
    let text = outcome.written_text();
    let parses = |t: &str| crate::ir::text_parses_and_verifies(t);
    let taken = |keep| render::take_side(&text, keep, markers);
    if parses(&taken(render::Keep::Ours)) && parses(&taken(render::Keep::Theirs)) {
        return outcome;
    }
    let [base, theirs] = if parses(theirs_in_ours) {
        [base_in_ours, theirs_in_ours]
    } else {
        [raw.base, raw.theirs]
    };
    let hunk = render::narrowed_hunk(ours, base, theirs, markers);
    let mut widened = outcome.replaced_by(hunk.as_bytes(), 1);
    widened.made_by = Conflict::Widened.into();
    widened.notes.push(
        "the conflicts, taken all ours' or all theirs', would not parse: written as one \
         conflict over the lines where the files differ"
            .into(),
    );
    widened
}

/// A derivation that is clean and valid but means something else than the
/// structured merge: a conflict on the functions where they differ, in
/// the candidate's text (ours' text), with ours', base's and theirs'
/// versions of each; one conflict over the whole file when the difference
/// is not inside functions.
fn disagreement(
    c: &Candidate,
    meaning: &str,
    expected: &str,
    Three { base, ours, theirs }: Three<&str>,
    markers: &Markers,
) -> Outcome {
    let disputed = disputes::disputed(meaning, expected);
    let written = (!disputed.is_empty())
        .then(|| {
            disputes::conflict_on_functions(
                &c.text,
                &disputed,
                Three::new(base, ours, theirs),
                markers,
            )
        })
        .flatten();
    let (text, conflicts) =
        written.unwrap_or_else(|| (render::conflict_hunk(ours, base, theirs, markers), 1));
    let what = if disputed.is_empty() {
        "the module".to_string()
    } else {
        disputed.join(", ")
    };
    let mut outcome = Outcome::exact(text.as_bytes(), conflicts, Conflict::Disagreement.into());
    outcome.notes.push(format!(
        "{} and the structured merge are both clean but disagree on {what}; \
         written as a conflict for review",
        c.writer.name()
    ));
    outcome
}

/// Both sides renamed a value differently: a conflict on the functions
/// concerned (ours' versions against theirs'), however the rest merges.
fn rename_clash(
    host: &str,
    clashes: &[(String, String)],
    texts: Three<&str>,
    markers: &Markers,
) -> Outcome {
    let functions: Vec<String> = clashes.iter().map(|(_, f)| f.clone()).collect();
    let named: Vec<String> = clashes
        .iter()
        .map(|(value, function)| format!("%{value} in {function}"))
        .collect();
    let note = format!(
        "both sides renamed the same value differently ({}); written as a conflict",
        named.join(", ")
    );
    conflict_on(
        host,
        functions,
        texts,
        markers,
        (note, Conflict::RenameClash),
    )
}

/// Calls that clash with a signature the other side changed: a conflict
/// on each calling function, in ours' text (the line merge in ours' names,
/// when it is clean; else one conflict over the file).
fn call_clash(
    merged: &super::fallback::LineMerge,
    clashes: &[Clash],
    texts: Three<&str>,
    markers: &Markers,
) -> Outcome {
    let mut functions: Vec<String> = clashes.iter().map(|c| c.caller.clone()).collect();
    let said: Vec<String> = clashes.iter().map(Clash::describe).collect();
    let note = format!("{}; written as a conflict", said.join("; "));
    let mut host = if merged.conflicts == 0 {
        merged.text.clone()
    } else {
        String::new()
    };
    // A function one side removed is a conflict too (kept / removed), in
    // the host where the line merge took the removal.
    for clash in clashes.iter().filter(|c| c.removed) {
        let keeper = if clash.changed_by == Some(Side::Theirs) {
            texts.ours
        } else {
            texts.theirs
        };
        if !host.is_empty() {
            host = disputes::with_function_of(&host, keeper, &clash.callee).unwrap_or_default();
        }
        functions.push(clash.callee.clone());
    }
    conflict_on(
        &host,
        functions,
        texts,
        markers,
        (note, Conflict::CallClash),
    )
}

/// A conflict on `functions` (ours', base's and theirs' versions) in
/// `host`, ours' text; one conflict over the whole file when one of them
/// is not a function of `host`.
fn conflict_on(
    host: &str,
    mut functions: Vec<String>,
    Three { base, ours, theirs }: Three<&str>,
    markers: &Markers,
    (note, why): (String, Conflict),
) -> Outcome {
    functions.sort();
    functions.dedup();
    let (text, conflicts) =
        disputes::conflict_on_functions(host, &functions, Three::new(base, ours, theirs), markers)
            .filter(|(_, n)| *n > 0)
            .unwrap_or_else(|| (render::conflict_hunk(ours, base, theirs, markers), 1));
    let mut outcome = Outcome::exact(text.as_bytes(), conflicts, why.into());
    outcome.notes.push(note);
    outcome
}

/// The structured merge conflicts: its conflicts written in ours' text.
/// Where the lines conflict, the line merge in ours' names; where they
/// merge but the IR does not (a use of a value the other side deleted...),
/// a conflict over each function the structured merge conflicts in (one
/// over the lines where the files differ when a conflict is outside
/// functions), the rest ours' text.
fn conflicts_in_ours_text(
    structured: Structured,
    ours_text: &OursText,
    texts: Three<&str>,
    markers: &Markers,
) -> Outcome {
    debug_dump(&[("structured-conflicts.ll", &structured.outcome.text)]);
    let merged = &ours_text.merged;
    if merged.conflicts > 0 {
        let conflicts = merged.conflicts;
        let mut outcome = Outcome::exact(
            merged.text.as_bytes(),
            conflicts,
            Conflict::Structured.into(),
        );
        outcome
            .notes
            .push("conflicts are written in ours' text".into());
        return outcome;
    }
    let functions = disputes::functions_in_conflict(&structured.outcome.text, markers);
    let note = format!(
        "the structured merge found {} conflict(s) that the lines do not show ({}); \
         written as a conflict in ours' names",
        structured.outcome.conflicts,
        match &functions {
            Some(names) => names.join(", "),
            None => "outside functions".to_string(),
        }
    );
    let sides = ours_text.sides(texts.ours);
    conflict_on(
        &merged.text,
        functions.unwrap_or_default(),
        sides,
        markers,
        (note, Conflict::Structured),
    )
}

/// When ours is in canonical form (a repository that uses the hook), so is
/// the result.
fn in_ours_form(outcome: Outcome, ours: &str, path: &str) -> Outcome {
    let Some(bytes) = &outcome.bytes else {
        return outcome;
    };
    // The canonical form names every entry block `entry`: a cheap test
    // that spares most files a canonicalization.
    if ours.contains("\ndefine ") && !ours.contains("\nentry:") {
        return outcome;
    }
    let options = CanonOptions::default();
    let canon = |b: &[u8]| crate::canon::canonicalize_bytes(b, path, &options).ok();
    if canon(ours.as_bytes()).as_deref() != Some(ours) {
        return outcome;
    }
    match canon(bytes) {
        Some(canonical) => Outcome::exact(canonical.as_bytes(), 0, outcome.made_by),
        None => outcome,
    }
}
