//! The three-way structured IR merge: git's merge driver for LLVM IR.
//!
//! A line merge of IR fails because one inserted instruction renumbers every
//! later `%N`. This merge canonicalizes the three versions, matches each
//! side's values to the base's, expresses each side as an edit script over
//! the base's identities, unions the scripts under the spec's conflict rules
//! (`docs/ir-merge-theory.md`), verifies the result with LLVM and prints it
//! canonically.
//!
//! ```text
//! base:   %1 = add i32 %x, 1      ours:   %1 = add i32 %x, 1      theirs: %1 = add i32 %x, 5
//!         ret i32 %1                      %2 = mul i32 %1, 2              ret i32 %1
//!                                         ret i32 %2
//! merged: %add = add i32 %arg0, 5 / %mul = mul i32 %add, 2 / ret i32 %mul
//! ```
//!
//! Stages: [`model`] (parse canonical text), [`matching`] (A→O, B→O),
//! [`diff`] (block diffs as maximal intervals), [`conflict`] (rules and
//! union), [`apply`] (module-wide union over base identities), [`render`]
//! (markers), [`locations`] (a block's `!dbg` merged after its code),
//! [`isomorphic`] (the structured result recognized in git's),
//! [`faithful`], [`lines`] and [`placed`] (ours' text), [`fallback`] (line merge),
//! [`cli`] (the driver).

pub mod agreement;
pub mod apply;
pub mod atoms;
pub mod attribute_edits;
pub mod clash;
pub mod cli;
pub mod conflict;
pub mod debug_values;
pub mod diff;
pub mod faithful;
pub mod fallback;
pub mod favor;
pub mod isomorphic;
pub mod kept_declarations;
pub mod lines;
pub mod llvm_comments;
pub mod locations;
pub mod matching;
pub mod model;
pub mod placed;
pub mod rebase_lines;
pub mod rename;
pub mod render;

use crate::canon::source_map::SourceNames;
use crate::config::CanonOptions;
use crate::ir::{IrModule, Session};
use model::Side;

pub use render::{Markers, Style};

/// The result of a merge.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The merged module: the bytes to write when `bytes` is `None`
    /// (canonical IR when clean, text with markers otherwise).
    pub text: String,
    /// Exactly the bytes to write, when the result is written in ours' text
    /// (or is one of the inputs, byte for byte).
    pub bytes: Option<Vec<u8>>,
    /// Number of conflicting regions (0 = clean).
    pub conflicts: usize,
    /// What the user should know about how the result was written.
    pub notes: Vec<String>,
}

impl Outcome {
    fn exact(bytes: &[u8], conflicts: usize) -> Outcome {
        Outcome {
            text: String::from_utf8_lossy(bytes).into_owned(),
            bytes: Some(bytes.to_vec()),
            conflicts,
            notes: Vec::new(),
        }
    }
}

/// Why the structured merge could not decide.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// An input is not valid IR (a line merge is the right tool).
    #[error("{0}")]
    Input(String),
    /// The structured merge itself failed (never a clean result).
    #[error("{0}")]
    Internal(String),
}

fn comment_free() -> CanonOptions {
    CanonOptions {
        keep_comments: false,
        ..CanonOptions::default()
    }
}

/// The canonical text of a parsed, verified module, and where its names
/// came from when `source_names` is set. The merge decides on forms
/// without comments (comments merge as lines). The module is not verified
/// again after canonicalization: these texts are only compared and merged,
/// and every result the merge hands out is verified itself.
fn canonical(
    m: &IrModule<'_>,
    path: &str,
    source_names: bool,
) -> Result<(String, Option<SourceNames>), MergeError> {
    let extras = crate::canon::Extras {
        source_names,
        verify_after: false,
    };
    crate::canon::canonical_text_for(m, &[], path, &comment_free(), extras)
        .map_err(|e| MergeError::Internal(e.to_string()))
}

/// Parses one input and returns its canonical text, and where its names
/// came from when `names_wanted(input size)` says so once the input is
/// parsed and verified. Every side is parsed under the same `path`, because a module
/// without `source_filename` takes its name from it.
fn load(
    session: &Session,
    bytes: &[u8],
    path: &str,
    side: &str,
    names_wanted: &dyn Fn(usize) -> bool,
) -> Result<(String, Option<SourceNames>), MergeError> {
    let mut timer = crate::canon::PhaseTimer::new();
    let m = session
        .parse(bytes, path)
        .map_err(|e| MergeError::Input(format!("{side} version: {e}")))?;
    m.verify()
        .map_err(|e| MergeError::Input(format!("{side} version: {path}: {e}")))?;
    timer.lap(&format!("merge: {side} parsed and verified"));
    let r = canonical(&m, path, names_wanted(bytes.len()));
    timer.lap(&format!("merge: {side} canonical"));
    r
}

