//! Renamed functions, found structurally in the manner of MergeFunctions'
//! FunctionComparator: a function that disappeared and one that
//! appeared are the same function when their signatures (function type)
//! agree and their bodies agree instruction by instruction under a value
//! numbering, their own names aside.
//!
//! ```text
//! old: define i32 @sum(ptr %arg0, i32 %arg1) {     new: define i32 @total(ptr %arg0, i32 %arg1) {
//!        %ld.91 = load i32, ptr %arg0                     %ld.91 = load i32, ptr %arg0
//!        %r = call i32 @sum(ptr %arg0, i32 %ld.91)        %r = call i32 @total(ptr %arg0, i32 %ld.91)
//! numbered (both):  load i32, ptr %v0 -> %v2 ; call i32 @SELF(ptr %v0, i32 %v2) -> %v3 ...
//! ```
//!
//! 1. *Hash to propose*: every removed and added function gets a hash of its
//!    numbered body (locals renumbered in order of first appearance, as
//!    FunctionComparator's serial numbers) and its type. A hash shared by
//!    exactly one removed and one added function is a rename, unchanged.
//! 2. *Renamed and edited*: for the rest, pairs of equal type whose
//!    instruction-shape multisets overlap enough (an upper bound of the
//!    similarity) are compared exactly with [`compare`]; a pair whose
//!    similarity (shared instructions over the mean size) reaches the
//!    threshold and that is each side's unique best is a rename with edits.

use rustc_hash::FxHashMap as HashMap;

use super::compare::{compare, FuncDiff};
use super::moved::shape_hash;
use super::side::{FuncKeys, Side};
use crate::text::{rewrite, Ref};

use crate::hash::StableHasher;

/// Most exact comparisons the similarity stage runs.
const MAX_COMPARISONS: usize = 2000;

/// A detected rename.
#[derive(Debug, Clone)]
pub(crate) struct Rename {
    /// Index into the old side's functions.
    pub old: usize,
    /// Index into the new side's functions.
    pub new: usize,
}

/// The value-numbered hash of a function (its own name already reads
/// `@SELF` in the keys).
pub(crate) fn numbered_hash(f: &FuncKeys) -> u64 {
    let locals = f.locals();
    let mut serial: HashMap<String, usize> = HashMap::default();
    let mut h = StableHasher::new().str(&f.fn_type);
    let mut number = |line: &str, h: StableHasher| {
        let numbered = rewrite(line, |r| match r {
            Ref::Local(x) if locals.contains(x) => {
                let next = serial.len();
                let k = *serial.entry(x.to_string()).or_insert(next);
                Some(format!("%v{k}"))
            }
            _ => None,
        });
        h.str(&numbered)
    };
    h = number(&f.header, h);
    for b in &f.blocks {
        h = number(&format!("%{}:", b.label), h);
        for l in &b.insts {
            h = number(l, h);
        }
    }
    h.finish()
}

/// Upper bound of [`FuncDiff::similarity`]: equal instructions have equal
/// shapes, so the shared part of the two shape multisets bounds the shared
/// instructions.
fn similarity_bound(a: &[u64], b: &[u64]) -> f64 {
    let total = a.len() + b.len();
    if total == 0 {
        return 1.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * common as f64 / total as f64
}

fn sorted_shapes(f: &FuncKeys) -> Vec<u64> {
    let mut v: Vec<u64> = f
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().map(|l| shape_hash(l)))
        .collect();
    v.sort_unstable();
    v
}

/// Pairs removed functions of `old` with added functions of `new`.
/// `removed` and `added` are function indices; `threshold` is the least
/// similarity for a renamed-and-edited pair (1.0: only unchanged renames).
pub(crate) fn detect(
    old: &Side,
    new: &Side,
    removed: &[usize],
    added: &[usize],
    threshold: f64,
) -> Vec<Rename> {
    if removed.is_empty() || added.is_empty() {
        return Vec::new();
    }
    let mut out = equal_bodies(old, new, removed, added);
    if threshold <= 1.0 {
        let left: Vec<usize> = removed
            .iter()
            .copied()
            .filter(|&r| !out.iter().any(|x| x.old == r))
            .collect();
        let right: Vec<usize> = added
            .iter()
            .copied()
            .filter(|&a| !out.iter().any(|x| x.new == a))
            .collect();
        out.extend(similar_bodies(old, new, &left, &right, threshold));
    }
    out.sort_by_key(|x| x.new);
    out
}

