//! The text-safe merge: git's clean line merge written as it is, with one
//! LLVM load (of the result) instead of the structured merge's four, when
//! every change of both sides is *text-safe*.
//!
//! A side's change is a hunk of its line diff from the base. It is
//! text-safe when:
//!
//! 1. every line it removes or adds lies strictly inside one function
//!    body, or it only adds whole module-level entities between the
//!    base's, under names no other version writes ([`top_level`]): the
//!    base's module-level entities, their names and numbers (`@g`, `!7`,
//!    `#2`, signatures) are then those of every version;
//! 2. in a body both sides change, the local names its removed lines
//!    define (`%x =`, `x:`) are those its added lines define, in the same
//!    order; its added lines may define more, if they are not numbers and
//!    occur nowhere in the base's function: so no `%N` is added or removed
//!    (that renumbers what the other side refers to), and no name is
//!    dropped, moved or swapped. Or else the names it defines are no
//!    numbers and the other side's hunks there write none of them;
//! 3. in a body both sides change, [`forms::form`] reads every changed
//!    line (one instruction or label a line, `=` and `:` only where LLVM
//!    prints them), and the function, as the base, each side and the
//!    result write it, numbers each value in its text
//!    ([`forms::explicit_entry`]: no unnamed value, no block without a
//!    label but an unlabelled entry, which keeps its number since the
//!    header is the base's).
//!
//! A body only one side changes is that side's, line for line, in a module
//! whose entities mean the same in every version: rules 2 and 3 do not
//! apply to it. Unless a block of it has its address taken
//! (`blockaddress(@f, %bb)`, the one way to write a local name outside its
//! function): then rule 2 holds in it, whoever changes it.
//!
//! Those relaxed rules (a body one side changes, renames apart, new
//! entities) compare names as text, so they hold only where every version
//! writes each name one way ([`top_level::spelled_plainly`]: no quoted or
//! escaped names, no numbers with leading zeros, no string over several
//! lines). Elsewhere only the strict rules apply: every hunk inside a body,
//! names kept and values numbered in the text.
//!
//! Then every local name a line of the result writes denotes the value its
//! author meant: in a function both sides change, the base's, as edited by
//! the side that edited its line (names are defined once, kept or renamed
//! apart from the other side's lines, and all written out); in a function
//! one side changes, that side's; module-level names are the base's or new.
//! Applying both sides' hunks to the base, which is what a
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
//! ours swaps %x and %y (`%x = add` -> `%y = add`, `%y = mul` -> `%x = mul`)
//! and theirs' hunk in that function uses %y -> the structured merge decides
//! ours renames %x to %sum in @f, theirs edits only @g -> text-safe
//! ```

pub(crate) mod forms;
mod top_level;

use crate::compare::diff::Hunk;
use crate::three::Three;
use std::ops::Range;

use rustc_hash::FxHashSet as HashSet;

use super::choose::Candidate;
use super::fallback::LineMerge;
use super::git_merge::line_merge_texts;
use super::loading::valid_as_written;
use super::outcome::Writer;
use super::render::Markers;
use forms::{bodies, form, is_numbered, Body, Def, Form, Numbering};