/// Whether git's line merge is clean, once it is known. Only a merge that
/// cannot take git's result needs the inputs' source names (to write ours'
/// text), and recording them costs a fair part of a canonicalization: an
/// input canonicalized after git's line merge was found clean skips them.
#[derive(Default)]
struct GitVerdict {
    clean: std::sync::Mutex<Option<bool>>,
    known: std::sync::Condvar,
}

/// From this size on an input waits for git's verdict before it is
/// canonicalized: parsing it took longer than `git merge-file` takes, and
/// recording its names would cost more than the wait. A smaller input
/// records its names unless the verdict is already in.
const WAIT_FOR_GIT_FROM_BYTES: usize = 256 << 10;

impl GitVerdict {
    fn set(&self, clean: bool) {
        let mut c = self.clean.lock().unwrap_or_else(|p| p.into_inner());
        c.get_or_insert(clean);
        self.known.notify_all();
    }

    /// Whether an input of `size` bytes should record its source names.
    fn names_wanted(&self, size: usize) -> bool {
        let mut c = self.clean.lock().unwrap_or_else(|p| p.into_inner());
        while c.is_none() && size >= WAIT_FOR_GIT_FROM_BYTES {
            c = self.known.wait(c).unwrap_or_else(|p| p.into_inner());
        }
        *c != Some(true)
    }
}

/// Says "not clean" when git's thread ends (or panics) without a verdict,
/// so that no input waits forever.
struct VerdictOnExit<'a>(&'a GitVerdict);

impl Drop for VerdictOnExit<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

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
/// The structured merge decides what the result means; the result is then
/// written, in this order of preference: one of the inputs byte for byte
/// (when a side changed nothing); `git merge-file`'s result, when it is
/// clean and means the same; ours' text with theirs' changes translated
/// into ours' names ([`faithful`]); the canonical form, said on stderr.
pub fn merge_bytes(
    base: &[u8],
    ours: &[u8],
    theirs: &[u8],
    path: &str,
    markers: &Markers,
) -> Result<Outcome, MergeError> {
    // `; ModuleID = ...` is LLVM's own comment (the build directory), not
    // the user's text: ours' line stands for all three.
    let base = &*with_module_id_of(base, ours);
    let theirs = &*with_module_id_of(theirs, ours);
    if let Some(result) = unchanged_side(base, ours, theirs, path) {
        return Ok(Outcome::exact(result, 0));
    }
    // Debug lines in the merged source's numbering on all three sides
    // (seed 004's rebasing), so that a shift is no change.
    if let Some(r) = rebase_lines::rebase_bytes(base, ours, theirs) {
        let [b, o, t] = &r.texts;
        let merged = merge_rebased(b.as_bytes(), o.as_bytes(), t.as_bytes(), path, markers)?;
        return Ok(noting_unknown_values(r.settle(merged, markers), ours));
    }
    Ok(noting_unknown_values(
        merge_rebased(base, ours, theirs, path, markers)?,
        ours,
    ))
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

/// A side that changed nothing: the other side, byte for byte, once LLVM
/// has parsed and verified it (else the merge reports why).
fn unchanged_side<'a>(
    base: &[u8],
    ours: &'a [u8],
    theirs: &'a [u8],
    path: &str,
) -> Option<&'a [u8]> {
    let unchanged = if ours == base {
        Some(theirs)
    } else if theirs == base || theirs == ours {
        Some(ours)
    } else {
        None
    };
    unchanged.filter(|r| verifies(r, path))
}

