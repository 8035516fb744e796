//! Block order and block names, derived from the control-flow graph only.
//!
//! ```text
//! before                         after
//! define void @f(i1 %c) {        define void @f(i1 %arg0) {
//!   br i1 %c, label %t, label %e bb0:
//! e:                               br i1 %arg0, label %bb1, label %bb2
//!   ret void                     bb1:
//! t:                               br label %bb2
//!   br label %e                  bb2:
//! }                                ret void
//! ```
//!
//! Reachable blocks come in reverse post-order of a depth-first walk from the
//! entry that takes successors in terminator order (so the first successor
//! of a branch comes before the second). Unreachable blocks follow, ordered
//! by a hash of their opcode sequence.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::hash::StableHasher;
use crate::ir::{Block, Func};

/// The canonical block order of one function and each block's index in it.
pub struct Layout {
    pub order: Vec<Block>,
    pub index: HashMap<Block, usize>,
}

impl Layout {
    /// The canonical name of a block: `bb` + its index.
    pub fn name(&self, b: Block) -> String {
        format!("bb{}", self.index[&b])
    }
}

/// Computes the canonical block order without changing the function.
pub fn canonical_order(func: Func) -> Layout {
    let blocks = func.blocks();
    let mut order = reverse_postorder(&blocks);
    let reached: HashSet<Block> = order.iter().copied().collect();
    let mut unreachable: Vec<(u64, usize, Block)> = blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| !reached.contains(b))
        .map(|(i, &b)| {
            let mut h = StableHasher::new();
            for inst in b.instructions() {
                h = h.str(inst.opcode_name());
            }
            (h.finish(), i, b)
        })
        .collect();
    unreachable.sort();
    order.extend(unreachable.into_iter().map(|(_, _, b)| b));
    let index = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    Layout { order, index }
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
pub fn apply_order(layout: &Layout) {
    for pair in layout.order.windows(2) {
        pair[1].move_after(pair[0]);
    }
}

/// Names every block `bbN` by its canonical index.
pub fn apply_names(layout: &Layout) {
    for &b in &layout.order {
        b.set_name("");
    }
    for &b in &layout.order {
        b.set_name(&layout.name(b));
    }
}
