//! What changed inside one function: blocks and values of the new version
//! are matched to the old one ([`crate::compare::matching`], the merge's
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

use super::side::{instruction_body, FuncKeys};

use crate::text::opcode;

use crate::compare::diff;
use crate::compare::matching::{match_function, Matching};
use crate::compare::model::{BlockText, FuncText};
use crate::text::{def_name, rewrite, Ref};

/// The edit of one function, counted.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct FuncDiff {
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
    pub(crate) fn is_change(&self) -> bool {
        self.header_changed
            || self.added + self.removed + self.changed + self.blocks_added + self.blocks_removed
                > 0
    }

    /// Instructions kept as they were.
    pub(crate) fn unchanged(&self) -> usize {
        self.insts_old - self.removed - self.changed
    }

    /// Shared instructions over the mean size, in `[0, 1]` (1: identical
    /// bodies; the `define` lines are not counted).
    pub(crate) fn similarity(&self) -> f64 {
        let total = self.insts_old + self.insts_new;
        if total == 0 {
            return 1.0;
        }
        2.0 * self.unchanged() as f64 / total as f64
    }

    /// The whole function added.
    pub(crate) fn added_function(n: &FuncKeys) -> FuncDiff {
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
    pub(crate) fn removed_function(o: &FuncKeys) -> FuncDiff {
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
    pub(crate) fn unchanged_function(f: &FuncKeys) -> FuncDiff {
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
pub(crate) fn compare(o: &FuncKeys, n: &FuncKeys) -> FuncDiff {
    if o.same_as(n) {
        return FuncDiff::unchanged_function(o);
    }
    let old_block = block_index(o);
    let m = matching(o, n, &old_block);
    let new_locals = n.locals();
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

/// Which value and which block of `n` is which of `o`: the merge's
/// matching, helped by the lines both have identical and aligned.
fn matching(o: &FuncKeys, n: &FuncKeys, old_block: &HashMap<&str, usize>) -> Matching {
    let (fo, fnew, same) = without_identical_lines(o, n, old_block);
    let mut m = match_function(&fo, &fnew);
    let mut image: HashSet<String> = m.values.values().cloned().collect();
    for d in same {
        if !m.values.contains_key(&d) && image.insert(d.clone()) {
            m.values.insert(d.clone(), d);
        }
    }
    anchor_identical_lines(o, n, old_block, &mut m);
    align_shapes(o, n, old_block, &mut m);
    m
}

/// How `-p` writes the locals of `n` (values, arguments, blocks): in `o`'s
/// names where the matching pairs them; a local the matching leaves
/// unpaired keeps its own name unless `o` gives that name to another value,
/// then it reads `<name>.new`.
///
/// ```text
/// o: %var.3747 = alloca i32   (s)          n: %var.3747 = alloca i32   (retval, new)
///                                             %var.86b5 = alloca i32   (s)
/// names: var.86b5 -> var.3747, var.3747 -> var.3747.new
/// ```
pub(crate) fn names_in_old(o: &FuncKeys, n: &FuncKeys) -> HashMap<String, String> {
    let old_block = block_index(o);
    let m = matching(o, n, &old_block);
    let mut pairs: HashMap<String, String> = m.values.into_iter().chain(m.blocks).collect();
    prefer_equal_names(o, n, &mut pairs);
    repair_slots(o, n, &mut pairs);
    completed(n, pairs)
}

/// Most re-pairings of stack slots [`repair_slots`] tries.
const MAX_SLOT_TRIALS: usize = 256;

/// Stack slots (`alloca`s, the variables of -O0 code) look all alike, and
/// their canonical names can move from one variable to another when a
/// variable is added: each new slot is tried with each old slot of the same
/// line (the slot it had, if any, going to the one it leaves), and kept
/// where more lines of the two functions become equal.
fn repair_slots(o: &FuncKeys, n: &FuncKeys, pairs: &mut HashMap<String, String>) {
    let slots = |f: &FuncKeys| -> Vec<(String, String)> {
        f.blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter(|l| opcode(l) == "alloca")
            .filter_map(|l| def_name(l).map(|d| (d.to_string(), instruction_body(l).to_string())))
            .collect()
    };
    let (old_slots, new_slots) = (slots(o), slots(n));
    if old_slots.len() < 2 || old_slots.len() * new_slots.len() > MAX_SLOT_TRIALS {
        return;
    }
    let old_lines = line_counts(o);
    let mut best = equal_lines(&old_lines, n, pairs);
    for (x, x_line) in &new_slots {
        for (z, z_line) in &old_slots {
            if x_line != z_line || pairs.get(x) == Some(z) {
                continue;
            }
            let mut trial = pairs.clone();
            let was = trial.insert(x.clone(), z.clone());
            let holder = pairs
                .iter()
                .find(|(k, v)| *v == z && *k != x)
                .map(|(k, _)| k.clone());
            if let Some(h) = holder {
                match was {
                    Some(w) => trial.insert(h, w),
                    None => trial.remove(&h),
                };
            }
            let score = equal_lines(&old_lines, n, &trial);
            if score > best {
                *pairs = trial;
                best = score;
            }
        }
    }
}

/// A function's block labels -> their index.
pub(crate) fn block_index(f: &FuncKeys) -> HashMap<&str, usize> {
    f.blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label.as_str(), i))
        .collect()
}

/// The lines of each block pair the matching made: (old block's, new block's).
fn block_pairs<'f>(
    o: &'f FuncKeys,
    n: &'f FuncKeys,
    old_block: &HashMap<&str, usize>,
    m: &Matching,
) -> Vec<(&'f [String], &'f [String])> {
    n.blocks
        .iter()
        .filter_map(|b| {
            let ob = *old_block.get(m.blocks.get(&b.label)?.as_str())?;
            Some((o.blocks[ob].insts.as_slice(), b.insts.as_slice()))
        })
        .collect()
}

/// Rounds of [`align_shapes`] at most (each pairing can make more lines equal).
const ALIGN_ROUNDS: usize = 4;

/// Values the matching left open on both sides whose lines stand at the
/// same place of a line diff of a paired block pair, with every open name
/// blanked (`%_ = load ptr, ptr %var.eea9`): the same values. A run of
/// look-alike lines (`%ld.2673`, `%ld.2673.1`, `%ld.2673.2`...) is where the
/// matching, which pairs only what it can tell apart, leaves them open.
fn align_shapes(o: &FuncKeys, n: &FuncKeys, old_block: &HashMap<&str, usize>, m: &mut Matching) {
    for _ in 0..ALIGN_ROUNDS {
        let image: HashSet<String> = m.values.values().cloned().collect();
        let blocks: HashSet<&String> = m.blocks.values().collect();
        let old_shape = |l: &str| {
            rewrite(l, |r| match r {
                Ref::Local(x) if !image.contains(x) && !blocks.contains(&x.to_string()) => {
                    Some("%_".to_string())
                }
                _ => None,
            })
        };
        let new_shape = |l: &str| {
            rewrite(l, |r| match r {
                Ref::Local(x) => Some(
                    m.values
                        .get(x)
                        .or_else(|| m.blocks.get(x))
                        .map_or("%_".to_string(), |y| format!("%{y}")),
                ),
                _ => None,
            })
        };
        let mut found: Vec<(String, String)> = Vec::new();
        for (old_lines, new_lines) in block_pairs(o, n, old_block, m) {
            let os: Vec<String> = old_lines.iter().map(|l| old_shape(l)).collect();
            let ns: Vec<String> = new_lines.iter().map(|l| new_shape(l)).collect();
            for (i, j) in diff::common(&os, &ns) {
                if let (Some(x), Some(y)) = (def_name(&new_lines[j]), def_name(&old_lines[i])) {
                    if !m.values.contains_key(x) && !image.contains(y) {
                        found.push((x.to_string(), y.to_string()));
                    }
                }
            }
        }
        if found.is_empty() {
            return;
        }
        m.values.extend(found);
    }
}

/// `pairs` with every other local of `n` under its own name, or
/// `<name>.new` where `pairs` gives that name to another local.
fn completed(n: &FuncKeys, mut pairs: HashMap<String, String>) -> HashMap<String, String> {
    let mut taken: HashSet<String> = pairs.values().cloned().collect();
    let mut open: Vec<String> = n
        .locals()
        .into_iter()
        .filter(|x| !pairs.contains_key(x))
        .collect();
    open.sort();
    for x in open {
        let mut name = x.clone();
        while taken.contains(&name) {
            name.push_str(".new");
        }
        taken.insert(name.clone());
        pairs.insert(x, name);
    }
    pairs
}

/// A function's lines (labels as `label:`), counted.
fn line_counts(f: &FuncKeys) -> HashMap<String, usize> {
    let mut out: HashMap<String, usize> = HashMap::default();
    for b in &f.blocks {
        *out.entry(format!("{}:", b.label)).or_default() += 1;
        for l in &b.insts {
            *out.entry(l.clone()).or_default() += 1;
        }
    }
    out
}

/// How many lines of `n`, written through `pairs`, are lines of the old
/// function (`old`, counted).
fn equal_lines(
    old: &HashMap<String, usize>,
    n: &FuncKeys,
    pairs: &HashMap<String, String>,
) -> usize {
    let names = completed(n, pairs.clone());
    let mut left = old.clone();
    let mut equal = 0;
    let mut take = |line: String| {
        if let Some(c) = left.get_mut(&line).filter(|c| **c > 0) {
            *c -= 1;
            equal += 1;
        }
    };
    for b in &n.blocks {
        take(format!("{}:", names.get(&b.label).unwrap_or(&b.label)));
        for l in &b.insts {
            take(rewrite(l, |r| match r {
                Ref::Local(x) => names.get(x).map(|y| format!("%{y}")),
                _ => None,
            }));
        }
    }
    equal
}

/// Most candidates [`prefer_equal_names`] tries (each costs a pass over
/// the function).
const MAX_NAME_TRIALS: usize = 64;

/// A name both functions have (canonical names come from content and
/// neighbours) that the matching pairs otherwise: paired with itself when
/// that makes more lines of the two functions equal. The matching pairs
/// blocks along the CFG from the entry, so a block inserted on an edge
/// takes the place of the block it pushed down, and so do its values.
fn prefer_equal_names(o: &FuncKeys, n: &FuncKeys, pairs: &mut HashMap<String, String>) {
    let old_names = o.locals();
    let mut candidates: Vec<String> = n
        .locals()
        .into_iter()
        .filter(|x| old_names.contains(x) && pairs.get(x) != Some(x))
        .collect();
    if candidates.is_empty() {
        return;
    }
    candidates.sort();
    let old_lines = line_counts(o);
    let mut best = equal_lines(&old_lines, n, pairs);
    for x in candidates.into_iter().take(MAX_NAME_TRIALS) {
        let mut trial = pairs.clone();
        trial.retain(|_, v| *v != x);
        trial.insert(x.clone(), x.clone());
        let score = equal_lines(&old_lines, n, &trial);
        if score > best {
            *pairs = trial;
            best = score;
        }
    }
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
    m: &mut crate::compare::matching::Matching,
) {
    let mut image: HashSet<String> = m.values.values().cloned().collect();
    for (old_lines, new_lines) in block_pairs(o, n, old_block, m) {
        for (i, j) in diff::common(old_lines, new_lines) {
            let (Some(a), Some(b)) = (def_name(&new_lines[j]), def_name(&old_lines[i])) else {
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
