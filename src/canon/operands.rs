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

/// Puts the operands of every commutative instruction and compare
/// in canonical order.
pub(crate) fn order(sigs: &Signatures) {
    for (&inst, &op) in sigs.insts.iter().zip(&sigs.opcodes) {
        let commutes = is_commutative_binop(op);
        let compare = is_compare(op);
        if !(commutes || compare) || inst.num_operands() != 2 {
            continue;
        }
        let (a, b) = (inst.operand(0), inst.operand(1));
        let ka = (class(a), sigs.order_key(a));
        let kb = (class(b), sigs.order_key(b));
        let tie_prefers_mirror = compare
            && ka == kb
            && inst
                .predicate_name()
                .is_some_and(|p| mirrored_predicate(p) < p);
        if ka > kb || tie_prefers_mirror {
            if compare {
                inst.swap_cmp_operands();
            } else {
                inst.set_operand(0, b);
                inst.set_operand(1, a);
            }
        }
    }
}

/// Second pass, once positions are final: operands that tie on the sort key
/// (structurally interchangeable, such as two loads of one pointer) go in
/// the order of their definitions, so the printed order does not depend on
/// the input's. `operands` (as ordered so far) follows the swaps.
pub(crate) fn order_ties_by_position(
    sigs: &Signatures,
    positions: &Positions,
    operands: &mut OperandTable,
) {
    for (k, (&inst, &op)) in sigs.insts.iter().zip(&sigs.opcodes).enumerate() {
        let compare = is_compare(op);
        if !(is_commutative_binop(op) || compare) || operands.range(k).len() != 2 {
            continue;
        }
        let at = operands.range(k).start;
        let (a, ja) = (operands.values[at], operands.local[at]);
        let (b, jb) = (operands.values[at + 1], operands.local[at + 1]);
        let class_at = |v: Val, j: u32| if j == NOT_LOCAL { class(v) } else { 0 };
        if (class_at(a, ja), sigs.order_key_at(a, ja))
            != (class_at(b, jb), sigs.order_key_at(b, jb))
        {
            continue;
        }
        let place = |j: u32| (j != NOT_LOCAL).then(|| positions.of(j as usize)).flatten();
        let (Some(pa), Some(pb)) = (place(ja), place(jb)) else {
            continue;
        };
        if pa > pb {
            if compare {
                inst.swap_cmp_operands();
            } else {
                inst.set_operand(0, b);
                inst.set_operand(1, a);
            }
            operands.swap_first_two(k);
        }
    }
}