/// [`merge_bytes`] of inputs whose debug lines are rebased (or have none).
fn merge_rebased(
    base: &[u8],
    ours: &[u8],
    theirs: &[u8],
    path: &str,
    markers: &Markers,
) -> Result<Outcome, MergeError> {
    if let Some(result) = unchanged_side(base, ours, theirs, path) {
        return Ok(Outcome::exact(result, 0));
    }
    let mut timer = crate::canon::PhaseTimer::new();
    // Ours' text can be written (and git's line merge run) only when all
    // three inputs are textual IR in UTF-8.
    let texts = match (
        std::str::from_utf8(base),
        std::str::from_utf8(ours),
        std::str::from_utf8(theirs),
    ) {
        (Ok(b), Ok(o), Ok(t))
            if [base, ours, theirs]
                .iter()
                .all(|x| !crate::canon::is_bitcode(x)) =>
        {
            Some((b, o, t))
        }
        _ => None,
    };
    // git's own line merge and the canonical form of its clean result, on
    // another thread while the structured merge runs.
    let verdict = GitVerdict::default();
    let (s, git) = std::thread::scope(|scope| {
        let git = scope.spawn(|| {
            let _on_exit = VerdictOnExit(&verdict);
            let (b, o, t) = texts?;
            let mut timer = crate::canon::PhaseTimer::new();
            let lm = line_merge_texts(b, o, t, markers).ok()?;
            verdict.set(lm.conflicts == 0);
            timer.lap("merge: git merge-file");
            let canon = (lm.conflicts == 0)
                .then(|| canonical_of(&lm.text, path))
                .flatten();
            timer.lap("merge: git's result canonical");
            Some((lm, canon))
        });
        let s = structured(base, ours, theirs, path, markers, &|size| {
            texts.is_some() && verdict.names_wanted(size)
        });
        let git = git.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (s, git)
    });
    let mut s = s?;
    timer.lap("merge: structured and git merge-file");
    // A clean structured result is checked by LLVM in canonical form; when
    // it is the same module as git's clean result (whose canonical form is
    // in hand, parsed and verified), that form is its canonical form too.
    let git_canon = git.as_ref().and_then(|(_, c)| c.as_deref());
    s.finish(path, git_canon)?;
    timer.lap("merge: structured result checked");
    let clashes = s.stale_calls(ours, theirs, path);
    timer.lap("merge: calls checked against changed signatures");
    let Some((tbase, tours, ttheirs)) = texts else {
        if !clashes.is_empty() {
            // Bitcode: the merged module as text, for review.
            s.outcome.conflicts = clashes.len();
            let said: Vec<String> = clashes.iter().map(clash::Clash::describe).collect();
            s.outcome.notes.push(format!(
                "{}; the merged module is written as text, without markers",
                said.join("; ")
            ));
        }
        return Ok(s.outcome);
    };
    let has_comments = [tbase, tours, ttheirs]
        .iter()
        .any(|t| crate::comments::has_user_comments(t));
    if s.outcome.conflicts == 0 && clashes.is_empty() {
        // git's own line merge, when it is clean and means the same (the
        // common case, decided before ours' names are needed).
        if let (Some(expected), Some(c)) = (&s.canonical, git_candidate(&git)) {
            if matches!(
                agreement::check(&c, path, expected),
                agreement::Check::Agrees
            ) {
                let o = canonical_if_ours_is(Outcome::exact(c.text.as_bytes(), 0), tours, path);
                drop_later((s, git));
                return Ok(without_stale_comments(o));
            }
        }
    }
    // From here on the result is written in ours' text: base and theirs
    // are translated into ours' names.
    let names = s.take_source_names(base, ours, theirs, path, markers)?;
    timer.lap("merge: source names");
    let side = |side, text, names, model, undo| faithful::SideText {
        side,
        text,
        names,
        model,
        undo,
    };
    let none = std::collections::BTreeMap::new();
    let sb = side(Side::Base, tbase, &names[0], &s.mo, &none);
    let so = side(Side::Ours, tours, &names[1], &s.ma, &s.plan.undo_ours);
    let st = side(Side::Theirs, ttheirs, &names[2], &s.mb, &s.plan.undo_theirs);
    let translated = in_ours_names(&sb, &so, &st, &s.matched);
    timer.lap("merge: base and theirs in ours' names");
    let (b2, t2) = (translated.base, translated.theirs);
    let lm = lines::merge3(&b2, tours, &t2, markers, &faithful::free_order(&b2));
    timer.lap("merge: line merge in ours' names");
    let written = OursText {
        sides: [&b2, tours, &t2],
        lm,
        has_comments,
        path,
        markers,
    };
    let o = in_ours_text(s, &git, &clashes, &translated.rename_clashes, &written)?;
    Ok(without_stale_comments(either_side_parses(
        o,
        &written,
        [tbase, tours, ttheirs],
    )))
}

/// What the writers of a result in ours' text work from.
struct OursText<'a> {
    /// Base, ours and theirs, in ours' names.
    sides: [&'a str; 3],
    /// The line merge of `sides`.
    lm: lines::LineMerge,
    has_comments: bool,
    path: &'a str,
    markers: &'a Markers,
}

