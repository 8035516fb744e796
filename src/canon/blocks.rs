//! Block order and block names, derived from the control-flow graph and the
//! blocks' fixed instructions only.
//!
//! ```text
//! before                         after
//! define void @f(i1 %c) {        define void @f(i1 %arg0) {
//!   br i1 %c, label %t, label %e entry:
//! e:                               br i1 %arg0, label %bb.7c1e, label %bb.02f9
//!   ret void                     bb.7c1e:
//! t:                               br label %bb.02f9
//!   br label %e                  bb.02f9:
//! }                                ret void
//! ```
//!
//! Reachable blocks come in reverse post-order of a depth-first walk from the
//! entry that takes successors in terminator order (so the first successor
//! of a branch comes before the second). Unreachable blocks follow, ordered
//! by a hash of their opcode sequence.
//!
//! Names are not positions: a block is `bb.` + a hash of its place in the
//! CFG (terminator and successor count, refined by its neighbours' places
//! where blocks collide). No block's contents enter, so a statement inserted
//! in or deleted from a block renames no block, and adding an `if` renames
//! the blocks around it, not every block after it. The entry block is
//! `entry`.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::own_names::Kept;
use crate::hash::StableHasher;
use crate::ir::{Block, Func};

/// The canonical block order of one function and each block's index in it.
pub(crate) struct Layout {
    pub order: Vec<Block>,
    pub index: HashMap<Block, usize>,
    /// Content-derived identity of each block (same indexing as `order`).
    pub keys: Vec<u64>,
    /// Canonical name of each block (same indexing as `order`).
    pub names: Vec<String>,
}

impl Layout {
    /// The canonical name of a block.
    pub(crate) fn name(&self, b: Block) -> &str {
        &self.names[self.index[&b]]
    }

    /// The content-derived identity of a block (stable when blocks are
    /// inserted or removed elsewhere).
    pub(crate) fn key(&self, b: Block) -> Option<u64> {
        self.index.get(&b).map(|&i| self.keys[i])
    }
}

/// Canonical block keys of any function, each function's layout computed
/// once: what a `blockaddress(@f, %bb)` constant stands for when `@f` has
/// not been canonicalized yet (its labels are still the input's). A block's
/// key comes from the CFG alone, so it is the same before and after its
/// function is canonicalized.
#[derive(Default)]
pub(crate) struct BlockKeyCache(std::cell::RefCell<HashMap<Func, Layout>>);

impl BlockKeyCache {
    pub(crate) fn key(&self, f: Func, b: Block) -> Option<u64> {
        self.0
            .borrow_mut()
            .entry(f)
            .or_insert_with(|| canonical_order(f))
            .key(b)
    }
}

/// Computes the canonical block order without changing the function.
pub(crate) fn canonical_order(func: Func) -> Layout {
    layout(func, Kept::Nothing)
}

/// The block order and keys of `func` where its blocks' `kept` names stay:
/// a block that keeps its name is keyed by it (a test's labels, a file's
/// own names), the entry of a test by being the entry, any other block by
/// its place in the control-flow graph and its neighbours' keys (no
/// contents), so its name changes only with the graph around it.
pub(crate) fn layout(func: Func, kept: Kept) -> Layout {
    let blocks = func.blocks();
    let mut order = reverse_postorder(&blocks);
    let reached: HashSet<Block> = order.iter().copied().collect();
    let mut unreachable: Vec<(u64, usize, Block)> = blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| !reached.contains(b))
        .map(|(i, &b)| {
            let mut h = StableHasher::new();
            for inst in b.iter_instructions() {
                h = h.str(inst.opcode_name());
            }
            (h.finish(), i, b)
        })
        .collect();
    unreachable.sort();
    order.extend(unreachable.into_iter().map(|(_, _, b)| b));
    let index: HashMap<Block, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let keys = block_keys(&order, &index, kept);
    let names = block_names(&keys);
    Layout {
        order,
        index,
        keys,
        names,
    }
}

/// Rounds of refinement of colliding block keys by their CFG neighbours.
const BLOCK_ROUNDS: usize = 2;

