//! A three-way line merge with the spec's conflict rules
//! (`docs/merge-theory.md`, *Conflict rules*) instead of diff3's: edits of
//! adjacent lines do not conflict, because the order of the result is still
//! determined.
//!
//! ```text
//! base      ours       theirs     merged      (git merge-file: conflict,
//! %a = x    %a = x     %a = x     %a = x       the two edits touch)
//! %b = 1    %b = 2     %b = 1     %b = 2
//! %c = 3    %c = 3     %c = 4     %c = 4
//! ```
//!
//! Each side is a list of hunks (a base range and its replacement), from
//! the merge's Myers diff ([`crate::compare::diff`]). Two hunks conflict when their
//! base ranges overlap, when one inserts strictly inside a range the other
//! replaces, or when both insert at the same place different lines. Identical hunks are taken once;
//! overlapping deletions (no new lines on either side) delete their union.
//! Conflicts are written with markers around the conflicting lines only.

use crate::compare::diff;
use crate::merge::fallback::LineMerge;
use crate::merge::render::{conflict_hunk, Markers};

/// A change of one side: base lines `start..end` become `new`.
type Hunk<'a> = diff::Hunk<&'a str>;

/// One side's maximal hunks over the base (the merge's own Myers diff),
/// each pure insertion slid as far down as the text allows.
///
/// ```text
/// base: }            a diff may say: insert "}", "", "define @g() {", ...  before the last "}"
///                    slid down:      insert "", "define @g() {", ..., "}"   after it
/// ```
///
/// Both readings give the same side text; the slid one puts whole items
/// where both sides' insertions can be recognised as such.
fn hunks<'a>(base: &[&'a str], side: &[&'a str]) -> Vec<Hunk<'a>> {
    let mut matched = vec![None; base.len()];
    for (i, j) in diff::common(base, side) {
        matched[i] = Some(j);
    }
    let mut hs = diff::hunks(side, &matched, (0, base.len()), (0, side.len()));
    for k in 0..hs.len() {
        let limit = hs
            .get(k + 1)
            .map_or(base.len(), |n| n.start.saturating_sub(1));
        let h = &mut hs[k];
        while h.start == h.end && h.start < limit && h.new.first() == Some(&base[h.start]) {
            h.new.remove(0);
            h.new.push(base[h.start]);
            h.start += 1;
            h.end += 1;
        }
    }
    hs
}

/// Whether two hunks (one per side) must be shown as a conflict.
fn conflict(a: &Hunk<'_>, b: &Hunk<'_>) -> bool {
    if a == b {
        return false;
    }
    let a_ins = a.start == a.end;
    let b_ins = b.start == b.end;
    match (a_ins, b_ins) {
        (true, true) => a.start == b.start,
        (true, false) => a.start > b.start && a.start < b.end,
        (false, true) => b.start > a.start && b.start < a.end,
        (false, false) => a.start < b.end && b.start < a.end,
    }
}

fn split(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// Says whether two insertions at one base line may follow each other.
pub(crate) type FreeOrder<'f> = dyn Fn(usize, &[&str], &[&str]) -> bool + 'f;

/// Merges `ours` and `theirs`, two edits of `base`. `free_order(at, ours,
/// theirs)` says whether two insertions at the same base line `at` may
/// simply follow each other (ours first): for whole functions or globals
/// added between top-level items, whose order means nothing.
pub(crate) fn merge3(
    base: &str,
    ours: &str,
    theirs: &str,
    m: &Markers,
    free_order: &FreeOrder<'_>,
) -> LineMerge {
    let (b, o, t) = (split(base), split(ours), split(theirs));
    let (mut ho, mut ht) = (hunks(&b, &o), hunks(&b, &t));
    join_free_insertions(&mut ho, &mut ht, free_order);
    // Walk both hunk lists in base order, grouping conflicting hunks.
    let mut out = String::with_capacity(ours.len() + theirs.len() / 4);
    let mut conflicts = 0;
    let (mut i, mut j, mut pos) = (0, 0, 0);
    let key = |h: &Hunk<'_>| (h.start, h.end != h.start);
    while i < ho.len() || j < ht.len() {
        let take_ours = match (ho.get(i), ht.get(j)) {
            (Some(x), Some(y)) => key(x) <= key(y),
            (Some(_), None) => true,
            _ => false,
        };
        let mut g = group(&ho, &ht, i, j, take_ours);
        out.push_str(&b[pos..g.start.max(pos)].concat());
        if g.in_conflict && only_deletions(&ho[i..g.ours_end], &ht[j..g.theirs_end]) {
            // Overlapping deletions: their union, a contiguous range.
            pos = pos.max(g.end);
        } else if !g.in_conflict {
            // One hunk (or the same hunk on both sides).
            let first = if take_ours { &ho[i] } else { &ht[j] };
            out.push_str(&first.new.concat());
            if let (Some(x), Some(y)) = (ho.get(i), ht.get(j)) {
                if x == y {
                    g.ours_end = g.ours_end.max(i + 1);
                    g.theirs_end = g.theirs_end.max(j + 1);
                }
            }
            pos = pos.max(g.end);
        } else {
            conflicts += 1;
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&conflict_hunk(
                &side_text(&b, &ho[i..g.ours_end], g.start, g.end),
                &b[g.start..g.end].concat(),
                &side_text(&b, &ht[j..g.theirs_end], g.start, g.end),
                m,
            ));
            pos = g.end;
        }
        i = g.ours_end;
        j = g.theirs_end;
    }
    out.push_str(&b[pos..].concat());
    LineMerge {
        text: out,
        conflicts,
    }
}

/// Whether every hunk of a group only deletes lines: overlapping
/// deletions delete their union, in whatever order they are read.
fn only_deletions(ours: &[Hunk<'_>], theirs: &[Hunk<'_>]) -> bool {
    ours.iter().chain(theirs).all(|h| h.new.is_empty())
}

/// Concurrent insertions at one base line whose order is free (the
/// caller says) become one insertion: ours' lines, then theirs'.
fn join_free_insertions<'a>(
    ho: &mut [Hunk<'a>],
    ht: &mut Vec<Hunk<'a>>,
    free_order: &FreeOrder<'_>,
) {
    for x in ho.iter_mut() {
        if x.start != x.end {
            continue;
        }
        if let Some(k) = ht
            .iter()
            .position(|y| y.start == x.start && y.end == y.start && y != x)
        {
            if free_order(x.start, &x.new, &ht[k].new) {
                let y = ht.remove(k);
                x.new.extend(y.new);
            }
        }
    }
}

/// Hunks of both sides chained by conflicts, starting at `ho[i]` or `ht[j]`.
struct Group {
    /// One past the group's last hunk of ours, of theirs.
    ours_end: usize,
    theirs_end: usize,
    /// The base lines the group covers.
    start: usize,
    end: usize,
    in_conflict: bool,
}

/// The group that starts with ours' hunk `i` (`take_ours`) or theirs' `j`:
/// grown while a hunk of one side conflicts with one of the other's.
fn group(ho: &[Hunk<'_>], ht: &[Hunk<'_>], i: usize, j: usize, take_ours: bool) -> Group {
    let first = if take_ours { &ho[i] } else { &ht[j] };
    let mut g = Group {
        ours_end: i + usize::from(take_ours),
        theirs_end: j + usize::from(!take_ours),
        start: first.start,
        end: first.end,
        in_conflict: false,
    };
    loop {
        let mut grew = false;
        if let Some(y) = ht.get(g.theirs_end) {
            if ho[i..g.ours_end].iter().any(|x| conflict(x, y)) {
                g.take(y);
                g.theirs_end += 1;
                grew = true;
            }
        }
        if let Some(x) = ho.get(g.ours_end) {
            if ht[j..g.theirs_end].iter().any(|y| conflict(x, y)) {
                g.take(x);
                g.ours_end += 1;
                grew = true;
            }
        }
        if !grew {
            return g;
        }
    }
}

impl Group {
    fn take(&mut self, h: &Hunk<'_>) {
        self.in_conflict = true;
        self.start = self.start.min(h.start);
        self.end = self.end.max(h.end);
    }
}

/// One side's text of base lines `start..end` with its hunks `hs` applied.
fn side_text(b: &[&str], hs: &[Hunk<'_>], start: usize, end: usize) -> String {
    let mut s = String::new();
    let mut p = start;
    for h in hs {
        s.push_str(&b[p..h.start.max(p)].concat());
        s.push_str(&h.new.concat());
        p = p.max(h.end);
    }
    s.push_str(&b[p..end.max(p)].concat());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m3(b: &str, o: &str, t: &str) -> LineMerge {
        merge3(b, o, t, &Markers::default(), &|_, _, _| false)
    }

    #[test]
    fn adjacent_edits_merge() {
        let r = m3("a\nb\nc\n", "a\nB\nc\n", "a\nb\nC\n");
        assert_eq!(
            r,
            LineMerge {
                text: "a\nB\nC\n".into(),
                conflicts: 0
            }
        );
    }

    #[test]
    fn inserts_and_replacements_around_each_other() {
        assert_eq!(m3("a\nb\n", "a\nx\nb\n", "A\nb\n").text, "A\nx\nb\n");
        assert_eq!(m3("a\nb\n", "a\nb\ny\n", "a\nB\n").text, "a\nB\ny\n");
        assert_eq!(m3("a\nb\n", "a\nb\n", "a\nb\nz\n").text, "a\nb\nz\n");
        assert_eq!(m3("a\nb\n", "a\nB\n", "a\nB\n").text, "a\nB\n");
    }

    #[test]
    fn insertions_slide_down_to_whole_items() {
        let b: Vec<&str> = split("f {\n}\n");
        let side: Vec<&str> = split("f {\n}\ng {\n}\n");
        let h = hunks(&b, &side);
        assert_eq!((h[0].start, h[0].new.concat()), (2, "g {\n}\n".to_string()));
    }

    #[test]
    fn insertions_in_free_order_follow_each_other() {
        let m = Markers::default();
        let r = merge3("a\n", "a\nx\n", "a\ny\n", &m, &|at, _, _| at == 1);
        assert_eq!(
            r,
            LineMerge {
                text: "a\nx\ny\n".into(),
                conflicts: 0
            }
        );
    }

    #[test]
    fn overlapping_edits_conflict_around_the_lines_only() {
        let r = m3("a\nb\nc\n", "a\nB\nc\n", "a\nX\nc\n");
        assert_eq!(r.conflicts, 1);
        assert_eq!(
            r.text,
            "a\n<<<<<<< ours\nB\n||||||| base\nb\n=======\nX\n>>>>>>> theirs\nc\n"
        );
        let r = m3("a\nc\n", "a\nx\nc\n", "a\ny\nc\n");
        assert_eq!(r.conflicts, 1, "two inserts at one place");
        let r = m3("a\nb\nc\nd\n", "a\nd\n", "a\nb\nx\nc\nd\n");
        assert_eq!(r.conflicts, 1, "an insert inside a deletion");
        let r = m3("a\nb\nc\nd\n", "a\nb\n", "a\nb\nc\nX\n");
        assert_eq!(r.conflicts, 1, "a replacement overlapping a deletion");
    }

    #[test]
    fn overlapping_deletions_delete_their_union() {
        let r = m3("a\nb\nc\nd\ne\n", "a\nd\ne\n", "a\nb\ne\n");
        assert_eq!(
            r,
            LineMerge {
                text: "a\ne\n".into(),
                conflicts: 0
            }
        );
        let r = m3("a\nb\nc\nd\n", "a\nb\n", "d\n");
        assert_eq!(
            r,
            LineMerge {
                text: "".into(),
                conflicts: 0
            }
        );
    }
}
