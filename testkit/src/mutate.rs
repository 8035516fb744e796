//! Single semantic edits on a module: the "one-line change" whose canonical
//! diff must stay small (`docs/architecture.md`, *Properties*: locality), and
//! the raw material of merge tests (base O, O + edit 1, O + edit 2).
//!
//! ```text
//! before                        constant           opcode             insert                      delete
//! %s = add i32 %a, 5            add i32 %a, 6      sub i32 %a, 5      %n = add i32 %s, 1          (gone)
//! %t = mul i32 %s, %b           mul i32 %s, %b     mul i32 %s, %b     %t = mul i32 %n, %b         mul i32 %a, %b
//! ```
//!
//! An [`Edit`] names its target by function name and instruction index in
//! the function's layout order, so the same edit can be re-applied to a fresh
//! parse of the same text. [`pick_edits`] draws edits at distinct
//! instructions; [`apply_all`] resolves every target before changing
//! anything, so indices refer to the original module. Every edit keeps the
//! module verifying.

use llvm_sys::LLVMOpcode;

use crate::perturb::Rng;
use irgit::ir::edit::{
    binop_from_name, build_binop_before, const_int_like, int_width, is_binop, replace_binop,
    same_type,
};
use irgit::ir::{Inst, IrModule, ValKind};

/// What an edit does to its target instruction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EditKind {
    /// Replace integer constant operand `operand` by `value` (same type).
    Constant { operand: u32, value: i64 },
    /// Replace a binary operator by the same operation with opcode `to`.
    Opcode { to: &'static str },
    /// Insert `%new = add <ty> %op, 1` right before the target, where `%op`
    /// is its operand `operand`, and make the target use `%new` there.
    Insert { operand: u32 },
    /// Replace every use of the target by its operand `operand` (same type),
    /// then erase the target.
    Delete { operand: u32 },
}

impl EditKind {
    pub fn label(&self) -> &'static str {
        match self {
            EditKind::Constant { .. } => "constant",
            EditKind::Opcode { .. } => "opcode",
            EditKind::Insert { .. } => "insert",
            EditKind::Delete { .. } => "delete",
        }
    }
}

/// One edit, addressed by function name and instruction index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edit {
    pub func: String,
    /// Index of the target among the function's instructions, blocks in
    /// layout order.
    pub index: usize,
    pub kind: EditKind,
    /// The target as printed before the edit (for messages).
    pub before: String,
}

impl std::fmt::Display for Edit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match &self.kind {
            EditKind::Constant { operand, value } => {
                format!("constant operand {operand} := {value}")
            }
            EditKind::Opcode { to } => format!("opcode := {to}"),
            EditKind::Insert { operand } => format!("insert `add _, 1` on operand {operand}"),
            EditKind::Delete { operand } => format!("delete, uses take operand {operand}"),
        };
        write!(
            f,
            "@{} instruction #{} `{}`: {what}",
            self.func,
            self.index,
            self.before.trim()
        )
    }
}

/// The opcode a binary operator becomes under an opcode edit.
fn swapped_opcode(name: &str) -> Option<&'static str> {
    Some(match name {
        "add" => "sub",
        "sub" => "add",
        "mul" => "add",
        "and" => "or",
        "or" => "and",
        "xor" => "or",
        "shl" => "lshr",
        "lshr" => "shl",
        "ashr" => "lshr",
        "sdiv" => "udiv",
        "udiv" => "sdiv",
        "srem" => "urem",
        "urem" => "srem",
        "fadd" => "fsub",
        "fsub" => "fadd",
        "fmul" => "fdiv",
        "fdiv" => "fmul",
        "frem" => "fdiv",
        _ => return None,
    })
}

/// Opcodes whose integer constant operands may take any value and still verify.
fn constant_editable(i: Inst) -> bool {
    use LLVMOpcode::*;
    is_binop(i)
        || matches!(
            i.opcode(),
            LLVMICmp | LLVMSelect | LLVMStore | LLVMPHI | LLVMRet | LLVMZExt | LLVMSExt | LLVMTrunc
        )
}

/// Pure opcodes that may be deleted by forwarding an operand.
fn deletable(i: Inst) -> bool {
    use LLVMOpcode::*;
    is_binop(i) || matches!(i.opcode(), LLVMSelect | LLVMFreeze)
}

/// Every edit the module admits, in a deterministic order.
pub fn candidates(m: &IrModule<'_>) -> Vec<Edit> {
    let mut out = Vec::new();
    for f in m.functions() {
        if f.is_declaration() {
            continue;
        }
        let fname = f.name();
        let insts: Vec<Inst> = f.blocks().iter().flat_map(|b| b.instructions()).collect();
        for (index, &inst) in insts.iter().enumerate() {
            let mut push = |kind: EditKind| {
                out.push(Edit {
                    func: fname.clone(),
                    index,
                    kind,
                    before: inst.val().print(),
                })
            };
            let is_phi = inst.opcode() == LLVMOpcode::LLVMPHI;
            if constant_editable(inst) {
                for (k, v) in inst.operands().into_iter().enumerate() {
                    if let (Some(c), Some(w)) = (v.const_int_sext(), int_width(v)) {
                        let value = if w == 1 {
                            (c == 0) as i64
                        } else {
                            c.wrapping_add(1)
                        };
                        push(EditKind::Constant {
                            operand: k as u32,
                            value,
                        });
                    }
                }
            }
            if is_binop(inst) {
                if let Some(to) = swapped_opcode(inst.opcode_name()) {
                    push(EditKind::Opcode { to });
                }
            }
            if !is_phi {
                for (k, v) in inst.operands().into_iter().enumerate() {
                    if v.kind() == ValKind::Instruction && int_width(v).is_some() {
                        push(EditKind::Insert { operand: k as u32 });
                    }
                }
            }
            if deletable(inst) && !inst.val().uses().is_empty() {
                let first = if inst.opcode() == LLVMOpcode::LLVMSelect {
                    1
                } else {
                    0
                };
                for (k, v) in inst.operands().into_iter().enumerate().skip(first) {
                    if v != inst.val() && same_type(v, inst.val()) {
                        push(EditKind::Delete { operand: k as u32 });
                    }
                }
            }
        }
    }
    out
}

