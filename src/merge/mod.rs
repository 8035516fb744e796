//! The three-way structured IR merge: git's merge driver for LLVM IR.
//!
//! A line merge of IR fails because one inserted instruction renumbers every
//! later `%N`. This merge canonicalizes the three versions, matches each
//! side's values to the base's, expresses each side as an edit script over
//! the base's identities, unions the scripts under the conflict rules
//! (`docs/merge-theory.md`), verifies the result with LLVM, and writes it
//! as ours' file with theirs' changes.
//!
//! ```text
//! base:   %1 = add i32 %x, 1      ours:   %1 = add i32 %x, 1      theirs: %1 = add i32 %x, 5
//!         ret i32 %1                      %2 = mul i32 %1, 2              ret i32 %1
//!                                         ret i32 %2
//! merged: %1 = add i32 %x, 5 / %2 = mul i32 %1, 2 / ret i32 %2   (ours' text)
//! ```
//!
//! The pipeline is [`merge_bytes`]; its stages, in order:
//!
//! | stage | module |
//! |---|---|
//! | normalise the header (`; ModuleID`) | here |
//! | rebase debug lines | [`rebase_lines`] |
//! | where every hunk of both sides is text-safe: git's clean result, checked by one LLVM load | [`text_safe`] |
//! | load the three sides (parse, verify, canonicalize) | [`loading`], [`structured`] |
//! | structured merge (match, diff, union) with git's line merge beside it | [`structured`] ([`crate::compare`]: model, matching, line diff, renames; [`conflict`], [`apply`], [`locations`]), [`git_merge`] |
//! | check with LLVM | [`structured::Structured::finish`] |
//! | find clashes (calls to changed signatures) | [`clash`] |
//! | choose what to write | [`choose`] (writers in [`ours_text`], conflicts in [`disputes`], [`render`]) |
//!
//! [`cli`] is the driver git runs; [`fallback`] the line merge it falls back to.

pub(crate) mod apply;
pub(crate) mod atoms;
pub(crate) mod attribute_edits;
pub(crate) mod choose;
pub(crate) mod clash;
pub mod cli;
pub(crate) mod conflict;
pub(crate) mod debug_values;
pub(crate) mod disputes;
pub(crate) mod fallback;
pub(crate) mod favor;
pub(crate) mod git_merge;
pub(crate) mod isomorphic;
pub(crate) mod kept_declarations;
pub(crate) mod loading;
pub(crate) mod locations;
pub(crate) mod ours_text;
pub(crate) mod outcome;
pub(crate) mod rebase_lines;
pub(crate) mod render;
pub(crate) mod structured;
pub mod text_safe;

use crate::ir::Session;
use crate::three::Three;
use choose::{Candidate, Decision, Evidence};
use git_merge::{GitMerge, GitVerdict};
use loading::verifies;

pub use outcome::{Conflict, MadeBy, MergeError, Outcome, Writer};
pub use render::{Markers, Style};

/// Bytes to write for a merge result: bitcode when ours was bitcode and the
/// merge is clean, the text otherwise (a conflict can only be shown as text).
pub fn output_bytes(ours: &[u8], outcome: &Outcome, path: &str) -> Result<Vec<u8>, MergeError> {
    if let Some(b) = &outcome.bytes {
        return Ok(b.clone());
    }
    if outcome.conflicts > 0 || !crate::canon::is_bitcode(ours) {
        return Ok(outcome.text.clone().into_bytes());
    }
    let session = Session::new();
    let m = session
        .parse(outcome.text.as_bytes(), path)
        .map_err(|e| MergeError::Internal(format!("the merged module does not parse: {e}")))?;
    Ok(m.to_bitcode())
}

/// Three-way merge of `base`, `ours`, `theirs` (text IR or bitcode).
/// `path` names the file in messages.
///
/// The structured merge decides what the result means; [`choose`] decides
/// how it is written: one of the inputs byte for byte (when a side changed
/// nothing); `git merge-file`'s result, when it is clean and means the
/// same; ours' text with theirs' changes translated into ours' names;
/// the canonical form, said on stderr.
pub fn merge_bytes(
    base: &[u8],
    ours: &[u8],
    theirs: &[u8],
    path: &str,
    markers: &Markers,
) -> Result<Outcome, MergeError> {
    merge_bytes_by(
        Route::TextSafeFirst,
        Three::new(base, ours, theirs),
        path,
        markers,
    )
}

/// How [`merge_bytes_by`] may reach its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// The text-safe merge ([`text_safe`]) where it applies, else the
    /// structured merge: what `irgit merge` does.
    TextSafeFirst,
    /// The structured merge always (to compare the two routes).
    StructuredOnly,
}

/// [`merge_bytes`] by `route`: both routes write the same result.
pub fn merge_bytes_by(
    route: Route,
    Three { base, ours, theirs }: Three<&[u8]>,
    path: &str,
    markers: &Markers,
) -> Result<Outcome, MergeError> {
    // 1. Normalise the header: `; ModuleID = ...` is LLVM's own comment
    //    (the build directory), not the user's text; ours' line stands for all three.
    let base = &*with_module_id_of(base, ours);
    let theirs = &*with_module_id_of(theirs, ours);
    let inputs = Three::new(base, ours, theirs);
    if let Decision::Write(c) = choose::decide(unchanged_side(inputs, path), path, None) {
        return Ok(choose::written(c, None, path));
    }
    // 2. Rebase debug lines into the merged source's numbering on all
    //    three sides (the rebasing of `docs/merge-theory.md`), so that a
    //    shift is no change.
    let outcome = match rebase_lines::rebase_bytes(base, ours, theirs) {
        Some(rebased) => {
            let merged = merge_sides(
                route,
                rebased.texts.as_ref().map(|x| x.as_bytes()),
                path,
                markers,
            )?;
            rebased.settle(merged, markers)
        }
        None => merge_sides(route, inputs, path, markers)?,
    };
    Ok(noting_unknown_values(outcome, ours))
}

