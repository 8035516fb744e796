//! PHI incoming pairs in canonical block order.
//!
//! ```text
//! before                                     after
//! %p = phi i32 [ %y, %bb3 ], [ 0, %bb1 ]     %p = phi i32 [ 0, %bb1 ], [ %y, %bb3 ]
//! ```

use super::blocks::Layout;

/// Sorts the incoming pairs of every PHI by the canonical index of
/// the incoming block. A block that appears twice (a switch with two edges to
/// one target) carries the same value both times, so ties cannot matter.
pub(crate) fn sort_incoming(layout: &Layout) {
    for b in &layout.order {
        for inst in b.iter_instructions() {
            if inst.opcode() != llvm_sys::LLVMOpcode::LLVMPHI {
                break; // PHIs lead the block
            }
            let pairs = inst.incoming();
            let mut sorted = pairs.clone();
            sorted.sort_by_key(|(_, blk)| layout.index.get(blk).copied().unwrap_or(usize::MAX));
            if sorted != pairs {
                for (i, (v, blk)) in sorted.iter().enumerate() {
                    inst.set_incoming(i as u32, *v, *blk);
                }
            }
        }
    }
}
