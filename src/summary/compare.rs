//! What changed inside one function: blocks and values of the new version
//! are matched to the old one ([`crate::merge::matching`], the merge's
//! congruence), the new lines are rewritten into old names, and each
//! matched block pair is diffed line by line.
//!
//! ```text
//! old                                   new
//! %add.5e1c = add i32 %arg0, 1          %add.77f0 = add i32 %arg0, 2      changed (same value, new line)
//! %mul.c2a9 = mul i32 %add.5e1c, 3      %mul.0b1d = mul i32 %add.77f0, 3  unchanged (reads %add.5e1c in old names)
//!                                       store i32 %mul.0b1d, ptr @g       added
//! ret i32 %mul.c2a9                     ret i32 %mul.0b1d                 unchanged
//! ```
//!
//! Instructions left over in a gap of the line diff pair up as *changed*
//! when they define matched values, or when they are unnamed instructions
//! of the same opcode; the rest are added or removed. Blocks without a
//! partner are added or removed with all their instructions.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::side::{opcode, FuncKeys};
use crate::merge::diff;
use crate::merge::matching::match_function;
use crate::merge::model::{def_name, rewrite, BlockText, FuncText, Ref};

/// The edit of one function, counted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FuncDiff {
    pub insts_old: usize,
    pub insts_new: usize,
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
    pub blocks_old: usize,
    pub blocks_new: usize,
    pub blocks_added: usize,
    pub blocks_removed: usize,
    /// The `define` line differs (type, attributes, linkage...).
    pub header_changed: bool,
    /// Added instructions of the new version, as (block, index).
    pub added_at: Vec<(usize, usize)>,
    /// Removed instructions of the old version, as (block, index).
    pub removed_at: Vec<(usize, usize)>,
}

impl FuncDiff {
    /// Whether anything differs.
    pub fn is_change(&self) -> bool {
        self.header_changed
            || self.added + self.removed + self.changed + self.blocks_added + self.blocks_removed
                > 0
    }

    /// Instructions kept as they were.
    pub fn unchanged(&self) -> usize {
        self.insts_old - self.removed - self.changed
    }

    /// Shared instructions over the mean size, in `[0, 1]` (1: identical
    /// bodies; the `define` lines are not counted).
    pub fn similarity(&self) -> f64 {
        let total = self.insts_old + self.insts_new;
        if total == 0 {
            return 1.0;
        }
        2.0 * self.unchanged() as f64 / total as f64
    }

    /// The whole function added.
    pub fn added_function(n: &FuncKeys) -> FuncDiff {
        FuncDiff {
            insts_new: n.instruction_count(),
            added: n.instruction_count(),
            blocks_new: n.blocks.len(),
            blocks_added: n.blocks.len(),
            added_at: positions(n),
            ..FuncDiff::default()
        }
    }

    /// The whole function removed.
    pub fn removed_function(o: &FuncKeys) -> FuncDiff {
        FuncDiff {
            insts_old: o.instruction_count(),
            removed: o.instruction_count(),
            blocks_old: o.blocks.len(),
            blocks_removed: o.blocks.len(),
            removed_at: positions(o),
            ..FuncDiff::default()
        }
    }

    /// No change.
    pub fn unchanged_function(f: &FuncKeys) -> FuncDiff {
        FuncDiff {
            insts_old: f.instruction_count(),
            insts_new: f.instruction_count(),
            blocks_old: f.blocks.len(),
            blocks_new: f.blocks.len(),
            ..FuncDiff::default()
        }
    }
}

fn positions(f: &FuncKeys) -> Vec<(usize, usize)> {
    f.blocks
        .iter()
        .enumerate()
        .flat_map(|(b, bl)| (0..bl.insts.len()).map(move |i| (b, i)))
        .collect()
}

