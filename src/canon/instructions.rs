//! What canonicalization needs to know of single instructions, shared by
//! the stages that order, hash and name them (`order`, `signature`,
//! `variables`, `written`): which instructions are outputs (their order is
//! fixed), which operations commute, and the flattened operand and user
//! lists of a function ([`OperandTable`]: the operands as they stand once
//! ordered, read from LLVM once for the stages after that).
//!
//! ```text
//! store i32 %v, ptr %p        is_output: yes (writes memory)
//! %s = add i32 %a, %b         is_commutative_binop: yes; is_output: no
//! %c = icmp sgt i32 %a, %b    is_compare: yes
//! ```

use llvm_sys::LLVMOpcode;

use crate::ir::{Inst, Val};

/// Intrinsics whose place carries meaning although LLVM may consider them
/// free of side effects (`memory(none)`, `nounwind`, `willreturn`), each
/// with the reason. A call to one of them is an output.
pub(crate) const PINNED_INTRINSICS: &[(&str, &str)] = &[
    (
        "llvm.experimental.convergence.",
        "Verifier (ConvergenceVerifier): `entry` and `loop` may not be preceded \
         by a convergent operation in their block, and token regions must nest \
         in program order",
    ),
    (
        "llvm.coro.",
        "Coroutines: CoroEarly/CoroSplit read the positions of the coroutine \
         intrinsics (id, frame, size, save, suspend, end...) as the coroutine's structure",
    ),
    (
        "llvm.experimental.gc.",
        "Statepoints: gc.result and gc.relocate are tied to their statepoint",
    ),
    (
        "llvm.threadlocal.address",
        "LangRef: a thread-local address may differ across a coroutine suspend point",
    ),
    (
        "llvm.stacksave",
        "LangRef: stack save/restore bracket dynamic (inalloca) allocas",
    ),
    (
        "llvm.stackrestore",
        "LangRef: stack save/restore bracket dynamic (inalloca) allocas",
    ),
    (
        "llvm.call.preallocated.",
        "LangRef: setup, arg and teardown bracket a preallocated call",
    ),
];

/// A call whose position carries meaning beyond its memory effects: a
/// convergent call (convergence tokens nest in program order; the entry
/// intrinsic may not follow a convergent operation) or a
/// [`PINNED_INTRINSICS`] one.
fn is_pinned_call(inst: Inst) -> bool {
    use LLVMOpcode::*;
    if !matches!(inst.opcode(), LLVMCall | LLVMInvoke | LLVMCallBr) {
        return false;
    }
    inst.is_convergent()
        || inst.callee_name().is_some_and(|n| {
            PINNED_INTRINSICS
                .iter()
                .any(|(prefix, _)| n.starts_with(prefix))
        })
}

/// An instruction whose relative order among outputs is fixed: side
/// effects or memory writes, volatile or atomic accesses, allocas, EH pads,
/// `va_arg`, terminators, and the pinned calls.
pub fn is_output(inst: Inst) -> bool {
    use LLVMOpcode::*;
    inst.is_terminator()
        || inst.is_volatile_or_atomic()
        || inst.may_have_side_effects()
        || matches!(
            inst.opcode(),
            LLVMAlloca | LLVMLandingPad | LLVMCatchPad | LLVMCleanupPad | LLVMVAArg | LLVMCallBr
        )
        || is_pinned_call(inst)
}

/// Binary operators whose operands commute (as LLVM's `isCommutative`).
pub(crate) fn is_commutative_binop(op: LLVMOpcode) -> bool {
    use LLVMOpcode::*;
    matches!(
        op,
        LLVMAdd | LLVMMul | LLVMAnd | LLVMOr | LLVMXor | LLVMFAdd | LLVMFMul
    )
}

/// Integer and floating-point compares.
pub(crate) fn is_compare(op: LLVMOpcode) -> bool {
    matches!(op, LLVMOpcode::LLVMICmp | LLVMOpcode::LLVMFCmp)
}

/// Every instruction's operands, flattened: `Ok(instruction index)` or
/// `Err(leaf hash)`, one slice per instruction.
pub(super) struct OperandLists {
    pub(super) flat: Vec<Result<usize, u64>>,
    pub(super) start: Vec<usize>,
}

impl OperandLists {
    pub(super) fn of(&self, i: usize) -> &[Result<usize, u64>] {
        &self.flat[self.start[i]..self.start[i + 1]]
    }
}

