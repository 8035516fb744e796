//! Running LLVM's optimization passes in process: the new pass manager
//! (`LLVMRunPasses`, the engine behind `opt -passes=...`) on a copy of a
//! parsed module, with a target machine for the module's triple so the
//! passes see the same cost model as `opt` does.
//!
//! clang -O0 marks every function `optnone noinline`, and the pass manager
//! then skips it: `instcombine` on such a module changes nothing. The
//! callers count those functions ([`IrModule::optnone_functions`]) and can
//! drop the two attributes first ([`IrModule::strip_optnone`]).
//!
//! ```text
//! before (clang -O0, optnone stripped)       after run_pipeline("sroa")
//! define i32 @f(i32 %x) {                    define i32 @f(i32 %x) {
//!   %x.addr = alloca i32, align 4              %add = add nsw i32 %x, 1
//!   store i32 %x, ptr %x.addr, align 4          ret i32 %add
//!   %0 = load i32, ptr %x.addr, align 4       }
//!   %add = add nsw i32 %0, 1
//!   ret i32 %add
//! }
//! ```

use std::ffi::{CStr, CString};
use std::sync::Once;

use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyFunction};
use llvm_sys::core::{
    LLVMAddAttributeAtIndex, LLVMCreateEnumAttribute, LLVMCreateStringAttribute,
    LLVMGetEnumAttributeAtIndex, LLVMGetEnumAttributeKindForName, LLVMGetModuleContext,
    LLVMGetStringAttributeAtIndex, LLVMGetTarget, LLVMRemoveEnumAttributeAtIndex,
    LLVMRemoveStringAttributeAtIndex,
};
use llvm_sys::error::{LLVMDisposeErrorMessage, LLVMGetErrorMessage};
use llvm_sys::target::{
    LLVM_InitializeAllTargetInfos, LLVM_InitializeAllTargetMCs, LLVM_InitializeAllTargets,
};
use llvm_sys::target_machine::{
    LLVMCodeGenOptLevel, LLVMCodeModel, LLVMCreateTargetMachine, LLVMDisposeTargetMachine,
    LLVMGetTargetFromTriple, LLVMRelocMode, LLVMTargetMachineRef, LLVMTargetRef,
};
use llvm_sys::transforms::pass_builder::{
    LLVMCreatePassBuilderOptions, LLVMDisposePassBuilderOptions, LLVMRunPasses,
};
use llvm_sys::LLVMAttributeFunctionIndex;

use super::{IrError, IrModule, Session};

/// Why a pipeline could not run.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PassError {
    /// LLVM's pass builder refused the pipeline text (unknown pass name,
    /// bad nesting).
    #[error("pass pipeline '{pipeline}' is not valid: {message}")]
    Pipeline { pipeline: String, message: String },
    /// The pipeline ran but its output does not verify (an LLVM bug).
    #[error("pass pipeline '{pipeline}' produced IR that does not verify: {source}")]
    Invalid { pipeline: String, source: IrError },
}

fn init_targets() {
    static INIT: Once = Once::new();
    INIT.call_once(|| unsafe {
        LLVM_InitializeAllTargetInfos();
        LLVM_InitializeAllTargets();
        LLVM_InitializeAllTargetMCs();
    });
}

/// A target machine for `triple`, as `opt` builds one (no CPU, no
/// features, default optimization level), or `None` when LLVM has no such
/// target: the passes then use the target-independent cost model.
struct TargetMachine(LLVMTargetMachineRef);

impl TargetMachine {
    fn for_triple(triple: &CStr) -> Option<TargetMachine> {
        if triple.is_empty() {
            return None;
        }
        init_targets();
        unsafe {
            let mut target: LLVMTargetRef = std::ptr::null_mut();
            let mut err = std::ptr::null_mut();
            if LLVMGetTargetFromTriple(triple.as_ptr(), &mut target, &mut err) != 0 {
                llvm_sys::core::LLVMDisposeMessage(err);
                return None;
            }
            let empty = c"";
            let tm = LLVMCreateTargetMachine(
                target,
                triple.as_ptr(),
                empty.as_ptr(),
                empty.as_ptr(),
                LLVMCodeGenOptLevel::LLVMCodeGenLevelDefault,
                LLVMRelocMode::LLVMRelocDefault,
                LLVMCodeModel::LLVMCodeModelDefault,
            );
            (!tm.is_null()).then_some(TargetMachine(tm))
        }
    }
}

