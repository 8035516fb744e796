//! Names for the unnamed values of a test as written (the view of a file
//! with a `RUN:` line, [`super::view`]).
//!
//! ```text
//! test as written                      view
//!   %1 = alloca i32                      %var.3c0e = alloca i32
//!   %2 = alloca i32                      %var.81d4 = alloca i32
//!   store i32 %x, ptr %1                 store i32 %x, ptr %var.3c0e
//!   %3 = load i32, ptr %2                %ld.91d2 = load i32, ptr %var.81d4
//!   %sum = add i32 %3, 1                 %sum = add i32 %ld.91d2, 1
//! ```
//!
//! A test keeps its order and its names, so what separates equal values
//! can be local and positional. A value's hash is its base hash by the
//! view's rules ([`super::signature::BaseRules::View`]: opcode, types (a
//! named struct by its name), what kinds its operands are; a constant by
//! its type only; never a flag or an alignment, and never a name, so a
//! rename is a change of text only) with the hashes of its instruction operands absorbed
//! [`DEPTH`] times: an edit renames values at most that far down its uses.
//! Outputs and calls (allocas, stores, calls of any kind) that look
//! alike, operands included, are told apart by their rank among their
//! twins, which only inserting or deleting such a twin above them changes;
//! the first keeps its hash. What is still equal after that
//! is given `.1`, `.2`, ... by position ([`super::naming`]). Unnamed blocks
//! are named by their place in the control-flow graph
//! ([`super::blocks::layout`]).
//!
//! So changing a constant renames nothing, deleting a store renames
//! nothing, and an inserted unnamed instruction is one new line.

use rustc_hash::FxHashMap as HashMap;

use super::blocks::Layout;
use super::signature::{base_hashes, feed_operands, BaseHashes, BaseRules, GlobalKeys, Signatures};
use crate::hash::StableHasher;
use crate::ir::Func;

/// How many levels of operands an unnamed value's hash sees.
const DEPTH: usize = 2;

/// The hashes the view of a test names `func`'s unnamed values by.
pub(crate) fn signatures(func: Func, layout: &Layout, globals: &GlobalKeys) -> Signatures {
    let blocks = func.blocks();
    let based = base_hashes(func, &blocks, layout, globals, BaseRules::View);
    let looks = absorbed(&based, &based.base);
    let own = twins_ranked(&based, &looks);
    let full = absorbed(&based, &own);
    Signatures::from_base(based, full)
}

/// Each value's `own` hash with the hashes of its instruction operands
/// absorbed [`DEPTH`] times.
fn absorbed(based: &BaseHashes, own: &[u64]) -> Vec<u64> {
    let mut full = own.to_vec();
    let mut ops: Vec<u64> = Vec::new();
    for _ in 0..DEPTH {
        let mut next = full.clone();
        for (i, slot) in next.iter_mut().enumerate() {
            let operands = based.operands.of(i);
            if !operands.iter().any(|o| o.is_ok()) {
                continue;
            }
            ops.clear();
            ops.extend(operands.iter().map(|o| o.map_or(0, |j| full[j])));
            let absorbed = feed_operands(
                StableHasher::new(),
                based.opcodes[i],
                based.predicates[i],
                &mut ops,
            );
            *slot = absorbed.u64(own[i]).str("down").finish();
        }
        full = next;
    }
    full
}

/// The base hashes, with every output or call after the first of its
/// twins (equal `looks`: what it computes from what) given its rank among
/// them. A call counts whatever its callee's attributes say (a declaration
/// gaining `willreturn` makes a `readonly` call no output), and a value
/// with no twin keeps its base hash, so neither a callee's attributes nor
/// a `volatile` renames anything.
fn twins_ranked(based: &BaseHashes, looks: &[u64]) -> Vec<u64> {
    use llvm_sys::LLVMOpcode::{LLVMCall, LLVMCallBr, LLVMInvoke};
    let mut own = based.base.clone();
    let mut rank: HashMap<u64, u64> = HashMap::default();
    for (i, inst) in based.insts.iter().enumerate() {
        let call = matches!(based.opcodes[i], LLVMCall | LLVMInvoke | LLVMCallBr);
        if !call && !super::instructions::is_output(*inst) {
            continue;
        }
        let twins_above = rank.entry(looks[i]).or_insert(0);
        if *twins_above > 0 {
            own[i] = StableHasher::new()
                .u64(own[i])
                .str("anchor")
                .u64(*twins_above)
                .finish();
        }
        *twins_above += 1;
    }
    own
}