/// The result written in ours' text: a clash or the structured merge's
/// conflicts in ours' text, else the first candidate that agrees with the
/// structured merge.
fn in_ours_text(
    s: Structured,
    git: &Option<(TextMerge, Option<String>)>,
    clashes: &[clash::Clash],
    rename_clashes: &[(String, String)],
    w: &OursText<'_>,
) -> Result<Outcome, MergeError> {
    let OursText {
        sides: [b2, tours, t2],
        ref lm,
        has_comments,
        path,
        markers,
    } = *w;
    if !clashes.is_empty() {
        return Ok(call_clash(lm, clashes, [b2, tours, t2], markers));
    }
    if !rename_clashes.is_empty() && s.outcome.conflicts == 0 {
        return Ok(rename_clash(
            &lm.text,
            rename_clashes,
            [b2, tours, t2],
            markers,
        ));
    }
    if s.outcome.conflicts > 0 {
        return Ok(conflicts_in_ours_text(
            s,
            lm,
            [b2, tours, t2],
            has_comments,
            markers,
        ));
    }
    let Some(expected) = s.canonical.clone() else {
        return Ok(s.outcome);
    };
    let text = faithful::renumber(&lm.text);
    debug_dump(&[
        ("base-in-ours-names.ll", b2),
        ("theirs-in-ours-names.ll", t2),
        ("line-merge.ll", &text),
        ("expected-canonical.ll", &expected),
    ]);
    // The candidates, in order of preference: git's bytes, ours' text, the
    // canonical form (which drops comments, so only without them).
    let mut candidates: Vec<agreement::Candidate> = git_candidate(git).into_iter().collect();
    // A declaration theirs removed that the merge kept (ours' new code calls it).
    let restored = (lm.conflicts == 0)
        .then(|| kept_declarations::restored(&text, tours, &expected))
        .flatten();
    candidates.push(agreement::Candidate {
        name: "the line merge in ours' names",
        text,
        conflicts: lm.conflicts,
        canonical: None,
    });
    if let Some(text) = restored {
        candidates.push(agreement::Candidate {
            name: "the line merge in ours' names, with the declarations kept",
            text,
            conflicts: 0,
            canonical: None,
        });
    }
    // The line merge's conflicts are debug values both sides changed: the
    // structured merge wrote them as unknown, and so can the line merge.
    if let Some(text) = (lm.conflicts > 0)
        .then(|| debug_values::resolved(&lm.text, markers))
        .flatten()
    {
        candidates.push(agreement::Candidate {
            name: "the line merge with its conflicting debug values unknown",
            text: faithful::renumber(&text),
            conflicts: 0,
            canonical: None,
        });
    }
    // Ours reprinted (blocks, functions reordered): the line merge
    // conflicts, but theirs' change may still have a place in ours' layout.
    if lm.conflicts > 0 {
        if let Some(text) = placed::place(b2, tours, t2) {
            candidates.push(agreement::Candidate {
                name: "theirs' change placed in ours' layout",
                text: faithful::renumber(&text),
                conflicts: 0,
                canonical: None,
            });
        }
    }
    if !has_comments {
        candidates.push(agreement::Candidate {
            name: "the canonical form",
            text: s.outcome.text.clone(),
            conflicts: 0,
            canonical: Some(expected.clone()),
        });
    }
    match agreement::decide(candidates, path, &expected) {
        agreement::Decision::Write(c) if c.name == "the canonical form" => {
            // LLVM must accept it as written (when it came from git's
            // result, it was not verified after canonicalizing).
            if !s.canonical_verified && !verifies(s.outcome.text.as_bytes(), path) {
                return Err(MergeError::Internal(
                    "the canonical form of the merge does not verify".into(),
                ));
            }
            let mut o = s.outcome;
            o.notes.push(
                "the merge could not be written in ours' text; it is written in canonical form"
                    .into(),
            );
            Ok(o)
        }
        agreement::Decision::Write(c) => Ok(canonical_if_ours_is(
            Outcome::exact(c.text.as_bytes(), 0),
            tours,
            path,
        )),
        agreement::Decision::Disagree(c, meaning) => Ok(disagreement(
            &c,
            &meaning,
            &expected,
            [b2, tours, t2],
            markers,
        )),
        agreement::Decision::Undecided => {
            // Never drop a comment silently: show the line merge for review.
            let mut o = Outcome::exact(lm.text.as_bytes(), lm.conflicts.max(1));
            o.notes.push(
                "the structured merge is clean, but it could not be written in ours' text; the \
                 line merge of the three versions (in ours' names) is written for review"
                    .into(),
            );
            Ok(o)
        }
    }
}

/// A clean result with each LLVM `; preds = ...` comment that no longer
/// matches its branches written again ([`llvm_comments`]).
fn without_stale_comments(o: Outcome) -> Outcome {
    if o.conflicts > 0 {
        return o;
    }
    let Some(fresh) = o
        .bytes
        .as_deref()
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(llvm_comments::refresh_preds)
    else {
        return o;
    };
    let mut out = Outcome::exact(fresh.as_bytes(), 0);
    out.notes = o.notes;
    out
}