impl Drop for TargetMachine {
    fn drop(&mut self) {
        unsafe { LLVMDisposeTargetMachine(self.0) }
    }
}

/// Runs `pipeline` (the text of `opt -passes=`) on `raw`; `Err` holds
/// LLVM's message.
fn run_raw(
    raw: llvm_sys::prelude::LLVMModuleRef,
    pipeline: &str,
    tm: Option<&TargetMachine>,
) -> Result<(), String> {
    let text = CString::new(pipeline).map_err(|_| "contains a NUL byte".to_string())?;
    unsafe {
        let options = LLVMCreatePassBuilderOptions();
        let err = LLVMRunPasses(
            raw,
            text.as_ptr(),
            tm.map_or(std::ptr::null_mut(), |t| t.0),
            options,
        );
        LLVMDisposePassBuilderOptions(options);
        if err.is_null() {
            return Ok(());
        }
        let msg = LLVMGetErrorMessage(err);
        let s = CStr::from_ptr(msg).to_string_lossy().trim_end().to_string();
        LLVMDisposeErrorMessage(msg);
        Err(s)
    }
}

/// Checks that LLVM's pass builder accepts `pipeline`, by running it on an
/// empty module (cheap; the pipeline text is parsed before anything runs).
pub(crate) fn check_pipeline(pipeline: &str) -> Result<(), PassError> {
    let session = Session::new();
    let m = session
        .parse(b"", "<empty>")
        .expect("the empty module parses");
    run_raw(m.raw(), pipeline, None).map_err(|message| PassError::Pipeline {
        pipeline: pipeline.to_string(),
        message,
    })
}

fn attribute_kind(name: &str) -> u32 {
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len()) }
}