/// What the text-safe merge did.
pub(crate) enum FastPath {
    /// Git's clean result, a proven candidate ([`Writer::TextSafe`]).
    Taken(Candidate),
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
            FastPath::Taken(Candidate::clean(Writer::TextSafe, git.text))
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
pub fn text_safe_merge(texts: Three<&str>) -> Option<String> {
    let Three { base, ours, theirs } = texts.map(Text::new);
    let mut names = NameSets::default();
    let ours_hunks = side_hunks(&base, &ours, texts.theirs, &mut names)?;
    let theirs_hunks = side_hunks(&base, &theirs, texts.ours, &mut names)?;
    let mut both: Vec<&SideHunk> = ours_hunks.iter().chain(&theirs_hunks).collect();
    both.sort_by_key(|h| (h.hunk.start, h.hunk.end));
    let merged = interleave(&base, &both)?;
    let mut touched: Vec<usize> = both.iter().filter_map(|h| h.body).collect();
    touched.dedup();
    let by_strict_rules = both.iter().all(|h| h.body.is_some())
        && touched.iter().all(|&body| {
            let hunks = BodyHunks::of(&ours_hunks, &theirs_hunks, body);
            hunks.all.iter().all(|h| h.keeps_names()) && hunks.numbered_alike(&base, body)
        });
    if by_strict_rules {
        return Some(merged);
    }
    if !texts.iter().all(|t| top_level::spelled_plainly(t)) {
        return None;
    }
    let safe = touched.into_iter().all(|body| {
        let hunks = BodyHunks::of(&ours_hunks, &theirs_hunks, body);
        let renamed = !hunks.all.iter().all(|h| h.keeps_names());
        let name = base.bodies[body].name;
        if renamed && texts.iter().any(|t| top_level::blockaddress_of(t, name)) {
            return false;
        }
        if hunks.ours.is_empty() || hunks.theirs.is_empty() {
            return true;
        }
        names_apart(&base, &hunks.ours, &hunks.theirs)
            && names_apart(&base, &hunks.theirs, &hunks.ours)
            && hunks.numbered_alike(&base, body)
    });
    safe.then_some(merged)
}

/// The hunks of one base body: ours', theirs', and both in order.
struct BodyHunks<'h, 'a> {
    ours: Vec<&'h SideHunk<'a>>,
    theirs: Vec<&'h SideHunk<'a>>,
    all: Vec<&'h SideHunk<'a>>,
}

impl<'h, 'a> BodyHunks<'h, 'a> {
    fn of(ours: &'h [SideHunk<'a>], theirs: &'h [SideHunk<'a>], body: usize) -> Self {
        let in_body = |hunks: &'h [SideHunk<'a>]| -> Vec<&'h SideHunk<'a>> {
            hunks.iter().filter(|h| h.body == Some(body)).collect()
        };
        let (ours, theirs) = (in_body(ours), in_body(theirs));
        let mut all: Vec<&SideHunk> = ours.iter().chain(&theirs).copied().collect();
        all.sort_by_key(|h| (h.hunk.start, h.hunk.end));
        BodyHunks { ours, theirs, all }
    }

    /// [`numbered_alike`] with ours', theirs' and both sides' hunks.
    fn numbered_alike(&self, base: &Text<'_>, body: usize) -> bool {
        numbered_alike(base, body, &[&self.ours, &self.theirs, &self.all])
    }
}

/// Whether `side`'s hunks in a body both sides change rename nothing that
/// `other`'s hunks there write: every hunk of `side` keeps its names
/// (rule 2), or the names its lines define are no numbers and appear in
/// no line `other` removes or adds. Then each name of a line of `other`
/// means in the result what it meant in the base.
fn names_apart(base: &Text<'_>, side: &[&SideHunk<'_>], other: &[&SideHunk<'_>]) -> bool {
    let changed: Vec<&str> = side
        .iter()
        .flat_map(|h| match &h.names {
            Names::Changed(names) => names.as_slice(),
            _ => &[],
        })
        .copied()
        .collect();
    if side.iter().any(|h| matches!(h.names, Names::Unread)) {
        return false;
    }
    if changed.is_empty() {
        return true;
    }
    if changed.iter().any(|n| is_numbered(n)) {
        return false;
    }
    let written: HashSet<&str> = other
        .iter()
        .flat_map(|h| {
            base.lines[h.hunk.start..h.hunk.end]
                .iter()
                .chain(&h.hunk.new)
        })
        .flat_map(|line| forms::local_names(line))
        .collect();
    !changed.iter().any(|n| written.contains(n))
}