/// A conflict whose sections, all taken ours' or all theirs', do not
/// parse and verify (a hunk that cuts a function, a declaration one side removed
/// while the other's section still calls it) is widened to one conflict
/// over the lines where the files differ: taking a side then gives that
/// side's file (theirs in ours' names, or as written when that does not
/// parse).
fn either_side_parses(o: Outcome, w: &OursText<'_>, raw: [&str; 3]) -> Outcome {
    if o.conflicts == 0 {
        return o;
    }
    let text = match &o.bytes {
        Some(b) => String::from_utf8_lossy(b).into_owned(),
        None => o.text.clone(),
    };
    let parses = |t: &str| crate::ir::text_parses_and_verifies(t);
    let taken = |keep| render::take_side(&text, keep, w.markers);
    if parses(&taken(render::Keep::Ours)) && parses(&taken(render::Keep::Theirs)) {
        return o;
    }
    let [b2, ours, t2] = w.sides;
    let [base, theirs] = if parses(t2) {
        [b2, t2]
    } else {
        [raw[0], raw[2]]
    };
    let mut widened = Outcome::exact(
        render::narrowed_hunk(ours, base, theirs, w.markers).as_bytes(),
        1,
    );
    widened.notes = o.notes;
    widened.notes.push(
        "the conflicts, taken all ours' or all theirs', would not parse: written as one \
         conflict over the lines where the files differ"
            .into(),
    );
    widened
}

/// git's line merge as a candidate, when it is clean and its result parses
/// and verifies (its canonical form is then in hand).
fn git_candidate(git: &Option<(TextMerge, Option<String>)>) -> Option<agreement::Candidate> {
    let (lm, canonical) = git.as_ref()?;
    let canonical = canonical.clone()?;
    (lm.conflicts == 0).then(|| agreement::Candidate {
        name: "git merge-file",
        text: lm.text.clone(),
        conflicts: 0,
        canonical: Some(canonical),
    })
}

/// A derivation that is clean and valid but means something else than the
/// structured merge: a conflict on the functions where they differ, in
/// the candidate's text (ours' text), with ours', base's and theirs'
/// versions of each; one conflict over the whole file when the difference
/// is not inside functions.
fn disagreement(
    c: &agreement::Candidate,
    meaning: &str,
    expected: &str,
    [base, ours, theirs]: [&str; 3],
    markers: &Markers,
) -> Outcome {
    let disputed = agreement::disputed(meaning, expected);
    let written = (!disputed.is_empty())
        .then(|| {
            agreement::conflict_on_functions(&c.text, &disputed, [base, ours, theirs], markers)
        })
        .flatten();
    let (text, conflicts) =
        written.unwrap_or_else(|| (render::conflict_hunk(ours, base, theirs, markers), 1));
    let what = if disputed.is_empty() {
        "the module".to_string()
    } else {
        disputed.join(", ")
    };
    let mut o = Outcome::exact(text.as_bytes(), conflicts);
    o.notes.push(format!(
        "{} and the structured merge are both clean but disagree on {what}; \
         written as a conflict for review",
        c.name
    ));
    o
}

/// Both sides renamed a value differently: a conflict on the functions
/// concerned (ours' versions against theirs'), however the rest merges.
fn rename_clash(
    host: &str,
    clashes: &[(String, String)],
    texts: [&str; 3],
    markers: &Markers,
) -> Outcome {
    let functions: Vec<String> = clashes.iter().map(|(_, f)| f.clone()).collect();
    let named: Vec<String> = clashes
        .iter()
        .map(|(v, f)| format!("%{v} in {f}"))
        .collect();
    let note = format!(
        "both sides renamed the same value differently ({}); written as a conflict",
        named.join(", ")
    );
    conflict_on(host, functions, texts, markers, note)
}

/// Calls that clash with a signature the other side changed: a conflict
/// on each calling function, in ours' text (the line merge in ours' names,
/// when it is clean; else one conflict over the file).
fn call_clash(
    lm: &lines::LineMerge,
    clashes: &[clash::Clash],
    texts: [&str; 3],
    markers: &Markers,
) -> Outcome {
    let callers: Vec<String> = clashes.iter().map(|c| c.caller.clone()).collect();
    let said: Vec<String> = clashes.iter().map(clash::Clash::describe).collect();
    let note = format!("{}; written as a conflict", said.join("; "));
    let host = if lm.conflicts == 0 { &lm.text } else { "" };
    conflict_on(host, callers, texts, markers, note)
}

/// A conflict on `functions` (ours', base's and theirs' versions) in
/// `host`, ours' text; one conflict over the whole file when one of them
/// is not a function of `host`.
fn conflict_on(
    host: &str,
    mut functions: Vec<String>,
    [base, ours, theirs]: [&str; 3],
    markers: &Markers,
    note: String,
) -> Outcome {
    functions.sort();
    functions.dedup();
    let (text, conflicts) =
        agreement::conflict_on_functions(host, &functions, [base, ours, theirs], markers)
            .filter(|(_, n)| *n > 0)
            .unwrap_or_else(|| (render::conflict_hunk(ours, base, theirs, markers), 1));
    let mut o = Outcome::exact(text.as_bytes(), conflicts);
    o.notes.push(note);
    o
}