/// A block's identity: its terminator's opcode and successor count; where
/// those collide, refined for a couple of rounds by the same of its
/// predecessors and successors. The block's contents never enter (its
/// outputs did up to form version 6: each inserted or deleted statement
/// renamed its block). What still collides is told apart by reverse
/// post-order rank within the collision.
fn block_keys(order: &[Block], index: &HashMap<Block, usize>, kept: Kept) -> Vec<u64> {
    let n = order.len();
    let mut keys: Vec<u64> = order
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if kept == Kept::Written && i == 0 {
                return StableHasher::new().str("entry").finish();
            }
            if kept != Kept::Nothing && i > 0 {
                let name = b.as_val().name();
                if kept.keeps(&name) {
                    return StableHasher::new().str("named").str(&name).finish();
                }
            }
            StableHasher::new()
                .str(if i == 0 { "entry" } else { "block" })
                .str(b.terminator().map_or("", |t| t.opcode_name()))
                .u64(b.successors().len() as u64)
                .finish()
        })
        .collect();
    let succs: Vec<Vec<usize>> = order
        .iter()
        .map(|b| {
            b.successors()
                .iter()
                .filter_map(|s| index.get(s).copied())
                .collect()
        })
        .collect();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s].push(i);
        }
    }
    for _ in 0..BLOCK_ROUNDS {
        let mut count: HashMap<u64, u32> = HashMap::default();
        for &k in &keys {
            *count.entry(k).or_insert(0) += 1;
        }
        if count.len() == n {
            break;
        }
        let next: Vec<u64> = (0..n)
            .map(|i| {
                if count[&keys[i]] == 1 {
                    return keys[i];
                }
                let mut p: Vec<u64> = preds[i].iter().map(|&j| keys[j]).collect();
                p.sort_unstable();
                let mut h = StableHasher::new().u64(keys[i]).str("cfg");
                for k in p {
                    h = h.u64(k);
                }
                h = h.str("succ");
                for &s in &succs[i] {
                    h = h.u64(keys[s]);
                }
                h.finish()
            })
            .collect();
        keys = next;
    }
    ranked(&keys)
}

/// Residual ties: rank in reverse post-order within the tie.
fn ranked(keys: &[u64]) -> Vec<u64> {
    let mut seen: HashMap<u64, u64> = HashMap::default();
    keys.iter()
        .map(|&k| {
            let r = seen.entry(k).or_insert(0);
            let key = if *r == 0 {
                k
            } else {
                StableHasher::new().u64(k).str("rank").u64(*r).finish()
            };
            *r += 1;
            key
        })
        .collect()
}

/// `entry` for the entry block, `bb.<4 hex>` for the others (8 or 16 hex
/// digits where the short forms clash).
fn block_names(keys: &[u64]) -> Vec<String> {
    let mut short: HashMap<u64, u32> = HashMap::default();
    let mut long: HashMap<u64, u32> = HashMap::default();
    for &k in keys.iter().skip(1) {
        *short.entry(k >> 48).or_insert(0) += 1;
        *long.entry(k >> 32).or_insert(0) += 1;
    }
    keys.iter()
        .enumerate()
        .map(|(i, &k)| {
            if i == 0 {
                "entry".to_string()
            } else if short[&(k >> 48)] == 1 {
                format!("bb.{:04x}", k >> 48)
            } else if long[&(k >> 32)] == 1 {
                format!("bb.{:08x}", k >> 32)
            } else {
                format!("bb.{k:016x}")
            }
        })
        .collect()
}

/// Reverse post-order of a DFS from the entry that visits successors
/// last-to-first, which places the first successor of a branch before the
/// others (a plain DFS would put the last successor's subtree first).
fn reverse_postorder(blocks: &[Block]) -> Vec<Block> {
    let Some(&entry) = blocks.first() else {
        return Vec::new();
    };
    let mut seen: HashSet<Block> =
        HashSet::with_capacity_and_hasher(blocks.len(), Default::default());
    let mut postorder = Vec::with_capacity(blocks.len());
    let mut stack: Vec<(Block, Vec<Block>, usize)> = Vec::new();
    seen.insert(entry);
    let mut succ = entry.successors();
    succ.reverse();
    stack.push((entry, succ, 0));
    while let Some((_, succs, next)) = stack.last_mut() {
        if *next < succs.len() {
            let s = succs[*next];
            *next += 1;
            if seen.insert(s) {
                let mut ss = s.successors();
                ss.reverse();
                stack.push((s, ss, 0));
            }
        } else {
            let (b, _, _) = stack.pop().expect("stack is not empty");
            postorder.push(b);
        }
    }
    postorder.reverse();
    postorder
}

/// Lays the blocks out in canonical order (the entry block stays first).
pub(crate) fn apply_order(layout: &Layout) {
    for pair in layout.order.windows(2) {
        pair[1].move_after(pair[0]);
    }
}

/// Gives every block its canonical name. The old names are cleared first
/// (a new name may still be held by another block); a block that already
/// has its canonical name (an input in canonical form) keeps it untouched:
/// no other block's new name can be that name. Blocks whose input names
/// are `kept` keep them; in a test ([`Kept::Written`]) an unnamed entry
/// stays unnamed.
pub(crate) fn apply_names(layout: &Layout, kept: Kept) {
    let renamed: Vec<(Block, &String)> = layout
        .order
        .iter()
        .copied()
        .zip(&layout.names)
        .enumerate()
        .filter(|(i, (b, _))| match kept {
            Kept::Nothing => true,
            Kept::Written => *i > 0 && b.as_val().name().is_empty(),
            Kept::Own => !kept.keeps(&b.as_val().name()),
        })
        .map(|(_, pair)| pair)
        .filter(|(b, name)| !b.as_val().has_name(name))
        .collect();
    for &(b, _) in &renamed {
        b.set_name("");
    }
    for (b, name) in renamed {
        b.set_name(name);
    }
}
