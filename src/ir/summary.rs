//! What `irgit diff` ([`crate::summary`]) needs from a parsed module beyond
//! its canonical text: each defined function's type, which renamed-function
//! candidates must share (LLVM's MergeFunctions compares signatures before
//! bodies); and the means to leave functions that did not change out
//! of the canonicalization, by turning them into declarations.
//!
//! ```text
//! define internal noundef i32 @f(ptr nocapture noundef readonly %arg0, i32 %arg1) #3 { ... }
//!   └─► type "i32 (ptr, i32)"      (attributes, linkage and names are not part of the type)
//!   └─► stripped: declare noundef i32 @f(ptr nocapture noundef readonly, i32) #3
//! ```

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use super::{take_message, IrModule};

/// The type of every function *definition*, in module order (the order the
/// printer writes the `define` lines in), as LLVM prints function types.
pub(crate) fn definition_types(module: &IrModule<'_>) -> Vec<String> {
    let mut cache: rustc_hash::FxHashMap<usize, String> = Default::default();
    module
        .functions()
        .into_iter()
        .filter(|f| !f.is_declaration())
        .map(|f| {
            let ty = unsafe { LLVMGlobalGetValueType(f.0.raw) };
            cache
                .entry(ty as usize)
                .or_insert_with(|| unsafe { take_message(LLVMPrintTypeToString(ty)) })
                .clone()
        })
        .collect()
}

/// A function definition before canonicalization: what `irgit diff` needs
/// to decide whether it can leave the function out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Definition {
    /// The name as the printer writes it: `@f`, or `@"a b"` when quoting is needed.
    pub name: String,
    pub fn_type: String,
    pub instructions: usize,
    pub blocks: usize,
    /// The body can be dropped without touching anything else: no block's
    /// address is taken (`blockaddress`) and no alias or ifunc points at it.
    pub strippable: bool,
}

unsafe fn used_by_alias(v: LLVMValueRef, depth: u32) -> bool {
    let mut u = LLVMGetFirstUse(v);
    while !u.is_null() {
        let user = LLVMGetUser(u);
        if !LLVMIsAGlobalAlias(user).is_null() || !LLVMIsAGlobalIFunc(user).is_null() {
            return true;
        }
        if depth < 4 && !LLVMIsAConstantExpr(user).is_null() && used_by_alias(user, depth + 1) {
            return true;
        }
        u = LLVMGetNextUse(u);
    }
    false
}

unsafe fn block_address_taken(bb: LLVMBasicBlockRef) -> bool {
    let mut u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb));
    while !u.is_null() {
        if LLVMIsAInstruction(LLVMGetUser(u)).is_null() {
            return true;
        }
        u = LLVMGetNextUse(u);
    }
    false
}

/// Every function definition in module order (the text order of the
/// `define` lines).
pub(crate) fn definitions(module: &IrModule<'_>) -> Vec<Definition> {
    let types = definition_types(module);
    module
        .functions()
        .into_iter()
        .filter(|f| !f.is_declaration())
        .zip(types)
        .map(|(f, fn_type)| unsafe {
            let mut instructions = 0;
            let mut blocks = 0;
            let mut taken = false;
            let mut bb = LLVMGetFirstBasicBlock(f.0.raw);
            while !bb.is_null() {
                blocks += 1;
                taken |= block_address_taken(bb);
                let mut i = LLVMGetFirstInstruction(bb);
                while !i.is_null() {
                    instructions += 1;
                    i = LLVMGetNextInstruction(i);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
            Definition {
                name: format!("@{}", crate::canon::source_map::name_token(&f.name())),
                fn_type,
                instructions,
                blocks,
                strippable: !taken && !used_by_alias(f.0.raw, 0),
            }
        })
        .collect()
}

/// Turns the definitions `which` selects (one flag per definition, module
/// order) into declarations: every instruction and block erased, linkage
/// external, no comdat, personality or metadata attachments (the verifier
/// allows none of them on a declaration). Returns how many were stripped.
pub(crate) fn strip_bodies(module: &IrModule<'_>, which: &[bool]) -> usize {
    let defs: Vec<LLVMValueRef> = module
        .functions()
        .into_iter()
        .filter(|f| !f.is_declaration())
        .map(|f| f.0.raw)
        .collect();
    let mut n = 0;
    for (&f, &strip) in defs.iter().zip(which) {
        if !strip {
            continue;
        }
        unsafe {
            let mut blocks = Vec::new();
            let mut bb = LLVMGetFirstBasicBlock(f);
            while !bb.is_null() {
                blocks.push(bb);
                bb = LLVMGetNextBasicBlock(bb);
            }
            // Uses first, so no instruction is erased while another reads it.
            for &bb in &blocks {
                let mut i = LLVMGetFirstInstruction(bb);
                while !i.is_null() {
                    if !LLVMGetFirstUse(i).is_null() {
                        LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
                    }
                    i = LLVMGetNextInstruction(i);
                }
            }
            for &bb in &blocks {
                let mut i = LLVMGetFirstInstruction(bb);
                while !i.is_null() {
                    LLVMInstructionEraseFromParent(i);
                    i = LLVMGetFirstInstruction(bb);
                }
            }
            for &bb in &blocks {
                LLVMDeleteBasicBlock(bb);
            }
            LLVMSetLinkage(f, llvm_sys::LLVMLinkage::LLVMExternalLinkage);
            llvm_sys::comdat::LLVMSetComdat(f, std::ptr::null_mut());
            if LLVMHasPersonalityFn(f) != 0 {
                LLVMSetPersonalityFn(f, std::ptr::null_mut());
            }
            LLVMGlobalClearMetadata(f);
        }
        n += 1;
    }
    n
}
