//! How one side moved the base's source lines, as far as its debug info tells:
//! rebasing (`docs/merge-theory.md`) needs, for a position of the base, how
//! many lines the other side inserted (or deleted) above it.
//!
//! The evidence is *anchors*: nodes found unchanged on the side (same key,
//! [`super::nodes`]), each a pair (base line, side line). Between two
//! anchors with the same shift, and nothing the side added or removed in
//! between, every line moved by that shift. Elsewhere (a *zone*) the side
//! edited something, and the shift of a line there is not known.
//!
//! ```text
//! anchors (base → ours): 2→2, 6→6, 11→12, 20→21     ours added a node at 9
//! shift: 0 up to line 6, unknown in (6, 11), +1 from line 11 on
//! ```

use std::collections::BTreeMap;

/// The shift of one side over one source file.
#[derive(Debug, Default)]
pub(crate) struct ShiftMap {
    /// (base line, side line), sorted, one per base line, the start of the
    /// file (0, 0) first.
    anchors: Vec<(u32, u32)>,
    /// `zone[i]`: the lines strictly between anchors `i` and `i + 1` (after
    /// the last anchor, for the last entry) have no known shift.
    zone: Vec<bool>,
    /// Base lines whose nodes moved by different amounts.
    split: Vec<u32>,
    /// The anchors contradict each other (lines reordered): nothing is known.
    broken: bool,
}

/// What a side did to one file, in lines.
#[derive(Debug, Default)]
pub(crate) struct Evidence {
    /// (base line, side line) of nodes found unchanged.
    pub anchors: Vec<(u32, u32)>,
    /// Side lines of nodes the base does not have.
    pub added: Vec<u32>,
    /// Base lines of nodes the side does not have.
    pub removed: Vec<u32>,
}

fn shift(a: (u32, u32)) -> i64 {
    a.1 as i64 - a.0 as i64
}

impl ShiftMap {
    pub(crate) fn new(mut e: Evidence) -> ShiftMap {
        e.anchors.push((0, 0));
        e.anchors.sort_unstable();
        e.anchors.dedup();
        let mut anchors: Vec<(u32, u32)> = Vec::with_capacity(e.anchors.len());
        let mut split = Vec::new();
        for a in e.anchors {
            match anchors.last() {
                Some(&(b, _)) if b == a.0 => {
                    split.push(a.0);
                }
                _ => anchors.push(a),
            }
        }
        anchors.retain(|a| !split.contains(&a.0));
        let broken = anchors.windows(2).any(|w| w[1].1 <= w[0].1);
        let mut zone = vec![false; anchors.len()];
        for (i, w) in anchors.windows(2).enumerate() {
            zone[i] = shift(w[0]) != shift(w[1]);
        }
        let interval_of_base = |l: u32| anchors.partition_point(|a| a.0 < l).saturating_sub(1);
        let interval_of_side = |l: u32| anchors.partition_point(|a| a.1 < l).saturating_sub(1);
        for &l in e.removed.iter().chain(&split) {
            if anchors.binary_search_by_key(&l, |a| a.0).is_err() {
                zone[interval_of_base(l)] = true;
            }
        }
        for &l in &e.added {
            if anchors.binary_search_by_key(&l, |a| a.1).is_err() {
                zone[interval_of_side(l)] = true;
            }
        }
        ShiftMap {
            anchors,
            zone,
            split,
            broken,
        }
    }

    /// A map that knows nothing (a file the side's anchors contradict).
    pub(crate) fn unknown() -> ShiftMap {
        ShiftMap {
            broken: true,
            ..ShiftMap::default()
        }
    }

    /// The shift of base line `l`, when known.
    pub(crate) fn at(&self, l: u32) -> Option<i64> {
        self.over(l, l)
    }

    /// The shift of every base line in `lo..=hi`, when it is known and the
    /// same for all of them.
    pub(crate) fn over(&self, lo: u32, hi: u32) -> Option<i64> {
        if self.broken || self.split.iter().any(|&s| lo <= s && s <= hi) {
            return None;
        }
        // Anchor `i` is the last at or before `lo`; every interval from
        // there to `hi` must be free of edits and of one shift.
        let first = self.anchors.partition_point(|a| a.0 <= lo).checked_sub(1)?;
        let s = shift(self.anchors[first]);
        let mut i = first;
        loop {
            let next = self.anchors.get(i + 1);
            let ends_inside = next.is_none_or(|n| n.0 > hi);
            // The lines strictly after anchor `i` (up to the next one)
            // count when one of lo..=hi is among them.
            if self.anchors[i].0 < hi && self.zone[i] {
                return None;
            }
            if ends_inside {
                return Some(s);
            }
            let n = *next.unwrap();
            if shift(n) != s {
                return None;
            }
            i += 1;
        }
    }