/// Step 1: a removed and an added function whose numbered bodies hash
/// alike, one of each, and compare as unchanged (the hash proposes; the
/// comparison decides).
fn equal_bodies(old: &Side, new: &Side, removed: &[usize], added: &[usize]) -> Vec<Rename> {
    let mut buckets: HashMap<u64, (Vec<usize>, Vec<usize>)> = HashMap::default();
    for &r in removed {
        buckets
            .entry(numbered_hash(&old.funcs[r]))
            .or_default()
            .0
            .push(r);
    }
    for &a in added {
        if let Some(b) = buckets.get_mut(&numbered_hash(&new.funcs[a])) {
            b.1.push(a);
        }
    }
    let mut exact: Vec<(usize, usize)> = buckets
        .values()
        .filter(|(r, a)| r.len() == 1 && a.len() == 1)
        .map(|(r, a)| (r[0], a[0]))
        .collect();
    exact.sort_unstable();
    exact
        .into_iter()
        .filter(|&(r, a)| !compare(&old.funcs[r], &new.funcs[a]).is_change())
        .map(|(r, a)| Rename { old: r, new: a })
        .collect()
}

/// Step 2: similar bodies of the same type, at least `threshold` alike; a
/// pair is chosen when it is the unique best of both its functions.
fn similar_bodies(
    old: &Side,
    new: &Side,
    left: &[usize],
    right: &[usize],
    threshold: f64,
) -> Vec<Rename> {
    let scored: Vec<(usize, usize, FuncDiff)> = candidate_pairs(old, new, left, right, threshold)
        .into_iter()
        .map(|(r, a)| (r, a, compare(&old.funcs[r], &new.funcs[a])))
        .filter(|(_, _, d)| d.similarity() >= threshold)
        .collect();
    let unique_best = |of: &dyn Fn(&(usize, usize, FuncDiff)) -> bool| -> Option<usize> {
        let mine: Vec<(usize, f64)> = scored
            .iter()
            .enumerate()
            .filter(|(_, x)| of(x))
            .map(|(i, x)| (i, x.2.similarity()))
            .collect();
        let max = mine.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let mut top = mine.iter().filter(|x| x.1 == max);
        let first = top.next()?;
        top.next().is_none().then_some(first.0)
    };
    (0..scored.len())
        .filter(|&k| {
            let (r, a, _) = &scored[k];
            unique_best(&|x| x.0 == *r) == Some(k) && unique_best(&|x| x.1 == *a) == Some(k)
        })
        .map(|k| Rename {
            old: scored[k].0,
            new: scored[k].1,
        })
        .collect()
}

/// The pairs worth comparing: same type, and an upper bound of their
/// similarity (from instruction shapes) at least `threshold`; the most
/// promising first, at most [`MAX_COMPARISONS`].
fn candidate_pairs(
    old: &Side,
    new: &Side,
    left: &[usize],
    right: &[usize],
    threshold: f64,
) -> Vec<(usize, usize)> {
    let shapes_old: HashMap<usize, Vec<u64>> = left
        .iter()
        .map(|&r| (r, sorted_shapes(&old.funcs[r])))
        .collect();
    let shapes_new: HashMap<usize, Vec<u64>> = right
        .iter()
        .map(|&a| (a, sorted_shapes(&new.funcs[a])))
        .collect();
    let mut candidates: Vec<(f64, usize, usize)> = Vec::new();
    for &r in left {
        for &a in right {
            if old.funcs[r].fn_type != new.funcs[a].fn_type {
                continue;
            }
            let bound = similarity_bound(&shapes_old[&r], &shapes_new[&a]);
            if bound >= threshold {
                candidates.push((bound, r, a));
            }
        }
    }
    // Most promising first, so the cap cuts the least likely pairs.
    candidates.sort_by(|x, y| y.0.total_cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    candidates.truncate(MAX_COMPARISONS);
    candidates.into_iter().map(|(_, r, a)| (r, a)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_counts_shared_shapes() {
        assert_eq!(similarity_bound(&[1, 2, 3], &[2, 3, 4]), 2.0 * 2.0 / 6.0);
        assert_eq!(similarity_bound(&[1, 1], &[1]), 2.0 / 3.0);
        assert_eq!(similarity_bound(&[], &[]), 1.0);
    }
}