/// The structured merge conflicts: its conflicts written in ours' text.
fn conflicts_in_ours_text(
    s: Structured,
    lm: &lines::LineMerge,
    [base, ours, theirs]: [&str; 3],
    has_comments: bool,
    markers: &Markers,
) -> Outcome {
    debug_dump(&[("structured-conflicts.ll", &s.outcome.text)]);
    if lm.conflicts > 0 {
        let mut o = Outcome::exact(lm.text.as_bytes(), lm.conflicts);
        o.notes.push("conflicts are written in ours' text".into());
        return o;
    }
    if has_comments {
        // The lines merge but the IR does not (a use of a value the other
        // side deleted...): one conflict over the whole file, in ours'
        // text, rather than the canonical form, which has no comments.
        let mut o = Outcome::exact(
            render::conflict_hunk(ours, base, theirs, markers).as_bytes(),
            1,
        );
        o.notes.push(format!(
            "the structured merge found {} conflict(s) that the lines do not show; the \
             three versions are written in one conflict, in ours' names",
            s.outcome.conflicts
        ));
        return o;
    }
    s.outcome
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

/// Frees `t` on another thread: the models and texts of a large merge take
/// milliseconds to free, and the result need not wait for that.
/// (When no thread can start, `t` is freed here.)
fn drop_later<T: Send + 'static>(t: T) {
    let _ = std::thread::Builder::new().spawn(move || drop(t));
}

/// Base and theirs translated into ours' names, without the items theirs
/// added that ours added too (elsewhere, with the same text).
fn in_ours_names(
    base: &faithful::SideText<'_>,
    ours: &faithful::SideText<'_>,
    theirs: &faithful::SideText<'_>,
    matched: &[matching::Matchings; 2],
) -> faithful::Translated {
    let mut t = faithful::translate_matched(base, ours, theirs, matched);
    if let Some(t2) =
        faithful::without_items_ours_added(base.text, ours.text, theirs.text, &t.theirs)
    {
        t.theirs = t2;
    }
    t
}

/// When ours is in canonical form (a repository that uses the hook), so is
/// the result.
fn canonical_if_ours_is(o: Outcome, ours: &str, path: &str) -> Outcome {
    let Some(bytes) = &o.bytes else { return o };
    // The canonical form names every entry block `entry`: a cheap test
    // that spares most files a canonicalization.
    if ours.contains("\ndefine ") && !ours.contains("\nentry:") {
        return o;
    }
    let opts = CanonOptions::default();
    let canon = |b: &[u8]| crate::canon::canonicalize_bytes(b, path, &opts).ok();
    if canon(ours.as_bytes()).as_deref() != Some(ours) {
        return o;
    }
    match canon(bytes) {
        Some(c) => Outcome::exact(c.as_bytes(), 0),
        None => o,
    }
}

/// Whether LLVM parses and verifies `bytes`.
fn verifies(bytes: &[u8], path: &str) -> bool {
    let session = Session::new();
    session.parse(bytes, path).is_ok_and(|m| m.verify().is_ok())
}

/// Writes intermediate texts to the directory `IRGIT_DEBUG_MERGE` names
/// (a debugging aid; nothing is written without it).
fn debug_dump(files: &[(&str, &str)]) {
    let Some(dir) = std::env::var_os("IRGIT_DEBUG_MERGE") else {
        return;
    };
    for (name, text) in files {
        let _ = std::fs::write(std::path::Path::new(&dir).join(name), text);
    }
}

/// The canonical form of `text` when it parses and verifies.
fn canonical_of(text: &str, path: &str) -> Option<String> {
    let session = Session::new();
    let m = session.parse(text.as_bytes(), path).ok()?;
    m.verify().ok()?;
    canonical(&m, path, false).ok().map(|(text, _)| text)
}

/// A line merge of three texts (`git merge-file` semantics).
struct TextMerge {
    text: String,
    conflicts: usize,
}