impl<'ctx> IrModule<'ctx> {
    /// A deep copy of the module in the same context.
    pub(crate) fn duplicate(&self) -> IrModule<'ctx> {
        IrModule {
            module: self.module.clone(),
            declares_source_filename: self.declares_source_filename,
            // The copy may be of a module some stage changed.
            verdict: super::ParseVerdict::Unchecked,
        }
    }

    /// Runs a new-pass-manager pipeline (`instcombine`, `sroa`,
    /// `function(mem2reg,instcombine)`, `default<O2>`) on this module in
    /// place, then verifies the result.
    ///
    /// `instcombine` parsed from a pipeline text checks that it reached a
    /// fixpoint and aborts the process (LLVM's `report_fatal_error`) when
    /// it did not, which happens on real code (csmith). Every function
    /// carries `"instcombine-no-verify-fixpoint"` while the passes run, so
    /// that check is off; the attribute is removed again afterwards.
    pub(crate) fn run_pipeline(&self, pipeline: &str) -> Result<(), PassError> {
        let triple = unsafe { CStr::from_ptr(LLVMGetTarget(self.raw())) }.to_owned();
        let tm = TargetMachine::for_triple(&triple);
        let key = "instcombine-no-verify-fixpoint";
        let at = LLVMAttributeFunctionIndex;
        let mut marked = Vec::new();
        unsafe {
            let ctx = LLVMGetModuleContext(self.raw());
            for f in self.functions().into_iter().filter(|f| !f.is_declaration()) {
                let k = key.as_ptr() as *const _;
                if LLVMGetStringAttributeAtIndex(f.0.raw, at, k, key.len() as u32).is_null() {
                    let a = LLVMCreateStringAttribute(ctx, k, key.len() as u32, c"".as_ptr(), 0);
                    LLVMAddAttributeAtIndex(f.0.raw, at, a);
                    marked.push(f);
                }
            }
        }
        let ran = run_raw(self.raw(), pipeline, tm.as_ref());
        let alive = self.defined_now();
        for f in marked.into_iter().filter(|f| alive.contains(f)) {
            unsafe {
                LLVMRemoveStringAttributeAtIndex(
                    f.0.raw,
                    at,
                    key.as_ptr() as *const _,
                    key.len() as u32,
                )
            }
        }
        ran.map_err(|message| PassError::Pipeline {
            pipeline: pipeline.to_string(),
            message,
        })?;
        self.verify().map_err(|source| PassError::Invalid {
            pipeline: pipeline.to_string(),
            source,
        })
    }

    /// [`run_pipeline`](Self::run_pipeline) on every function except the
    /// definitions named in `skip`, which the pass manager sees as
    /// `optnone` (it skips those) and which get their own attributes back
    /// afterwards.
    pub(crate) fn run_pipeline_skipping(
        &self,
        pipeline: &str,
        skip: &[String],
    ) -> Result<(), PassError> {
        let kinds = [attribute_kind("optnone"), attribute_kind("noinline")];
        let at = LLVMAttributeFunctionIndex;
        let mut added = Vec::new();
        for name in skip {
            let Some(f) = self.function(name).filter(|f| !f.is_declaration()) else {
                continue;
            };
            for kind in kinds {
                unsafe {
                    if LLVMGetEnumAttributeAtIndex(f.0.raw, at, kind).is_null() {
                        let ctx = LLVMGetModuleContext(self.raw());
                        LLVMAddAttributeAtIndex(f.0.raw, at, LLVMCreateEnumAttribute(ctx, kind, 0));
                        added.push((f, kind));
                    }
                }
            }
        }
        let ran = self.run_pipeline(pipeline);
        let alive = self.defined_now();
        for (f, kind) in added.into_iter().filter(|(f, _)| alive.contains(f)) {
            unsafe { LLVMRemoveEnumAttributeAtIndex(f.0.raw, at, kind) }
        }
        ran
    }

    /// The module's functions after a pipeline ran: a pass may have
    /// deleted some (module pipelines run global DCE), whose handles dangle.
    fn defined_now(&self) -> rustc_hash::FxHashSet<crate::ir::Func> {
        self.functions().into_iter().collect()
    }

    /// Names of the function definitions LLVM's verifier rejects.
    pub(crate) fn invalid_functions(&self) -> Vec<String> {
        self.functions()
            .into_iter()
            .filter(|f| !f.is_declaration())
            .filter(|f| unsafe {
                LLVMVerifyFunction(f.0.raw, LLVMVerifierFailureAction::LLVMReturnStatusAction) != 0
            })
            .map(|f| f.name())
            .collect()
    }

    /// `(optnone, defined)`: how many function definitions carry `optnone`
    /// (and are skipped by every pass), out of all definitions.
    pub(crate) fn optnone_functions(&self) -> (usize, usize) {
        let optnone = attribute_kind("optnone");
        let defined: Vec<_> = self
            .functions()
            .into_iter()
            .filter(|f| !f.is_declaration())
            .collect();
        let skipped = defined
            .iter()
            .filter(|f| unsafe {
                !LLVMGetEnumAttributeAtIndex(f.0.raw, LLVMAttributeFunctionIndex, optnone).is_null()
            })
            .count();
        (skipped, defined.len())
    }

    /// Drops `optnone` and `noinline` from every function, so that passes
    /// work on clang -O0 output. Returns how many functions had `optnone`.
    pub fn strip_optnone(&self) -> usize {
        let (optnone, noinline) = (attribute_kind("optnone"), attribute_kind("noinline"));
        let mut n = 0;
        for f in self.functions() {
            unsafe {
                let at = LLVMAttributeFunctionIndex;
                if !LLVMGetEnumAttributeAtIndex(f.0.raw, at, optnone).is_null() {
                    n += 1;
                    LLVMRemoveEnumAttributeAtIndex(f.0.raw, at, optnone);
                }
                LLVMRemoveEnumAttributeAtIndex(f.0.raw, at, noinline);
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::Session;

    /// A skipped function that the pipeline deletes (global DCE drops an
    /// unused internal function, `optnone` or not) is not touched after.
    #[test]
    fn a_skipped_function_the_pipeline_deletes_is_left_alone() {
        let text = "define internal void @unused() {\n  ret void\n}\n\
                    define void @kept() {\n  ret void\n}\n";
        let session = Session::new();
        let m = session.parse(text.as_bytes(), "t.ll").unwrap();
        m.run_pipeline_skipping("globaldce", &["unused".to_string()])
            .unwrap();
        assert!(m.function("unused").is_none());
        assert!(m.function("kept").is_some());
    }
}
