//! The text-safe merge: git's clean line merge written as it is, with one
//! LLVM load (of the result) instead of the structured merge's four, when
//! every change of both sides is *text-safe*.
//!
//! A side's change is a hunk of its line diff from the base. It is
//! text-safe when:
//!
//! 1. every line it removes or adds lies strictly inside one function
//!    body (never a header, declaration, global, type, metadata node,
//!    attribute group...): module-level entities, their names and numbers
//!    (`@g`, `!7`, `#2`, signatures) are the base's on both sides;
//! 2. the local names its removed lines define (`%x =`, `x:`) are those its
//!    added lines define, in the same order; its added lines may define
//!    more, if they are not numbers and occur nowhere in the base's
//!    function: so no `%N` is added or removed (that renumbers what the
//!    other side refers to), and no name is dropped, moved or swapped;
//! 3. [`forms::form`] reads every changed line (one instruction or
//!    label a line, `=` and `:` only where LLVM prints them), and every
//!    function a hunk is in, as the base, each side and the result write
//!    it, numbers each value in its text ([`forms::explicit_entry`]: no
//!    unnamed value, no block without a label but an unlabelled entry,
//!    which keeps its number since the header is the base's).
//!
//! Then every local name of a changed function denotes, in every version,
//! the same value: the base's, as edited by the side that edited its line
//! (names are defined once, kept, and all written out; module-level names
//! are untouched). Applying both sides' hunks to the base, which is what a
//! clean line merge does, is then the structured merge: each reference
//! means what its author meant. This stage applies them itself, where no
//! two hunks of the two sides touch, and takes the result when `git
//! merge-file` writes exactly the same bytes (its alignment of the lines
//! may differ: then nothing is assumed) and LLVM parses and verifies it
//! (types, dominance, a phi's predecessors: what an edit can still break).
//! Anything else goes to the structured merge, unchanged.
//!
//! ```text
//! base:   %5 = add nsw i32 %4, 1      ours:   %5 = add nsw i32 %4, 2
//!         ...                                 ...
//!         %9 = mul i32 %8, 3                  %9 = mul i32 %8, 3
//! theirs: %9 = mul i32 %8, 7          -> both hunks text-safe: git's result,
//!                                        `%5 = ... 2` and `%9 = ... 7`
//! ours swaps %x and %y (`%x = add` -> `%y = add`, `%y = mul` -> `%x = mul`):
//!         names not kept in order     -> the structured merge decides
//! ```

pub(crate) mod forms;

use crate::compare::diff::Hunk;
use crate::three::Three;
use std::ops::Range;

use rustc_hash::FxHashSet as HashSet;

use super::fallback::LineMerge;
use super::git_merge::line_merge_texts;
use super::loading::valid_as_written;
use super::outcome::{MadeBy, Outcome};
use super::render::Markers;
use forms::{bodies, form, is_numbered, Body, Def, Form, Numbering};

/// What the text-safe merge did.
pub(crate) enum FastPath {
    /// Git's clean result, written as the structured merge would write it.
    Taken(Outcome),
    /// Not text-safe, or not what git writes, or not valid IR: the
    /// structured merge decides, with git's line merge when it was run.
    Declined(Option<LineMerge>),
}

/// The text-safe merge of three texts, for [`super::merge_bytes`]: git's
/// line merge and LLVM's check of the result run side by side.
pub(crate) fn merge(texts: Three<&str>, path: &str, markers: &Markers) -> FastPath {
    let mut timer = crate::canon::PhaseTimer::new();
    let Some(merged) = text_safe_merge(texts) else {
        timer.lap("merge: text-safe: declined");
        return FastPath::Declined(None);
    };
    timer.lap("merge: text-safe: hunks merged");
    let Three { base, ours, theirs } = texts;
    let (valid, git) = std::thread::scope(|scope| {
        let git = scope.spawn(|| line_merge_texts(base, ours, theirs, markers).ok());
        let valid = valid_as_written(&merged, path);
        let git = git.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (valid, git)
    });
    match git {
        Some(git) if valid && git.conflicts == 0 && git.text == merged => {
            drop(merged);
            timer.lap("merge: text-safe: git's result checked and taken");
            FastPath::Taken(super::choose::git_text_written(
                git.text,
                ours,
                path,
                MadeBy::TextSafe,
            ))
        }
        git => {
            timer.lap("merge: text-safe: git's result not taken");
            FastPath::Declined(git)
        }
    }
}

