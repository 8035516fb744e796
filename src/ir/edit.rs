//! Small semantic edits on a module, for the mutation generator
//! (`irgit_testkit::mutate`) and tests: integer constants of a given type, building a
//! binary instruction before another one, replacing an instruction's opcode.
//!
//! ```text
//! before                          after replace_binop(%s, "sub")
//! %s = add nsw i32 %a, %b         %0 = sub i32 %a, %b      ; flags dropped
//! %t = mul i32 %s, 3              %t = mul i32 %0, 3       ; every use follows
//! ```
//!
//! Everything here is a thin wrapper over the LLVM C API; the callers decide
//! *which* edit to make and keep the module verifying.

use llvm_sys::core::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

use super::{Inst, Val};

/// The scalar integer width of a value's type (`i1`, `i32`...), or `None`
/// for any other type (vectors, floats, pointers...).
pub fn int_width(v: Val) -> Option<u32> {
    unsafe {
        let ty = LLVMTypeOf(v.raw);
        (LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMIntegerTypeKind).then(|| LLVMGetIntTypeWidth(ty))
    }
}

/// Whether two values have the same LLVM type (types are uniqued per context).
pub fn same_type(a: Val, b: Val) -> bool {
    unsafe { LLVMTypeOf(a.raw) == LLVMTypeOf(b.raw) }
}

/// The integer constant `value` (sign-extended / truncated to the width) of
/// the same scalar integer type as `like`. `None` if `like` is not an integer.
pub fn const_int_like(like: Val, value: i64) -> Option<Val> {
    int_width(like)?;
    Some(Val::wrap(unsafe {
        LLVMConstInt(LLVMTypeOf(like.raw), value as u64, 1)
    }))
}

/// The opcode of a binary operator from its textual name (`add`, `fmul`...).
pub fn binop_from_name(name: &str) -> Option<LLVMOpcode> {
    use LLVMOpcode::*;
    Some(match name {
        "add" => LLVMAdd,
        "sub" => LLVMSub,
        "mul" => LLVMMul,
        "udiv" => LLVMUDiv,
        "sdiv" => LLVMSDiv,
        "urem" => LLVMURem,
        "srem" => LLVMSRem,
        "shl" => LLVMShl,
        "lshr" => LLVMLShr,
        "ashr" => LLVMAShr,
        "and" => LLVMAnd,
        "or" => LLVMOr,
        "xor" => LLVMXor,
        "fadd" => LLVMFAdd,
        "fsub" => LLVMFSub,
        "fmul" => LLVMFMul,
        "fdiv" => LLVMFDiv,
        "frem" => LLVMFRem,
        _ => return None,
    })
}

/// Whether the instruction is a two-operand binary operator.
pub fn is_binop(i: Inst) -> bool {
    binop_from_name(i.opcode_name()).is_some()
}

/// Builds `op lhs, rhs` (no flags) right before `before` and returns it.
/// `lhs` and `rhs` must have the same type, valid for `op`.
pub fn build_binop_before(before: Inst, op: LLVMOpcode, lhs: Val, rhs: Val) -> Inst {
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(lhs.raw));
        let b = LLVMCreateBuilderInContext(ctx);
        LLVMPositionBuilderBefore(b, before.0.raw);
        let v = LLVMBuildBinOp(b, op, lhs.raw, rhs.raw, c"".as_ptr());
        LLVMDisposeBuilder(b);
        Inst(Val::wrap(v))
    }
}

/// Replaces a binary operator by the same operation with opcode `op` (same
/// operands, no `nsw`/`nuw`/`exact`/`disjoint`/fast-math flags): the new
/// instruction takes the old one's place, name and uses; the old one is
/// erased. Returns the new instruction.
pub fn replace_binop(old: Inst, op: LLVMOpcode) -> Inst {
    let name = old.0.name();
    let new = build_binop_before(old, op, old.operand(0), old.operand(1));
    old.0.replace_all_uses_with(new.0);
    old.erase();
    new.0.set_name(&name);
    new
}