/// Draws up to `n` edits at distinct instructions, cycling through the kinds
/// (constant, opcode, insert, delete) so each is represented.
pub fn pick_edits(m: &IrModule<'_>, seed: u64, n: usize) -> Vec<Edit> {
    let all = candidates(m);
    let mut rng = Rng::new(seed);
    let labels = ["constant", "opcode", "insert", "delete"];
    let start = rng.below(labels.len());
    let mut chosen: Vec<Edit> = Vec::new();
    for attempt in 0..n * 8 {
        if chosen.len() == n {
            break;
        }
        let label = labels[(start + attempt) % labels.len()];
        let pool: Vec<&Edit> = all
            .iter()
            .filter(|e| e.kind.label() == label)
            .filter(|e| {
                !chosen
                    .iter()
                    .any(|c| c.func == e.func && c.index == e.index)
            })
            .collect();
        if pool.is_empty() {
            continue;
        }
        chosen.push(pool[rng.below(pool.len())].clone());
    }
    chosen
}

/// One edit of the given kind label (`constant`, `opcode`, `insert`,
/// `delete`), drawn by seed; `None` if the module admits none.
pub fn pick_kind(m: &IrModule<'_>, seed: u64, label: &str) -> Option<Edit> {
    let pool: Vec<Edit> = candidates(m)
        .into_iter()
        .filter(|e| e.kind.label() == label)
        .collect();
    (!pool.is_empty()).then(|| pool[Rng::new(seed).below(pool.len())].clone())
}

/// Why an edit could not be applied.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EditError {
    #[error("edit {0}: no such function or instruction in this module")]
    NoTarget(String),
    #[error("edit {0}: does not fit the instruction it names")]
    Mismatch(String),
    #[error("edit {edit}: the module no longer verifies: {message}")]
    Invalid { edit: String, message: String },
}

/// Applies one edit and verifies the module.
pub fn apply(m: &IrModule<'_>, e: &Edit) -> Result<(), EditError> {
    apply_all(m, std::slice::from_ref(e))
}

/// Applies several edits (at distinct instructions, indices relative to the
/// module as it is now), then verifies the module.
pub fn apply_all(m: &IrModule<'_>, edits: &[Edit]) -> Result<(), EditError> {
    let mut targets = Vec::with_capacity(edits.len());
    for e in edits {
        let f = m
            .function(&e.func)
            .ok_or_else(|| EditError::NoTarget(e.to_string()))?;
        let inst = f
            .blocks()
            .iter()
            .flat_map(|b| b.instructions())
            .nth(e.index)
            .ok_or_else(|| EditError::NoTarget(e.to_string()))?;
        targets.push(inst);
    }
    for (e, &inst) in edits.iter().zip(&targets) {
        apply_to(inst, e)?;
    }
    m.verify().map_err(|err| EditError::Invalid {
        edit: edits
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("; "),
        message: err.to_string(),
    })
}

fn apply_to(inst: Inst, e: &Edit) -> Result<(), EditError> {
    let mismatch = || EditError::Mismatch(e.to_string());
    let operand = |k: u32| {
        (k < inst.num_operands())
            .then(|| inst.operand(k))
            .ok_or_else(mismatch)
    };
    match &e.kind {
        EditKind::Constant { operand: k, value } => {
            let old = operand(*k)?;
            old.const_int_sext().ok_or_else(mismatch)?;
            let new = const_int_like(old, *value).ok_or_else(mismatch)?;
            inst.set_operand(*k, new);
        }
        EditKind::Opcode { to } => {
            let op = binop_from_name(to).ok_or_else(mismatch)?;
            if !is_binop(inst) || inst.opcode_name().starts_with('f') != to.starts_with('f') {
                return Err(mismatch());
            }
            replace_binop(inst, op);
        }
        EditKind::Insert { operand: k } => {
            let v = operand(*k)?;
            let one = const_int_like(v, 1).ok_or_else(mismatch)?;
            if inst.opcode() == LLVMOpcode::LLVMPHI {
                return Err(mismatch());
            }
            let new = build_binop_before(inst, LLVMOpcode::LLVMAdd, v, one);
            inst.set_operand(*k, new.val());
        }
        EditKind::Delete { operand: k } => {
            let v = operand(*k)?;
            if !deletable(inst) || v == inst.val() || !same_type(v, inst.val()) {
                return Err(mismatch());
            }
            inst.val().replace_all_uses_with(v);
            inst.erase();
        }
    }
    Ok(())
}
