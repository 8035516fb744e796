//! PHI incoming pairs in canonical block order.
//!
//! ```text
//! before                                     after
//! %p = phi i32 [ %y, %bb3 ], [ 0, %bb1 ]     %p = phi i32 [ 0, %bb1 ], [ %y, %bb3 ]
//! ```

use super::blocks::Layout;
use super::instructions::OperandTable;
use super::signature::Signatures;

/// Sorts the incoming pairs of every PHI by the canonical index of
/// the incoming block. A block that appears twice (a switch with two edges to
/// one target) carries the same value both times, so ties cannot matter.
/// `operands` follows.
pub(crate) fn sort_incoming(layout: &Layout, sigs: &Signatures, operands: &mut OperandTable) {
    for b in &layout.order {
        for inst in b.iter_instructions() {
            if inst.opcode() != llvm_sys::LLVMOpcode::LLVMPHI {
                break; // PHIs lead the block
            }
            let pairs = inst.incoming();
            let mut permutation: Vec<usize> = (0..pairs.len()).collect();
            permutation
                .sort_by_key(|&i| layout.index.get(&pairs[i].1).copied().unwrap_or(usize::MAX));
            let sorted: Vec<_> = permutation.iter().map(|&i| pairs[i]).collect();
            if sorted != pairs {
                for (i, (v, blk)) in sorted.iter().enumerate() {
                    inst.set_incoming(i as u32, *v, *blk);
                }
                operands.permute(sigs.index[&inst.val()], &permutation);
            }
        }
    }
}
