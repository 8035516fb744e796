//! What the placement rules of the canonical order need to know about a
//! call: which function it calls directly (intrinsics are recognized by
//! their reserved `llvm.` names), whether it is convergent, and its
//! neighbours in the block; and the source variable an alloca holds.
//!
//! ```text
//! %t = call token @llvm.experimental.convergence.entry()    callee_name = "llvm.experimental.convergence.entry"
//! %r = call i32 @g(i32 %x) [ "convergencectrl"(token %t) ]  is_convergent (if @g is convergent)
//! %n.addr = alloca i32   #dbg_declare(ptr %n.addr, !7, ...)   declared_variable = "n arg 1"
//! ```

use llvm_sys::core::*;

use super::{Inst, Val};

extern "C" {
    fn irgit_is_convergent(i: llvm_sys::prelude::LLVMValueRef) -> i32;
    fn irgit_declared_variable(a: llvm_sys::prelude::LLVMValueRef) -> *mut std::os::raw::c_char;
}

impl Inst {
    /// For a call, invoke or callbr of a known function: that function's
    /// name (`llvm.coro.begin`, `printf`). `None` for indirect calls,
    /// inline asm and anything that is not a call.
    pub(crate) fn callee_name(self) -> Option<String> {
        use llvm_sys::LLVMOpcode::*;
        if !matches!(self.opcode(), LLVMCall | LLVMInvoke | LLVMCallBr) {
            return None;
        }
        let callee = unsafe { LLVMGetCalledValue(self.0.raw) };
        if callee.is_null() || unsafe { LLVMIsAFunction(callee) }.is_null() {
            return None;
        }
        Some(Val::wrap(callee).name())
    }

    /// A call whose call site or callee is `convergent`.
    pub(crate) fn is_convergent(self) -> bool {
        unsafe { irgit_is_convergent(self.0.raw) != 0 }
    }

    /// For an alloca that one `#dbg_declare` describes: the source
    /// variable it holds, `x` or `n arg 1` (its name and, for a
    /// parameter, its position; not its line, which edits above move).
    pub(crate) fn declared_variable(self) -> Option<String> {
        if self.opcode() != llvm_sys::LLVMOpcode::LLVMAlloca {
            return None;
        }
        let name = unsafe { super::take_message(irgit_declared_variable(self.0.raw)) };
        (!name.is_empty()).then_some(name)
    }

    /// The instruction just before this one in its block.
    pub fn prev(self) -> Option<Inst> {
        let p = unsafe { LLVMGetPreviousInstruction(self.0.raw) };
        (!p.is_null()).then(|| Inst(Val::wrap(p)))
    }

    /// The instruction just after this one in its block.
    pub fn next(self) -> Option<Inst> {
        let p = unsafe { LLVMGetNextInstruction(self.0.raw) };
        (!p.is_null()).then(|| Inst(Val::wrap(p)))
    }

    /// A direct call whose function type is not its callee's: LLVM accepts
    /// it, but its arguments and result do not match the function's
    /// parameters and return (as when the callee's signature changed and
    /// the call was not updated).
    pub(crate) fn calls_with_another_type(self) -> bool {
        if self.callee_name().is_none() {
            return false;
        }
        unsafe {
            let callee = LLVMGetCalledValue(self.0.raw);
            LLVMGetCalledFunctionType(self.0.raw) != LLVMGlobalGetValueType(callee)
        }
    }
}