    /// Whether the side moved some of the base lines `lo..=hi` against the
    /// others: the shifts of the anchors from the one at or before `lo` to
    /// the first one after `hi` differ. Past the last anchor no shift is
    /// seen: there `side_hi`, the side's last line of what `lo..=hi` held,
    /// must have moved as the anchors did, unless the side has nothing
    /// there (it removed the nodes of the span's last lines: an anchor in
    /// the span is its last line).
    pub(crate) fn moves_within(&self, lo: u32, hi: u32, side_hi: u32) -> bool {
        if self.broken || self.split.iter().any(|&s| lo <= s && s <= hi) {
            return true;
        }
        let first = self
            .anchors
            .partition_point(|a| a.0 <= lo)
            .saturating_sub(1);
        let after = self.anchors.partition_point(|a| a.0 <= hi);
        let s = shift(self.anchors[first]);
        let last = self.anchors[after.max(1) - 1];
        let end = match self.anchors.get(after) {
            Some(&a) => shift(a),
            None if last.0 >= lo && side_hi <= last.1 => s,
            None => side_hi as i64 - hi as i64,
        };
        self.anchors[first..after].iter().any(|&a| shift(a) != s) || end != s
    }

    /// The first base line of `lo..=hi` whose shift is not that of `lo`
    /// (or not known), when [`ShiftMap::moves_within`] says some moved:
    /// the line after the last anchor of one shift with nothing edited
    /// between (`lo` when nothing is known).
    pub(crate) fn first_move(&self, lo: u32, hi: u32) -> u32 {
        if self.broken {
            return lo;
        }
        let mut i = self
            .anchors
            .partition_point(|a| a.0 <= lo)
            .saturating_sub(1);
        let s = shift(self.anchors[i]);
        while !self.zone[i] {
            match self.anchors.get(i + 1) {
                Some(&n) if n.0 <= hi && shift(n) == s => i += 1,
                _ => break,
            }
        }
        let at = (self.anchors[i].0 + 1).max(lo);
        let split = self.split.iter().copied().filter(|&x| lo <= x && x <= hi);
        split.fold(at, u32::min)
    }

    /// Where a side line sits in the base: the base line of an anchor on
    /// the same line, else the two anchors around it (`u32::MAX`: after the
    /// last one).
    pub(crate) fn base_range_of(&self, side_line: u32) -> (u32, u32) {
        if self.broken {
            return (0, u32::MAX);
        }
        let i = self.anchors.partition_point(|a| a.1 < side_line);
        match self.anchors.get(i) {
            Some(a) if a.1 == side_line => (a.0, a.0),
            next => {
                let before = i.checked_sub(1).map_or(0, |p| self.anchors[p].0);
                (before, next.map_or(u32::MAX, |a| a.0))
            }
        }
    }

    /// A deterministic stand-in for an unknown shift at base line `l` (the
    /// shift of the anchor at or before it), for text shown in conflicts.
    pub(crate) fn guess(&self, l: u32) -> i64 {
        let i = self.anchors.partition_point(|a| a.0 <= l);
        i.checked_sub(1).map_or(0, |p| shift(self.anchors[p]))
    }
}

/// The heaviest chain of line pairs increasing on both sides: the pairs
/// that agree with each other, `(base line, side line, weight)`. A pair
/// left out joined two nodes that only look alike, or moved lines.
pub(crate) fn heaviest_chain(pairs: &[(u32, u32, u64)]) -> Vec<(u32, u32)> {
    let mut merged: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    for &(b, s, w) in pairs {
        *merged.entry((b, s)).or_insert(0) += w;
    }
    let mut sorted: Vec<((u32, u32), u64)> = merged.into_iter().collect();
    // Equal base lines never chain: the higher side line comes first.
    sorted.sort_unstable_by(|a, b| a.0 .0.cmp(&b.0 .0).then(b.0 .1.cmp(&a.0 .1)));
    let mut sides: Vec<u32> = sorted.iter().map(|p| p.0 .1).collect();
    sides.sort_unstable();
    sides.dedup();
    // best[i]: the heaviest chain ending at pair i, and the pair before it.
    let mut tree = MaxTree::new(sides.len());
    let mut before: Vec<Option<usize>> = vec![None; sorted.len()];
    let mut total: Vec<u64> = vec![0; sorted.len()];
    for (i, &((_, s), w)) in sorted.iter().enumerate() {
        let rank = sides.partition_point(|&x| x < s);
        let (best, at) = tree.max_below(rank);
        total[i] = best + w;
        before[i] = at;
        tree.raise(rank, total[i], i);
    }
    let mut chain = Vec::new();
    let mut at = (0..sorted.len()).max_by_key(|&i| (total[i], std::cmp::Reverse(i)));
    while let Some(i) = at {
        chain.push(sorted[i].0);
        at = before[i];
    }
    chain.reverse();
    chain
}

/// A Fenwick tree of (best total, pair index) over side-line ranks.
struct MaxTree(Vec<(u64, Option<usize>)>);

impl MaxTree {
    fn new(n: usize) -> MaxTree {
        MaxTree(vec![(0, None); n + 1])
    }