/// Compares old `o` with new `n` (keys of `n` already written in old global
/// names where functions were renamed).
pub fn compare(o: &FuncKeys, n: &FuncKeys) -> FuncDiff {
    if o.same_as(n) {
        return FuncDiff::unchanged_function(o);
    }
    let old_block: HashMap<&str, usize> = o
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label.as_str(), i))
        .collect();
    let (fo, fnew, same) = without_identical_lines(o, n, &old_block);
    let mut m = match_function(&fo, &fnew);
    let new_locals = n.locals();
    let mut image: HashSet<String> = m.values.values().cloned().collect();
    for d in same {
        if !m.values.contains_key(&d) && image.insert(d.clone()) {
            m.values.insert(d.clone(), d);
        }
    }
    anchor_identical_lines(o, n, &old_block, &mut m);
    let translate = |line: &str| {
        rewrite(line, |r| match r {
            Ref::Local(x) if new_locals.contains(x) => {
                Some(match m.values.get(x).or_else(|| m.blocks.get(x)) {
                    Some(old) => format!("%{old}"),
                    // Cannot equal any old name: `+` is not a name character.
                    None => format!("%+{x}"),
                })
            }
            _ => None,
        })
    };
    let mut d = FuncDiff {
        insts_old: o.instruction_count(),
        insts_new: n.instruction_count(),
        blocks_old: o.blocks.len(),
        blocks_new: n.blocks.len(),
        header_changed: o.header != n.header,
        ..FuncDiff::default()
    };
    let mut old_paired = vec![false; o.blocks.len()];
    // Lines left in gaps, for a last pairing across blocks.
    let mut loose_old: Vec<(usize, usize)> = Vec::new();
    let mut loose_new: Vec<(usize, usize)> = Vec::new();
    for (nb, block) in n.blocks.iter().enumerate() {
        let Some(&ob) = m
            .blocks
            .get(&block.label)
            .and_then(|l| old_block.get(l.as_str()))
        else {
            d.blocks_added += 1;
            loose_new.extend((0..block.insts.len()).map(|i| (nb, i)));
            continue;
        };
        old_paired[ob] = true;
        let old_lines = &o.blocks[ob].insts;
        let new_lines: Vec<String> = block.insts.iter().map(|l| translate(l)).collect();
        let common = diff::common(old_lines, &new_lines);
        let (mut po, mut pn) = (0, 0);
        let ends = std::iter::once((old_lines.len(), new_lines.len()));
        for (i, j) in common.iter().copied().chain(ends) {
            if i > po || j > pn {
                let (co, cn) = pair_gap(&old_lines[po..i], &new_lines[pn..j]);
                d.changed += co.iter().filter(|&&p| p).count();
                loose_old.extend((po..i).filter(|&k| !co[k - po]).map(|k| (ob, k)));
                loose_new.extend((pn..j).filter(|&k| !cn[k - pn]).map(|k| (nb, k)));
            }
            po = i + 1;
            pn = j + 1;
        }
    }
    for (ob, paired) in old_paired.iter().enumerate() {
        if !paired {
            d.blocks_removed += 1;
            loose_old.extend((0..o.blocks[ob].insts.len()).map(|i| (ob, i)));
        }
    }
    // A matched value whose instruction moved to another block is changed,
    // not removed and added.
    let old_def_at: HashMap<&str, (usize, usize)> = loose_old
        .iter()
        .filter_map(|&(b, i)| def_name(&o.blocks[b].insts[i]).map(|n| (n, (b, i))))
        .collect();
    let mut taken: HashSet<(usize, usize)> = HashSet::default();
    for &(b, i) in &loose_new {
        let line = &n.blocks[b].insts[i];
        let paired = def_name(line)
            .and_then(|x| m.values.get(x))
            .and_then(|old| old_def_at.get(old.as_str()))
            .filter(|at| taken.insert(**at));
        if paired.is_some() {
            d.changed += 1;
        } else {
            d.added += 1;
            d.added_at.push((b, i));
        }
    }
    for at in loose_old {
        if !taken.contains(&at) {
            d.removed += 1;
            d.removed_at.push(at);
        }
    }
    d
}