/// Whether base body `body`, and the base with each list of hunks applied
/// (ours', theirs', both), name every value in their text
/// ([`forms::Numbering`]) and label the entry block alike.
fn numbered_alike(base: &Text<'_>, body: usize, versions: &[&[&SideHunk<'_>]]) -> bool {
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
    hunks: &[&SideHunk<'a>],
) -> Option<Option<&'a str>> {
    let start = base.bodies[body].inside.start;
    let mut numbering = Numbering::default();
    let mut at = start;
    for hunk in hunks.iter().filter(|h| h.body == Some(body)) {
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
    text: &'a str,
    lines: Vec<&'a str>,
    bodies: Vec<Body<'a>>,
}

impl<'a> Text<'a> {
    fn new(text: &'a str) -> Text<'a> {
        let lines: Vec<&str> = crate::text::lines_inclusive(text).collect();
        let bodies = bodies(&lines);
        Text {
            text,
            lines,
            bodies,
        }
    }

    /// The body that holds every line of `range` strictly inside it (for
    /// an empty range: the place between two lines).
    fn body_around(&self, range: &Range<usize>) -> Option<usize> {
        let at = self.bodies.partition_point(|b| b.inside.end < range.start);
        let body = self.bodies.get(at)?;
        (body.inside.start <= range.start && range.end <= body.inside.end).then_some(at)
    }
}

/// A side's change (base lines `start..end` replaced by `new`) and where
/// it is.
struct SideHunk<'a> {
    hunk: Hunk<&'a str>,
    /// Inside the base's body `Some(body)`, or between module-level
    /// entities (`None`: only whole new entities, [`top_level`]).
    body: Option<usize>,
    names: Names<'a>,
}

impl SideHunk<'_> {
    fn keeps_names(&self) -> bool {
        matches!(self.names, Names::Kept)
    }
}

/// How a hunk in a body treats the local names its lines define.
enum Names<'a> {
    /// Rule 2: those of its removed lines, in order, new names between.
    Kept,
    /// Not kept: the names its removed and added lines define. Safe in a
    /// body the other side leaves alone (it is then this side's, line for
    /// line), or where the other side writes none of them.
    Changed(Vec<&'a str>),
    /// A line [`form`] does not read: safe only in a body the other side
    /// leaves alone.
    Unread,
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

/// The hunks of `side`, when each is text-safe by itself (inside a body,
/// or whole new entities named apart from the base and `other`, the
/// other side's text).
fn side_hunks<'a>(
    base: &Text<'a>,
    side: &Text<'a>,
    other: &str,
    names: &mut NameSets<'a>,
) -> Option<Vec<SideHunk<'a>>> {
    let mut hunks = Vec::new();
    for (removed, added) in line_diff(&base.lines, &side.lines) {
        let new = side.lines[added.clone()].to_vec();
        let Some(body) = base.body_around(&removed) else {
            new_entities_only(base, &removed, &new, other).then_some(())?;
            let hunk = Hunk {
                start: removed.start,
                end: removed.end,
                new,
            };
            hunks.push(SideHunk {
                hunk,
                body: None,
                names: Names::Kept,
            });
            continue;
        };
        let side_body = side.body_around(&added)?;
        if side.bodies[side_body].name != base.bodies[body].name {
            return None;
        }
        let names = body_names(base, body, &base.lines[removed.clone()], &new, names);
        let hunk = Hunk {
            start: removed.start,
            end: removed.end,
            new,
        };
        hunks.push(SideHunk {
            hunk,
            body: Some(body),
            names,
        });
    }
    Some(hunks)
}

/// Whether a hunk outside every body only adds lines, between two of the
/// base's entities, each blank or a whole entity whose name neither the
/// base nor `other` writes.
fn new_entities_only(base: &Text<'_>, removed: &Range<usize>, added: &[&str], other: &str) -> bool {
    removed.is_empty()
        && top_level::between_entities(&base.lines, removed.start)
        && added.iter().all(|line| match top_level::added_line(line) {
            Some(top_level::AddedLine::Blank) => true,
            Some(top_level::AddedLine::Entity(name)) => {
                !top_level::mentions(base.text, name) && !top_level::mentions(other, name)
            }
            None => false,
        })
}

/// How a hunk of base body `body` (its `removed` lines replaced by
/// `added`) treats the names they define.
fn body_names<'a>(
    base: &Text<'a>,
    body: usize,
    removed: &[&'a str],
    added: &[&'a str],
    names: &mut NameSets<'a>,
) -> Names<'a> {
    let (Some(removed_defs), Some(added_defs)) = (defs(removed), defs(added)) else {
        return Names::Unread;
    };
    if names_kept(&removed_defs, &added_defs, |def| {
        names.is_new(base, body, def)
    }) {
        return Names::Kept;
    }
    let all = removed_defs.iter().chain(&added_defs);
    Names::Changed(all.map(|def| def.name).collect())
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
fn interleave(base: &Text<'_>, hunks: &[&SideHunk<'_>]) -> Option<String> {
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