fn line_merge_texts(
    base: &str,
    ours: &str,
    theirs: &str,
    markers: &Markers,
) -> Result<TextMerge, MergeError> {
    let dir = tempfile::tempdir().map_err(|e| MergeError::Internal(e.to_string()))?;
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).map_err(|e| MergeError::Internal(e.to_string()))?;
        Ok::<_, MergeError>(p)
    };
    let (b, o, t) = (
        write("base", base)?,
        write("ours", ours)?,
        write("theirs", theirs)?,
    );
    let lm = fallback::line_merge(&b, &o, &t, markers).map_err(MergeError::Internal)?;
    let text = String::from_utf8(lm.text)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    let open = "<".repeat(markers.size.max(1));
    let conflicts = if lm.clean {
        0
    } else {
        text.lines()
            .filter(|l| l.starts_with(&open) && l[open.len()..].starts_with(' '))
            .count()
            .max(1)
    };
    Ok(TextMerge { text, conflicts })
}

/// What the structured merge decided, with what the writers need.
struct Structured {
    outcome: Outcome,
    /// The canonical form of a clean result (before header tidying), once
    /// [`Structured::finish`] has checked it.
    canonical: Option<String>,
    /// A clean result's text, before that check.
    rendered: Option<String>,
    /// Whether `canonical` was verified after canonicalization (not so when
    /// it is git's result's canonical form).
    canonical_verified: bool,
    /// Whether the result keeps `source_filename` (see [`tidy`]).
    keep_header: bool,
    mo: model::ModuleText,
    ma: model::ModuleText,
    mb: model::ModuleText,
    plan: rename::Plan,
    /// Ours' and theirs' functions matched to the base's.
    matched: [matching::Matchings; 2],
    /// Where the canonical names of base, ours, theirs came from, where the
    /// loads recorded them (see [`Structured::take_source_names`]).
    names: [Option<SourceNames>; 3],
}