/// The merge of base, ours and theirs by lines, when every hunk of both
/// sides is text-safe (see the module doc) and no two hunks of the two
/// sides touch; else `None`. It is not checked by LLVM.
pub fn text_safe_merge(Three { base, ours, theirs }: Three<&str>) -> Option<String> {
    let (base, ours, theirs) = (Text::new(base), Text::new(ours), Text::new(theirs));
    let mut names = NameSets::default();
    let ours_hunks = side_hunks(&base, &ours, &mut names)?;
    let theirs_hunks = side_hunks(&base, &theirs, &mut names)?;
    let mut both: Vec<&BodyHunk> = ours_hunks.iter().chain(&theirs_hunks).collect();
    both.sort_by_key(|h| (h.hunk.start, h.hunk.end));
    let merged = interleave(&base, &both)?;
    let mut touched: Vec<usize> = both.iter().map(|h| h.body).collect();
    touched.dedup();
    let ours_only: Vec<&BodyHunk> = ours_hunks.iter().collect();
    let theirs_only: Vec<&BodyHunk> = theirs_hunks.iter().collect();
    let versions = [&ours_only[..], &theirs_only[..], &both[..]];
    let numbered = touched
        .into_iter()
        .all(|body| numbered_alike(&base, body, &versions));
    numbered.then_some(merged)
}

/// Whether base body `body`, and the base with each list of hunks applied
/// (ours', theirs', both), name every value in their text
/// ([`forms::Numbering`]) and label the entry block alike.
fn numbered_alike(base: &Text<'_>, body: usize, versions: &[&[&BodyHunk<'_>]]) -> bool {
    let inside = base.bodies[body].inside.clone();
    let forms: Option<Vec<Form>> = base.lines[inside].iter().map(|line| form(line)).collect();
    let Some(forms) = forms else {
        return false;
    };
    let Some(entry) = entry_with(base, body, &forms, &[]) else {
        return false;
    };
    versions
        .iter()
        .all(|hunks| entry_with(base, body, &forms, hunks) == Some(entry))
}

/// The entry block's label (`Some(None)`: none) of base body `body` with
/// `hunks` applied (those in it), whose kept lines have the `forms`
/// given; `None` when a value in it has no name in the text.
fn entry_with<'a>(
    base: &Text<'_>,
    body: usize,
    forms: &[Form<'a>],
    hunks: &[&BodyHunk<'a>],
) -> Option<Option<&'a str>> {
    let start = base.bodies[body].inside.start;
    let mut numbering = Numbering::default();
    let mut at = start;
    for hunk in hunks.iter().filter(|h| h.body == body) {
        for &kept in &forms[at - start..hunk.hunk.start - start] {
            numbering.read(kept).then_some(())?;
        }
        for line in &hunk.hunk.new {
            numbering.read(form(line)?).then_some(())?;
        }
        at = hunk.hunk.end;
    }
    for &kept in &forms[at - start..] {
        numbering.read(kept).then_some(())?;
    }
    Some(numbering.entry)
}

/// A text as lines (each with its line end) and the function bodies in it.
struct Text<'a> {
    lines: Vec<&'a str>,
    bodies: Vec<Body<'a>>,
}

impl<'a> Text<'a> {
    fn new(text: &'a str) -> Text<'a> {
        let lines: Vec<&str> = crate::text::lines_inclusive(text).collect();
        let bodies = bodies(&lines);
        Text { lines, bodies }
    }

    /// The body that holds every line of `range` strictly inside it (for
    /// an empty range: the place between two lines).
    fn body_around(&self, range: &Range<usize>) -> Option<usize> {
        let at = self.bodies.partition_point(|b| b.inside.end < range.start);
        let body = self.bodies.get(at)?;
        (body.inside.start <= range.start && range.end <= body.inside.end).then_some(at)
    }
}

/// A side's change (base lines `start..end` replaced by `new`), inside
/// the base's body `body`.
struct BodyHunk<'a> {
    hunk: Hunk<&'a str>,
    body: usize,
}

