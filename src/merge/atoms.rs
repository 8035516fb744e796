//! Atom groups of debug locations, compared as a numbering.
//!
//! Key instructions (`atomGroup:` and `atomRank:` of a `DILocation`) number
//! the source atoms from one counter of the whole module, in codegen order:
//! an edit in one function renumbers the groups of the functions clang
//! emits after it, and of the code inlined from them. A group's number
//! means nothing but which instructions share it, so two versions of a
//! function whose lines are equal but for their groups' numbers, renumbered
//! one to one (ranks and everything else equal), say the same thing:
//!
//! ```text
//! base:   %c = icmp eq i32 %m, 0, !dbg !20   !20 = !DILocation(line: 7, column: 9, scope: !16, atomGroup: 8, atomRank: 2)
//!         br i1 %c, ..., !dbg !21            !21 = !DILocation(line: 7, column: 9, scope: !16, atomGroup: 8, atomRank: 1)
//! theirs: %c = icmp eq i32 %m, 0, !dbg !33   !33 = !DILocation(line: 7, column: 9, scope: !16, atomGroup: 7, atomRank: 2)
//!         br i1 %c, ..., !dbg !34            !34 = !DILocation(line: 7, column: 9, scope: !16, atomGroup: 7, atomRank: 1)
//! renumbered: 8 → 7 (a function ours removed stays removed)
//! ```

use rustc_hash::FxHashMap as HashMap;

use crate::canon::debug_lines::field;
use crate::compare::model::{ModuleText, SideTables};
use crate::text::{scan_refs, Ref};

use crate::hash::StableHasher;

/// The locations of one version that have an atom group, by the key
/// ([`SideTables`]) its lines' references carry.
#[derive(Default)]
pub(crate) struct Atoms {
    /// Location key → (its key without the group's number, the group).
    of: HashMap<u64, (u64, u64)>,
}

impl Atoms {
    /// The grouped locations of `m`, whose keys are `t`'s.
    pub(crate) fn new(m: &ModuleText, t: &SideTables) -> Atoms {
        let mut of = HashMap::default();
        for (&n, rhs) in &m.meta {
            if !rhs
                .trim_start_matches("distinct ")
                .starts_with("!DILocation(")
            {
                continue;
            }
            let Some((at, number)) = field(rhs, "atomGroup") else {
                continue;
            };
            let (Ok(group), Some((key, _))) = (number.parse::<u64>(), t.meta_key(n)) else {
                continue;
            };
            if let Some(ungrouped) = ungrouped_key(rhs, at..at + number.len(), t) {
                of.insert(key, (ungrouped, group));
            }
        }
        Atoms { of }
    }
}

/// The key of location `rhs` without its group's number (at `number`):
/// its text without the number, each reference read as the referenced
/// node's key (`None` when one has none).
fn ungrouped_key(rhs: &str, number: std::ops::Range<usize>, t: &SideTables) -> Option<u64> {
    let text = format!("{}{}", &rhs[..number.start], &rhs[number.end..]);
    let mut h = StableHasher::new();
    let mut copied = 0;
    let mut ok = true;
    scan_refs(&text, |i, j, r| {
        if let Ref::Meta(x) = r {
            h = h.str(&text[copied..i]);
            match t.meta_key(x) {
                Some((k, _)) => h = h.u64(k),
                None => ok = false,
            }
            copied = j;
        }
    });
    ok.then(|| h.str(&text[copied..]).finish())
}

/// A one-to-one renumbering of atom groups, built as lines are compared.
#[derive(Default)]
pub(crate) struct Renumbering {
    forward: HashMap<u64, u64>,
    backward: HashMap<u64, u64>,
}

impl Renumbering {
    /// Whether line key `side` (keys of `sa`) is line key `base` (keys of
    /// `so`) with its locations' groups renumbered, consistently with the
    /// lines compared before.
    pub(crate) fn same_line(&mut self, base: &str, side: &str, so: &Atoms, sa: &Atoms) -> bool {
        let (tb, ts) = (key_tokens(base), key_tokens(side));
        if tb.len() != ts.len() {
            return false;
        }
        let mut last = (0, 0);
        for (&(bi, bj, kb), &(si, sj, ks)) in tb.iter().zip(&ts) {
            if base[last.0..bi] != side[last.1..si] || !self.same_ref(kb, ks, so, sa) {
                return false;
            }
            last = (bj, sj);
        }
        base[last.0..] == side[last.1..]
    }

    /// Whether reference `ks` (a key of the side) is `kb` (the base's),
    /// renumbered.
    fn same_ref(&mut self, kb: u64, ks: u64, so: &Atoms, sa: &Atoms) -> bool {
        match (so.of.get(&kb), sa.of.get(&ks)) {
            (Some(&(ub, gb)), Some(&(us, gs))) => ub == us && self.pair(gb, gs),
            (None, None) => kb == ks,
            _ => false,
        }
    }

    /// Records group `b` renumbered `s`: false when either already has
    /// another partner.
    fn pair(&mut self, b: u64, s: u64) -> bool {
        *self.forward.entry(b).or_insert(s) == s && *self.backward.entry(s).or_insert(b) == b
    }
}

/// The metadata references of a line key (`!k<hex>`): start, end, key.
fn key_tokens(key: &str) -> Vec<(usize, usize, u64)> {
    let bytes = key.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = key[i..].find("!k").map(|p| i + p) {
        let start = at + 2;
        let end = bytes[start..]
            .iter()
            .position(|c| !c.is_ascii_hexdigit())
            .map_or(bytes.len(), |p| start + p);
        if let Ok(k) = u64::from_str_radix(&key[start..end], 16) {
            out.push((at, end, k));
        }
        i = end.max(start);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_tokens_are_found_between_other_text() {
        let t = key_tokens("br label %b, !dbg !k1f, !llvm.loop !kabc");
        assert_eq!(t.iter().map(|x| x.2).collect::<Vec<_>>(), vec![0x1f, 0xabc]);
    }

    #[test]
    fn a_renumbering_is_one_to_one() {
        let mut r = Renumbering::default();
        assert!(r.pair(8, 7) && r.pair(8, 7) && r.pair(9, 8));
        assert!(!r.pair(10, 8), "two base groups made one");
        assert!(!r.pair(9, 9), "one base group split");
    }
}