    /// The best entry among ranks `0..rank`.
    fn max_below(&self, rank: usize) -> (u64, Option<usize>) {
        let mut best = (0, None);
        let mut i = rank;
        while i > 0 {
            if self.0[i].0 > best.0 {
                best = self.0[i];
            }
            i &= i - 1;
        }
        best
    }

    fn raise(&mut self, rank: usize, total: u64, at: usize) {
        let mut i = rank + 1;
        while i < self.0.len() {
            if total > self.0[i].0 {
                self.0[i] = (total, Some(at));
            }
            i += i & i.wrapping_neg();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours_inserts_one_line_at_9() -> ShiftMap {
        ShiftMap::new(Evidence {
            anchors: vec![(2, 2), (6, 6), (11, 12), (20, 21)],
            added: vec![9],
            removed: vec![],
        })
    }

    #[test]
    fn shifts_are_known_outside_the_edit() {
        let m = ours_inserts_one_line_at_9();
        assert_eq!(m.at(1), Some(0));
        assert_eq!(m.at(6), Some(0));
        assert_eq!(m.over(2, 6), Some(0));
        assert_eq!(m.at(7), None);
        assert_eq!(m.at(11), Some(1));
        assert_eq!(m.over(11, 40), Some(1));
        assert_eq!(m.over(6, 11), None);
        assert_eq!(m.base_range_of(9), (6, 11));
        assert_eq!(m.base_range_of(12), (11, 11));
        assert_eq!(m.base_range_of(30), (20, u32::MAX));
    }

    #[test]
    fn moves_inside_a_span_are_seen_from_the_anchors_around_it() {
        let m = ours_inserts_one_line_at_9();
        // An insertion between a span and the next anchor may be inside it.
        assert!(m.moves_within(2, 6, 6));
        assert!(!m.moves_within(12, 15, 16));
        assert!(m.moves_within(2, 8, 9));
        assert!(m.moves_within(7, 9, 10));
        assert!(!m.moves_within(12, 20, 21));
        assert!(!m.moves_within(12, 25, 26));
        assert!(m.moves_within(12, 25, 27));
    }

    #[test]
    fn lines_move_from_after_the_last_anchor_of_the_first_shift() {
        let m = ours_inserts_one_line_at_9();
        assert_eq!(m.first_move(2, 25), 7, "the zone after 6");
        assert_eq!(m.first_move(11, 25), 21, "past the last anchor");
        let moved = ShiftMap::new(Evidence {
            anchors: vec![(2, 2), (6, 6), (11, 12)],
            ..Evidence::default()
        });
        assert_eq!(
            moved.first_move(3, 15),
            7,
            "the next anchor's shift differs"
        );
    }

    #[test]
    fn a_span_whose_last_lines_lost_their_nodes_did_not_move() {
        // The side removed the nodes of lines 7 and 8 (the last of the
        // file): nothing of 2..=8 is seen moving.
        let m = ShiftMap::new(Evidence {
            anchors: vec![(2, 2), (6, 6)],
            added: vec![],
            removed: vec![7, 8],
        });
        assert!(!m.moves_within(2, 8, 6));
        assert!(m.moves_within(2, 8, 7), "a side line past the last anchor");
        assert!(m.moves_within(7, 8, 6), "no anchor in the span");
        assert_eq!(m.at(8), None, "the removed lines' shift is still unknown");
    }

    #[test]
    fn an_edit_after_the_last_anchor_leaves_the_tail_unknown() {
        let m = ShiftMap::new(Evidence {
            anchors: vec![(2, 2), (6, 6)],
            added: vec![8],
            removed: vec![7],
        });
        assert_eq!(m.at(6), Some(0));
        assert_eq!(m.at(7), None);
        assert_eq!(m.over(3, 6), Some(0));
        assert_eq!(m.over(3, u32::MAX), None);
    }

    #[test]
    fn reordered_lines_are_unknown() {
        let m = ShiftMap::new(Evidence {
            anchors: vec![(2, 10), (10, 2)],
            ..Evidence::default()
        });
        assert_eq!(m.at(2), None);
        assert_eq!(m.at(1), None);
    }

    #[test]
    fn the_chain_leaves_out_pairs_that_disagree() {
        let pairs = [
            (6, 6, 1),
            (38, 39, 1),
            (49, 50, 5),
            (50, 50, 1),
            (50, 50, 1),
            (7, 7, 1),
            (40, 55, 1),
        ];
        let chain = heaviest_chain(&pairs);
        assert_eq!(chain, vec![(6, 6), (7, 7), (38, 39), (49, 50)]);
    }

    #[test]
    fn a_split_line_is_unknown() {
        let m = ShiftMap::new(Evidence {
            anchors: vec![(2, 2), (5, 5), (5, 6), (9, 10)],
            ..Evidence::default()
        });
        assert_eq!(m.at(2), Some(0));
        assert_eq!(m.at(5), None);
        assert_eq!(m.over(9, 12), Some(1));
    }
}