/// Both functions without the lines that are identical and aligned (a
/// line diff) in blocks of the same label, terminators kept: those lines
/// define the same values, and the matching need not look at them (in a
/// large function with a small edit, that is nearly everything). Returns
/// the names they define.
fn without_identical_lines(
    o: &FuncKeys,
    n: &FuncKeys,
    old_block: &HashMap<&str, usize>,
) -> (FuncText, FuncText, Vec<String>) {
    let mut drop_old: Vec<Vec<bool>> = o
        .blocks
        .iter()
        .map(|b| vec![false; b.insts.len()])
        .collect();
    let mut drop_new: Vec<Vec<bool>> = n
        .blocks
        .iter()
        .map(|b| vec![false; b.insts.len()])
        .collect();
    let mut same = Vec::new();
    for (nb, block) in n.blocks.iter().enumerate() {
        let Some(&ob) = old_block.get(block.label.as_str()) else {
            continue;
        };
        let old_lines = &o.blocks[ob].insts;
        for (i, j) in diff::common(old_lines, &block.insts) {
            if i + 1 == old_lines.len() || j + 1 == block.insts.len() {
                continue; // terminators carry the CFG
            }
            drop_old[ob][i] = true;
            drop_new[nb][j] = true;
            if let Some(d) = def_name(&block.insts[j]) {
                same.push(d.to_string());
            }
        }
    }
    let keep = |f: &FuncKeys, drop: &[Vec<bool>]| FuncText {
        name: f.name.clone(),
        header: f.header.clone(),
        blocks: f
            .blocks
            .iter()
            .zip(drop)
            .map(|(b, d)| BlockText {
                label: b.label.clone(),
                lines: b
                    .insts
                    .iter()
                    .zip(d)
                    .filter(|(_, &gone)| !gone)
                    .map(|(l, _)| l.clone())
                    .collect(),
            })
            .collect(),
    };
    (keep(o, &drop_old), keep(n, &drop_new), same)
}

/// Values the matching left open (it does not trust names that differ only
/// in a `.N` suffix, `%ld.e85a` / `%ld.e85a.1`, as they follow canonical
/// order) but whose lines are identical and aligned in a matched block
/// pair: those are the same values.
fn anchor_identical_lines(
    o: &FuncKeys,
    n: &FuncKeys,
    old_block: &HashMap<&str, usize>,
    m: &mut crate::merge::matching::Matching,
) {
    let mut image: HashSet<String> = m.values.values().cloned().collect();
    for block in &n.blocks {
        let Some(&ob) = m
            .blocks
            .get(&block.label)
            .and_then(|l| old_block.get(l.as_str()))
        else {
            continue;
        };
        let old_lines = &o.blocks[ob].insts;
        for (i, j) in diff::common(old_lines, &block.insts) {
            let (Some(a), Some(b)) = (def_name(&block.insts[j]), def_name(&old_lines[i])) else {
                continue;
            };
            if !m.values.contains_key(a) && !image.contains(b) {
                m.values.insert(a.to_string(), b.to_string());
                image.insert(b.to_string());
            }
        }
    }
}

/// Pairs the lines of one gap of a block diff: a new line defining the
/// value an old line defined (in old names, after translation) pairs with
/// it; unnamed lines pair with the next unnamed old line of the same
/// opcode. Returns which old and which new lines are paired (changed).
fn pair_gap(old: &[String], new: &[String]) -> (Vec<bool>, Vec<bool>) {
    let mut co = vec![false; old.len()];
    let mut cn = vec![false; new.len()];
    let old_defs: HashMap<&str, usize> = old
        .iter()
        .enumerate()
        .filter_map(|(i, l)| def_name(l).map(|n| (n, i)))
        .collect();
    for (j, l) in new.iter().enumerate() {
        if let Some(&i) = def_name(l).and_then(|x| old_defs.get(x)) {
            if !co[i] {
                co[i] = true;
                cn[j] = true;
            }
        }
    }
    let mut next = 0;
    for (j, l) in new.iter().enumerate() {
        if cn[j] || def_name(l).is_some() {
            continue;
        }
        if let Some(i) = (next..old.len())
            .find(|&i| !co[i] && def_name(&old[i]).is_none() && opcode(&old[i]) == opcode(l))
        {
            co[i] = true;
            cn[j] = true;
            next = i + 1;
        }
    }
    (co, cn)
}