/// The line diff of `side` from `base`, as hunks (replaced base lines,
/// the side's lines in their place).
fn line_diff(base: &[&str], side: &[&str]) -> Vec<(Range<usize>, Range<usize>)> {
    // A diff that takes longer is a big change: this merge is for the
    // few-hunk case, and an approximate diff only declines more.
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(500);
    let ops = similar::capture_diff_slices_deadline(
        similar::Algorithm::Myers,
        base,
        side,
        Some(deadline),
    );
    let mut hunks: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    let mut equal_before = true;
    for op in ops {
        let (tag, old, new) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            equal_before = true;
            continue;
        }
        match hunks.last_mut() {
            Some((b, s)) if !equal_before => {
                b.end = old.end;
                s.end = new.end;
            }
            _ => hunks.push((old, new)),
        }
        equal_before = false;
    }
    hunks
}

/// The hunks of `side`, when each is text-safe.
fn side_hunks<'a>(
    base: &Text<'a>,
    side: &Text<'a>,
    names: &mut NameSets<'a>,
) -> Option<Vec<BodyHunk<'a>>> {
    let mut hunks = Vec::new();
    for (removed, added) in line_diff(&base.lines, &side.lines) {
        let body = base.body_around(&removed)?;
        let side_body = side.body_around(&added)?;
        if side.bodies[side_body].name != base.bodies[body].name {
            return None;
        }
        let removed_defs = defs(&base.lines[removed.clone()])?;
        let added_defs = defs(&side.lines[added.clone()])?;
        if !names_kept(&removed_defs, &added_defs, |def| {
            names.is_new(base, body, def)
        }) {
            return None;
        }
        let hunk = Hunk {
            start: removed.start,
            end: removed.end,
            new: side.lines[added].to_vec(),
        };
        hunks.push(BodyHunk { hunk, body });
    }
    Some(hunks)
}

/// The names `lines` define, in order; `None` when a line is not one
/// [`form`] reads.
fn defs<'a>(lines: &[&'a str]) -> Option<Vec<Def<'a>>> {
    let mut found = Vec::new();
    for &line in lines {
        found.extend(form(line)?.def());
    }
    Some(found)
}

/// Whether `added` is `removed` in order, with new names (`is_new`) between.
fn names_kept(
    removed: &[Def<'_>],
    added: &[Def<'_>],
    mut is_new: impl FnMut(&Def<'_>) -> bool,
) -> bool {
    let mut kept = removed.iter().peekable();
    for def in added {
        if kept.peek() == Some(&def) {
            kept.next();
        } else if !is_new(def) {
            return false;
        }
    }
    kept.next().is_none()
}

/// The local names of base functions, read when a hunk adds a name.
#[derive(Default)]
struct NameSets<'a> {
    by_body: rustc_hash::FxHashMap<usize, HashSet<&'a str>>,
}

impl<'a> NameSets<'a> {
    /// Whether `def` may be a new name in base body `body`: not a number,
    /// not quoted, and nowhere in the function (header included).
    fn is_new(&mut self, base: &Text<'a>, body: usize, def: &Def<'_>) -> bool {
        if is_numbered(def.name) || def.name.starts_with('"') {
            return false;
        }
        let names = self.by_body.entry(body).or_insert_with(|| {
            let b = &base.bodies[body];
            base.lines[b.header..b.inside.end]
                .iter()
                .flat_map(|line| forms::local_names(line))
                .collect()
        });
        !names.contains(def.name)
    }
}

/// Base with the hunks of both sides applied, when no hunk of one side
/// touches one of the other (as `git merge-file`, which calls that a
/// conflict, an unchanged line must separate them).
fn interleave(base: &Text<'_>, hunks: &[&BodyHunk<'_>]) -> Option<String> {
    // One side's hunks never touch each other (an equal line separates
    // them), so two hunks that touch are of the two sides.
    let mut last_end = None;
    for hunk in hunks {
        if last_end.is_some_and(|end| end >= hunk.hunk.start) {
            return None;
        }
        last_end = Some(last_end.map_or(hunk.hunk.end, |end: usize| end.max(hunk.hunk.end)));
    }
    let added: usize = hunks
        .iter()
        .flat_map(|h| &h.hunk.new)
        .map(|l| l.len())
        .sum();
    let mut out = String::with_capacity(base.lines.iter().map(|l| l.len()).sum::<usize>() + added);
    let mut at = 0;
    for hunk in hunks {
        base.lines[at..hunk.hunk.start]
            .iter()
            .for_each(|l| out.push_str(l));
        hunk.hunk.new.iter().for_each(|l| out.push_str(l));
        at = hunk.hunk.end;
    }
    base.lines[at..].iter().for_each(|l| out.push_str(l));
    Some(out)
}
