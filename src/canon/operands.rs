//! Canonical operand order for commutative instructions and compares.
//!
//! ```text
//! before                               after
//! %s = add i32 1, %x                   %s = add i32 %x, 1
//! %c = icmp sgt i32 %b, %a             %c = icmp slt i32 %a, %b     (if %a sorts first)
//! ```
//!
//! Operands sort by class (instructions and arguments, then globals, then
//! constants: LLVM's own habit of putting constants on the right), then by
//! their structural hash. Swapping a compare mirrors its predicate, so
//! `icmp sgt a, b` and `icmp slt b, a` print alike.

use super::instructions::{is_commutative_binop, is_compare, OperandTable, NOT_LOCAL};
use super::order::Positions;
use super::signature::{mirrored_predicate, Signatures};
use crate::ir::{Val, ValKind};

fn class(v: Val) -> u8 {
    match v.kind() {
        ValKind::Instruction | ValKind::Argument => 0,
        ValKind::Function
        | ValKind::GlobalVariable
        | ValKind::GlobalAlias
        | ValKind::GlobalIFunc => 1,
        _ => 2,
    }
}

/// The two operands of instruction `k` of a commutative operation or a
/// compare, with what they sort by (class, then base and refined hash),
/// and their indexes (or [`NOT_LOCAL`]); `None` for any other instruction.
fn sortable_pair(
    sigs: &Signatures,
    operands: &OperandTable,
    k: usize,
) -> Option<[(SortKey, u32); 2]> {
    let op = sigs.opcodes[k];
    let at = operands.range(k);
    if !(is_commutative_binop(op) || is_compare(op)) || at.len() != 2 {
        return None;
    }
    let key = |at: usize| {
        let (v, j) = (operands.values[at], operands.local[at]);
        let class = if j == NOT_LOCAL { class(v) } else { 0 };
        ((class, sigs.order_key_at(v, j)), j)
    };
    Some([key(at.start), key(at.start + 1)])
}

/// What an operand sorts by: its class, then its base and refined hash.
type SortKey = (u8, (u64, u64));

/// Swaps the two operands of instruction `k` (mirroring a compare's
/// predicate), in LLVM and in `operands`.
fn swap(sigs: &Signatures, operands: &mut OperandTable, k: usize) {
    let inst = sigs.insts[k];
    if is_compare(sigs.opcodes[k]) {
        inst.swap_cmp_operands();
    } else {
        let at = operands.range(k).start;
        inst.set_operand(0, operands.values[at + 1]);
        inst.set_operand(1, operands.values[at]);
    }
    operands.swap_first_two(k);
}

/// Puts the operands of every commutative instruction and compare
/// in canonical order; `operands` follows.
pub(crate) fn order(sigs: &Signatures, operands: &mut OperandTable) {
    for k in 0..sigs.insts.len() {
        let Some([(ka, _), (kb, _)]) = sortable_pair(sigs, operands, k) else {
            continue;
        };
        let tie_prefers_mirror = is_compare(sigs.opcodes[k])
            && ka == kb
            && sigs.insts[k]
                .predicate_name()
                .is_some_and(|p| mirrored_predicate(p) < p);
        if ka > kb || tie_prefers_mirror {
            swap(sigs, operands, k);
        }
    }
}

/// Second pass, once positions are final: operands that tie on the sort key
/// (structurally interchangeable, such as two loads of one pointer) go in
/// the order of their definitions, so the printed order does not depend on
/// the input's. `operands` follows.
pub(crate) fn order_ties_by_position(
    sigs: &Signatures,
    positions: &Positions,
    operands: &mut OperandTable,
) {
    for k in 0..sigs.insts.len() {
        let Some([(ka, ja), (kb, jb)]) = sortable_pair(sigs, operands, k) else {
            continue;
        };
        if ka != kb {
            continue;
        }
        let place = |j: u32| (j != NOT_LOCAL).then(|| positions.of(j as usize)).flatten();
        let (Some(pa), Some(pb)) = (place(ja), place(jb)) else {
            continue;
        };
        if pa > pb {
            swap(sigs, operands, k);
        }
    }
}