/// A module without `source_filename` gets one from its parse name; the
/// result does not add that line to files that never had it.
fn tidy(text: &str, keep_header: bool) -> String {
    if keep_header {
        text.to_string()
    } else {
        let mut out = String::with_capacity(text.len());
        for l in text.lines() {
            if !l.starts_with("source_filename = ") && !l.starts_with("; ModuleID = ") {
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }
}

impl Structured {
    /// The source names of base, ours, theirs: those the loads recorded,
    /// and for an input whose load skipped them (expecting git's result to
    /// do), from the input canonicalized again.
    fn take_source_names(
        &mut self,
        base: &[u8],
        ours: &[u8],
        theirs: &[u8],
        path: &str,
        markers: &Markers,
    ) -> Result<[SourceNames; 3], MergeError> {
        let inputs = [
            (base, &markers.base),
            (ours, &markers.ours),
            (theirs, &markers.theirs),
        ];
        let names = std::mem::take(&mut self.names);
        let names: Vec<Result<SourceNames, MergeError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = names
                .into_iter()
                .zip(inputs)
                .map(|(recorded, (bytes, side))| {
                    scope.spawn(move || match recorded {
                        Some(n) => Ok(n),
                        None => load(&Session::new(), bytes, path, side, &|_| true)
                            .map(|(_, n)| n.unwrap_or_default()),
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        let [nb, no, nt]: [Result<SourceNames, MergeError>; 3] = names
            .try_into()
            .unwrap_or_else(|_| unreachable!("three inputs"));
        Ok([nb?, no?, nt?])
    }

    /// The clean result's calls that clash with a signature a side
    /// changed ([`clash`]); none when the result has conflicts.
    fn stale_calls(&self, ours: &[u8], theirs: &[u8], path: &str) -> Vec<clash::Clash> {
        let Some(merged) = self.canonical.as_deref() else {
            return Vec::new();
        };
        clash::stale_calls([&self.mo, &self.ma, &self.mb], merged, [ours, theirs], path)
    }

    /// Checks a clean result with LLVM (parse, verify) and sets its
    /// canonical form. `hint` is a canonical text already in hand (git's
    /// clean result's): when the rendered result is the same module
    /// ([`isomorphic::same_module`]), `hint` is its canonical form.
    fn finish(&mut self, path: &str, hint: Option<&str>) -> Result<(), MergeError> {
        let Some(text) = self.rendered.take() else {
            return Ok(());
        };
        debug_dump(&[
            ("structured.ll", &text),
            ("git-canonical.ll", hint.unwrap_or_default()),
        ]);
        let canonical = if let Some(h) = hint.filter(|h| isomorphic::same_module(&text, h)) {
            h.to_string()
        } else {
            self.canonical_verified = true;
            let session = Session::new();
            let m = session.parse(text.as_bytes(), path).map_err(|e| {
                MergeError::Internal(format!("the merged module does not parse: {e}"))
            })?;
            m.verify().map_err(|e| {
                MergeError::Internal(format!("the merged module does not verify: {e}"))
            })?;
            if debug_info_dropped(&text, &m) {
                return Err(MergeError::Internal(
                    "the merged module's debug info is invalid (LLVM drops it)".into(),
                ));
            }
            // This text may be handed out (the canonical fallback): verified
            // again after canonicalization.
            crate::canon::canonical_text(&m, &[], path, &comment_free())
                .map_err(|e| MergeError::Internal(e.to_string()))?
        };
        self.outcome.text = tidy(&canonical, self.keep_header);
        self.canonical = Some(canonical);
        Ok(())
    }
}

/// Whether LLVM dropped the debug info of `text` (parsed as `m`): the
/// parser strips debug info that does not verify (a compile unit missing
/// from `!llvm.dbg.cu`), with only a warning.
fn debug_info_dropped(text: &str, m: &IrModule<'_>) -> bool {
    text.contains("\n!llvm.dbg.cu = ") && !m.has_named_metadata("llvm.dbg.cu")
}

/// The structured merge over canonical forms and base identities. A clean
/// result still needs [`Structured::finish`].
fn structured(
    base: &[u8],
    ours: &[u8],
    theirs: &[u8],
    path: &str,
    markers: &Markers,
    names_wanted: &(dyn Fn(usize) -> bool + Sync),
) -> Result<Structured, MergeError> {
    // One LLVM context per input: named types are per context, and a second
    // module in the same context would see `%struct.rect` renamed `%struct.rect.0`.
    // The three are independent: canonicalize ours and theirs on other
    // threads (a panic there resumes here, where the caller catches it).
    // Each thread also parses its canonical text into a model.
    let modelled = |bytes: &[u8], side: &str, name: &str| {
        let (text, names) = load(&Session::new(), bytes, path, side, names_wanted)?;
        let m = model::parse(&text, name).map_err(MergeError::Internal)?;
        Ok((text, names, m))
    };
    let (to, ta, tb) = std::thread::scope(|scope| {
        let ha = scope.spawn(|| modelled(ours, &markers.ours, &markers.ours));
        let hb = scope.spawn(|| modelled(theirs, &markers.theirs, &markers.theirs));
        let to = modelled(base, &markers.base, "base");
        type Loaded = Result<(String, Option<SourceNames>, model::ModuleText), MergeError>;
        let join = |h: std::thread::ScopedJoinHandle<'_, Loaded>| {
            h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
        };
        (to, join(ha), join(hb))
    });
    let ((to, no, mo), (ta, na, mut ma), (tb, nb, mut mb)) = (to?, ta?, tb?);
    let names = [no, na, nb];
    let mut timer = crate::canon::PhaseTimer::new();
    timer.lap("merge: inputs canonicalized");
    // A module without `source_filename` gets one from its parse name; do
    // not add that line to files that never had it.
    let keep_header = !crate::ir::detect_format(base).eq(&crate::ir::Format::Text)
        || base.windows(15).any(|w| w == b"source_filename");
    let internal = |e: String| MergeError::Internal(e);
    let (plan, text, conflicts, matched) = if ta == to || tb == to || ta == tb {
        // A side that changed nothing: the other side's canonical text,
        // which [`Structured::finish`] checks like any result (the loads do
        // not verify after canonicalizing).
        let result = if ta == to { &tb } else { &ta };
        (
            rename::Plan::default(),
            result.clone(),
            0,
            Default::default(),
        )
    } else {
        // Renamed functions: undo each rename on its side (and canonicalize
        // again, so the callers' lines equal the base's), merge, redo.
        let plan = rename::plan(&mo, &ma, &mb);
        let undone = |canonical: &str, undo, side: &str| {
            let text = rename::replace_globals(canonical, undo);
            let (text, _) = load(&Session::new(), text.as_bytes(), path, side, &|_| false)?;
            model::parse(&text, side).map_err(internal)
        };
        if !plan.undo_ours.is_empty() {
            ma = undone(&ta, &plan.undo_ours, &markers.ours)?;
        }
        if !plan.undo_theirs.is_empty() {
            mb = undone(&tb, &plan.undo_theirs, &markers.theirs)?;
        }
        timer.lap("merge: models and renames");
        let merged = apply::merge_with(&mo, &ma, &mb, &plan.conflicts);
        timer.lap("merge: matched and merged");
        let text = rename::replace_globals(&render::render(&merged.pieces, markers), &plan.redo);
        (plan, text, merged.conflicts, merged.matched)
    };
    let clean = conflicts == 0;
    Ok(Structured {
        outcome: Outcome {
            // A clean result's text is set once [`Structured::finish`] checked it.
            text: if clean {
                String::new()
            } else {
                tidy(&text, keep_header)
            },
            bytes: None,
            conflicts,
            notes: Vec::new(),
        },
        canonical: None,
        rendered: clean.then_some(text),
        canonical_verified: false,
        keep_header,
        mo,
        ma,
        mb,
        plan,
        matched,
        names,
    })
}