/// Stages 3 to 7 of [`merge_bytes`], on sides whose debug lines are
/// rebased (or have none).
fn merge_sides(
    route: Route,
    inputs: Three<&[u8]>,
    path: &str,
    markers: &Markers,
) -> Result<Outcome, MergeError> {
    let Three { ours, theirs, .. } = inputs;
    let mut timer = crate::canon::PhaseTimer::new();
    let texts = as_texts(inputs);
    // 3. The candidates proven before any structured merge, by the rule
    //    of every candidate ([`choose::decide`]): a side unchanged (once
    //    more: rebasing can make one so), then, where every hunk is
    //    text-safe, git's clean result checked by LLVM.
    let mut git_known = None;
    let proven = unchanged_side(inputs, path).into_iter().chain(
        std::iter::once_with(|| {
            let texts = texts.filter(|_| route == Route::TextSafeFirst)?;
            match text_safe::merge(texts, path, markers) {
                text_safe::FastPath::Taken(candidate) => Some(candidate),
                text_safe::FastPath::Declined(git) => {
                    git_known = git;
                    None
                }
            }
        })
        .flatten(),
    );
    if let Decision::Write(c) = choose::decide(proven, path, None) {
        return Ok(choose::written(c, texts.map(|t| t.ours), path));
    }
    // 3-4. Load the three sides and merge them structurally, with git's
    //      line merge on another thread.
    let (structured, git) = structured_beside_git(inputs, texts, git_known, path, markers);
    let mut structured = structured?;
    timer.lap("merge: structured and git merge-file");
    // 5. Check a clean result with LLVM (in canonical form; when it is the
    //    same module as git's clean result, that form is its canonical form).
    structured.finish(path, git.as_ref().and_then(GitMerge::clean_canonical))?;
    timer.lap("merge: structured result checked");
    // 6. Find clashes: calls to a signature the other side changed.
    let clashes = structured.stale_calls(ours, theirs, path);
    timer.lap("merge: calls checked against changed signatures");
    // 7. Choose what to write.
    choose::choose(Evidence {
        structured,
        git,
        clashes,
        inputs,
        texts,
        path,
        markers,
    })
}

/// The three inputs as text, when all three are textual IR in UTF-8 (only
/// then can ours' text be written and git's line merge run).
fn as_texts(inputs: Three<&[u8]>) -> Option<Three<&str>> {
    if inputs.iter().any(|x| crate::canon::is_bitcode(x)) {
        return None;
    }
    inputs.map(|x| std::str::from_utf8(x).ok()).all()
}

/// The structured merge, with git's line merge (and the canonical form of
/// its clean result) on another thread.
fn structured_beside_git(
    inputs: Three<&[u8]>,
    texts: Option<Three<&str>>,
    git_known: Option<fallback::LineMerge>,
    path: &str,
    markers: &Markers,
) -> (Result<structured::Structured, MergeError>, Option<GitMerge>) {
    let verdict = GitVerdict::default();
    std::thread::scope(|scope| {
        let git = scope.spawn(|| GitMerge::run(texts, git_known, path, markers, &verdict));
        let names_wanted = |size| texts.is_some() && verdict.names_wanted(size);
        let structured = structured::structured(inputs, path, markers, &names_wanted);
        let git = git.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (structured, git)
    })
}

/// A side that changed nothing: the other side, byte for byte, once LLVM
/// has parsed and verified it (else the merge reports why), as a proven
/// candidate ([`Writer::UnchangedSide`]).
fn unchanged_side(Three { base, ours, theirs }: Three<&[u8]>, path: &str) -> Option<Candidate> {
    let unchanged = if ours == base {
        Some(theirs)
    } else if theirs == base || theirs == ours {
        Some(ours)
    } else {
        None
    };
    let result = unchanged.filter(|result| verifies(result, path))?;
    Some(Candidate {
        bytes: Some(result.to_vec()),
        ..Candidate::clean(Writer::UnchangedSide, String::new())
    })
}

/// Says on stderr how many debug values a clean result writes as unknown
/// ([`debug_values`]).
fn noting_unknown_values(mut o: Outcome, ours: &[u8]) -> Outcome {
    if o.conflicts > 0 || !o.text.contains(" poison, ") {
        return o;
    }
    let had = debug_values::unknown_count(&String::from_utf8_lossy(ours));
    let made = debug_values::unknown_count(&o.text).saturating_sub(had);
    if made > 0 {
        o.notes.push(format!(
            "{made} debug value record(s) that both sides changed differently are written as \
             unknown (poison): no merge can know the merged source's values"
        ));
    }
    o
}

/// `input` with its first line `; ModuleID = ...` replaced by ours' (when
/// both have one).
fn with_module_id_of<'a>(input: &'a [u8], ours: &[u8]) -> std::borrow::Cow<'a, [u8]> {
    const TAG: &[u8] = b"; ModuleID = ";
    let first_line = |t: &[u8]| -> Option<usize> {
        t.starts_with(TAG)
            .then(|| t.iter().position(|&c| c == b'\n').unwrap_or(t.len()))
    };
    match (first_line(input), first_line(ours)) {
        (Some(i), Some(o)) if input[..i] != ours[..o] => {
            let mut v = ours[..o].to_vec();
            v.extend_from_slice(&input[i..]);
            std::borrow::Cow::Owned(v)
        }
        _ => std::borrow::Cow::Borrowed(input),
    }
}
