//! The reads `irgit diff` ([`crate::summary`]) needs from a parsed module
//! that its canonical text does not spell out plainly: each defined
//! function's type, which renamed-function candidates must share (seed 003:
//! MergeFunctions compares signatures before bodies).
//!
//! ```text
//! define internal noundef i32 @f(ptr nocapture noundef readonly %arg0, i32 %arg1) #3 { ... }
//!   └─► "i32 (ptr, i32)"      (attributes, linkage and names are not part of the type)
//! ```

use llvm_sys::core::*;

use super::{take_message, IrModule};

/// The type of every function *definition*, in module order (the order the
/// printer writes the `define` lines in), as LLVM prints function types.
pub fn definition_types(module: &IrModule<'_>) -> Vec<String> {
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