/// For each instruction, its users as (user index, operand position); the
/// position is `u32::MAX` where operand order carries no meaning (commutative
/// operations, compares, PHIs). Flattened, one slice per instruction.
pub(super) struct Users {
    pub(super) flat: Vec<(usize, u32)>,
    pub(super) start: Vec<usize>,
}

impl Users {
    pub(super) fn of(&self, i: usize) -> &[(usize, u32)] {
        &self.flat[self.start[i]..self.start[i + 1]]
    }
}

pub(super) fn users_of(opcodes: &[LLVMOpcode], operands: &OperandLists) -> Users {
    let used = |u: usize| operands.of(u).iter().filter_map(|o| o.ok());
    let mut start = vec![0usize; opcodes.len() + 1];
    for u in 0..opcodes.len() {
        for j in used(u) {
            start[j + 1] += 1;
        }
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut next = start.clone();
    let mut flat = vec![(0, 0); start[opcodes.len()]];
    for (u, &op) in opcodes.iter().enumerate() {
        let unordered = is_commutative_binop(op) || is_compare(op) || op == LLVMOpcode::LLVMPHI;
        for (k, o) in operands.of(u).iter().enumerate() {
            if let Ok(j) = *o {
                flat[next[j]] = (u, if unordered { u32::MAX } else { k as u32 });
                next[j] += 1;
            }
        }
    }
    Users { flat, start }
}

/// Marks an operand that is not an instruction of the function.
pub(super) const NOT_LOCAL: u32 = u32::MAX;

/// Every instruction's operands, read from LLVM once, while the base
/// hashes are computed ([`super::signature`]), and kept as they stand when
/// [`super::operands`] and [`super::phis`] reorder them (the placement, the
/// ties of operand order, the roles and the local facts all walk them):
/// each operand's value and, for an instruction of the function, its index
/// in `sigs.insts` (so no later stage looks a value up by its address).
#[derive(Default)]
pub(crate) struct OperandTable {
    pub(super) values: Vec<Val>,
    /// Index of the operand's instruction, or [`NOT_LOCAL`].
    pub(super) local: Vec<u32>,
    /// Where each instruction's operands start (one more entry at the end).
    pub(super) start: Vec<u32>,
}

impl OperandTable {
    /// An empty table for about `count` instructions.
    pub(super) fn with_capacity(count: usize) -> Self {
        let mut table = OperandTable {
            values: Vec::with_capacity(count * 3),
            local: Vec::with_capacity(count * 3),
            start: Vec::with_capacity(count + 1),
        };
        table.start.push(0);
        table
    }

    /// Adds an operand of the instruction being read.
    pub(super) fn push(&mut self, v: Val, local: u32) {
        self.values.push(v);
        self.local.push(local);
    }

    /// Ends the operands of the instruction being read.
    pub(super) fn end_instruction(&mut self) {
        self.start.push(self.values.len() as u32);
    }

    /// Where the operands of instruction `k` are in `values` and `local`.
    pub(super) fn range(&self, k: usize) -> std::ops::Range<usize> {
        self.start[k] as usize..self.start[k + 1] as usize
    }

    /// The operands of instruction `k`: (value, index or [`NOT_LOCAL`]).
    pub(super) fn of(&self, k: usize) -> impl Iterator<Item = (Val, u32)> + '_ {
        let range = self.range(k);
        self.values[range.clone()]
            .iter()
            .copied()
            .zip(self.local[range].iter().copied())
    }

    /// Records that the operands of instruction `k` were put in the order
    /// `permutation` (new operand `i` is old operand `permutation[i]`).
    pub(super) fn permute(&mut self, k: usize, permutation: &[usize]) {
        let range = self.range(k);
        let values: Vec<Val> = permutation
            .iter()
            .map(|&i| self.values[range.start + i])
            .collect();
        let local: Vec<u32> = permutation
            .iter()
            .map(|&i| self.local[range.start + i])
            .collect();
        self.values[range.clone()].copy_from_slice(&values);
        self.local[range].copy_from_slice(&local);
    }

    /// Records that the first two operands of instruction `k` were swapped.
    pub(super) fn swap_first_two(&mut self, k: usize) {
        let at = self.start[k] as usize;
        self.values.swap(at, at + 1);
        self.local.swap(at, at + 1);
    }
}
