//! The one door to LLVM: parsing (text and bitcode), printing, verification,
//! and the handful of reads and edits the pipeline stages need.
//!
//! Everything above this module talks in [`Func`], [`Block`], [`Inst`] and
//! [`Val`] handles and plain Rust strings; no other module calls `llvm-sys`
//! or `inkwell` directly. A handle is a raw LLVM pointer and is valid only
//! while the [`IrModule`] it came from is alive and the value is not erased.
//!
//! ```text
//! bytes ──parse──► IrModule ──(canon / merge stages via handles)──► print ──► text
//! "define i32 @f(i32 %x) {\n  %1 = add i32 %x, 1\n  ret i32 %1\n}"
//!   └─► Func "f", Block entry, Inst add (operands: Arg 0, ConstInt 1), Inst ret
//! ```

use std::ffi::{CStr, CString};
use std::marker::PhantomData;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind, LLVMValueKind};

pub(crate) mod calls;
pub(crate) mod content;
pub mod edit;
pub(crate) mod passes;
pub(crate) mod summary;

mod shim {
    use llvm_sys::prelude::*;
    extern "C" {
        pub(super) fn irgit_move_function_to_end(f: LLVMValueRef);
        pub(super) fn irgit_move_global_to_end(g: LLVMValueRef);
        pub(super) fn irgit_move_alias_to_end(a: LLVMValueRef);
        pub(super) fn irgit_cmp_swap_operands(i: LLVMValueRef);
        pub(super) fn irgit_phi_set_incoming(
            phi: LLVMValueRef,
            idx: u32,
            v: LLVMValueRef,
            bb: LLVMBasicBlockRef,
        );
        pub(super) fn irgit_move_to_block_end(i: LLVMValueRef);
        pub(super) fn irgit_may_have_side_effects(i: LLVMValueRef) -> i32;
        pub(super) fn irgit_may_read_memory(i: LLVMValueRef) -> i32;
        pub(super) fn irgit_is_commutative(i: LLVMValueRef) -> i32;
        pub(super) fn irgit_sort_block_uses(f: LLVMValueRef);
        pub(super) fn irgit_print_module_to(
            m: LLVMModuleRef,
            sink: extern "C" fn(*mut std::ffi::c_void, *const std::os::raw::c_char, usize),
            ctx: *mut std::ffi::c_void,
        );
        pub(super) fn irgit_types_missing_from_print(m: LLVMModuleRef)
            -> *mut std::os::raw::c_char;
        pub(super) fn irgit_settle_debug_info(
            m: LLVMModuleRef,
            message: *mut *mut std::os::raw::c_char,
        ) -> i32;
    }
}

/// Whether textual IR parses and verifies without its debug info: the
/// check reads the debug-info version flag under another key, so the parse
/// drops the debug info (see [`settle_debug_info`]) before the module is
/// verified. For texts that are only checked, never used.
pub fn text_parses_and_verifies(text: &str) -> bool {
    let checked = text.replace("!\"Debug Info Version\"", "!\"irgit: Debug Info Version\"");
    let session = Session::new();
    // Its warning about the dropped debug info is the check's own business.
    extern "C" fn quiet(_: llvm_sys::prelude::LLVMDiagnosticInfoRef, _: *mut std::ffi::c_void) {}
    unsafe {
        llvm_sys::core::LLVMContextSetDiagnosticHandler(
            session.ctx.raw(),
            Some(quiet),
            std::ptr::null_mut(),
        );
    }
    session
        .parse(checked.as_bytes(), "checked.ll")
        .is_ok_and(|m| m.verify().is_ok())
}

/// What a file's first bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Raw LLVM bitcode (`BC\xC0\xDE`).
    Bitcode,
    /// Bitcode inside the Darwin wrapper header (`0x0B17C0DE`, little endian).
    WrappedBitcode,
    /// Anything else; parsed as textual IR.
    Text,
}

/// Detects bitcode by its magic number, including the wrapper header.
pub fn detect_format(bytes: &[u8]) -> Format {
    if bytes.starts_with(b"BC\xC0\xDE") {
        Format::Bitcode
    } else if bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B]) {
        Format::WrappedBitcode
    } else {
        Format::Text
    }
}

/// Why LLVM refused an input.
#[derive(Debug, Clone, thiserror::Error)]
pub enum IrError {
    #[error("not valid LLVM IR: {0}")]
    Parse(String),
    #[error("LLVM IR does not verify: {0}")]
    Verify(String),
    #[error("input is not text IR: {0}")]
    NotText(String),
}

/// An LLVM context: every module parsed by one session can be compared and
/// combined (types and constants are shared within a context).
pub struct Session {
    ctx: Context,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

impl Session {
    pub fn new() -> Self {
        without_fatal_debug_info_upgrade();
        Session {
            ctx: Context::create(),
        }
    }

    /// Parses textual IR or bitcode. `name` names the input in error messages.
    pub fn parse(&self, bytes: &[u8], name: &str) -> Result<IrModule<'_>, IrError> {
        if detect_format(bytes) == Format::Text && bytes.contains(&0) {
            return Err(IrError::NotText(
                "contains NUL bytes and is not bitcode".to_string(),
            ));
        }
        let buffer = MemoryBuffer::create_from_memory_range_copy(bytes, name);
        let module = self
            .ctx
            .create_module_from_ir(buffer)
            .map_err(|e| IrError::Parse(e.to_string().trim_end().to_string()))?;
        let verdict = settle_debug_info(&module);
        // Without a `source_filename` line LLVM takes the buffer name (for
        // git, a random temporary path). Text says whether it had one;
        // bitcode records it unless it was empty, when the reader falls back
        // to the buffer name too.
        let declares_source_filename = match detect_format(bytes) {
            Format::Text => bytes
                .split(|&b| b == b'\n')
                .any(|line| line.trim_ascii_start().starts_with(b"source_filename")),
            Format::Bitcode | Format::WrappedBitcode => {
                let m = IrModule {
                    module,
                    declares_source_filename: true,
                    verdict,
                };
                let given = m.source_filename() != name;
                return Ok(IrModule {
                    declares_source_filename: given,
                    ..m
                });
            }
        };
        Ok(IrModule {
            module,
            declares_source_filename,
            verdict,
        })
    }
}

/// Turns off LLVM's upgrade of debug info at parse time (once per process):
/// it ends the process when a module that declares the current debug-info
/// version does not verify. [`settle_debug_info`] does the same work and
/// keeps LLVM's verdict on that module for its verification instead.
fn without_fatal_debug_info_upgrade() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let args = [
            c"irgit".as_ptr(),
            c"-disable-auto-upgrade-debug-info".as_ptr(),
        ];
        // SAFETY: two valid C strings; LLVM copies what it keeps.
        unsafe {
            llvm_sys::support::LLVMParseCommandLineOptions(2, args.as_ptr(), c"".as_ptr());
        }
    });
}

/// LLVM's upgrade of a parsed module's debug info (see the shim), and the
/// verifier's verdict if that ran it.
fn settle_debug_info(module: &Module<'_>) -> ParseVerdict {
    let mut message = std::ptr::null_mut();
    // SAFETY: a live module; the shim sets `message` only on failure.
    match unsafe { shim::irgit_settle_debug_info(module.as_mut_ptr(), &mut message) } {
        0 => ParseVerdict::Valid,
        2 => ParseVerdict::Invalid(unsafe { take_message(message) }.trim_end().to_string()),
        3 => {
            ParseVerdict::DebugInfoDropped(unsafe { take_message(message) }.trim_end().to_string())
        }
        _ => ParseVerdict::Unchecked,
    }
}

/// What the parse learned of a module's validity: LLVM's verifier runs as
/// part of it on a module that declares the current debug-info version
/// ([`settle_debug_info`]), not on any other.
#[derive(Debug, Clone, PartialEq, Eq)]
enum ParseVerdict {
    Unchecked,
    Valid,
    /// The verifier's complaint.
    Invalid(String),
    /// Valid once LLVM dropped its debug info, which the verifier
    /// rejected with this complaint.
    DebugInfoDropped(String),
}

/// Prints types by content, remembering each (types are uniqued per
/// context, so the pointer identifies the type).
#[derive(Default)]
pub(crate) struct TypeNames {
    cache: rustc_hash::FxHashMap<usize, std::rc::Rc<str>>,
    shapes: rustc_hash::FxHashMap<usize, std::rc::Rc<str>>,
    /// Spell a named struct by its name (`%T`), not its body: the diff
    /// view's names, which a field added to `%T` must not change.
    structs_by_name: bool,
}

impl TypeNames {
    /// Types spelled as [`Self::of`] says, except that a named struct is
    /// spelled by its name (`%struct.node`), never by its fields.
    pub(crate) fn structs_by_name() -> Self {
        TypeNames {
            structs_by_name: true,
            ..Self::default()
        }
    }

    /// The key of `ty` by the rule this instance was made with.
    fn key_of(&self, ty: LLVMTypeRef) -> String {
        if self.structs_by_name {
            content::type_ref_key_top(ty)
        } else {
            content::type_key(ty)
        }
    }

    /// The type of `v` as LLVM prints it, unnamed struct types spelled by
    /// their bodies (`content::type_key`), never by number or address.
    pub(crate) fn of(&mut self, v: Val) -> std::rc::Rc<str> {
        self.of_type(unsafe { LLVMTypeOf(v.raw) })
    }

    fn of_type(&mut self, ty: LLVMTypeRef) -> std::rc::Rc<str> {
        if let Some(key) = self.cache.get(&(ty as usize)) {
            return key.clone();
        }
        let key: std::rc::Rc<str> = self.key_of(ty).into();
        self.cache.insert(ty as usize, key.clone());
        key
    }

    /// For `alloca`: the allocated type's content key
    /// ([`Inst::allocated_type_key`], remembered), array lengths left out.
    pub(crate) fn allocated(&mut self, inst: Inst) -> Option<std::rc::Rc<str>> {
        (inst.opcode() == LLVMOpcode::LLVMAlloca)
            .then(|| self.shape_of(unsafe { LLVMGetAllocatedType(inst.0.raw) }))
    }

    /// For `getelementptr`: the source element type's content key
    /// ([`Inst::gep_source_type_key`], remembered), array lengths left out.
    pub(crate) fn gep_source(&mut self, inst: Inst) -> Option<std::rc::Rc<str>> {
        (inst.opcode() == LLVMOpcode::LLVMGetElementPtr)
            .then(|| self.shape_of(unsafe { LLVMGetGEPSourceElementType(inst.0.raw) }))
    }

    /// A type's content key with every array length left out (`[4 x i32]`
    /// -> `[_ x i32]`): like a constant's value, an array's length is what
    /// an edit changes (`int a[4]` -> `int a[5]`), and the variable and
    /// the addresses into it keep their names.
    fn shape_of(&mut self, ty: LLVMTypeRef) -> std::rc::Rc<str> {
        if let Some(shape) = self.shapes.get(&(ty as usize)) {
            return shape.clone();
        }
        let key = self.of_type(ty);
        let shape: std::rc::Rc<str> = match key.contains('[') {
            true => without_array_lengths(&key).into(),
            false => key,
        };
        self.shapes.insert(ty as usize, shape.clone());
        shape
    }
}

/// `text` with the length of every array type written `_`.
fn without_array_lengths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('[') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with(" x ") {
            out.push('_');
            rest = &rest[digits..];
        }
    }
    out.push_str(rest);
    out
}

/// `printed` (a module's text) with the struct type definitions LLVM's
/// printer left out (`definitions`, one a line) where it prints types: after
/// the header lines. LLVM omits a named struct that only metadata attached
/// to a function or global uses, and the text would not parse again:
///
/// ```text
/// declare !types !0 i32 @g(ptr)              %struct.T = type { float, i32 }
/// !0 = !{i32 0, %struct.T poison}      ──►   declare !types !0 i32 @g(ptr) ...
/// ```
fn with_type_definitions(printed: String, definitions: &str) -> String {
    if definitions.is_empty() {
        return printed;
    }
    // The header (`; ModuleID`, `source_filename`, `target ...`) ends at
    // the first blank line.
    let header_end = printed.find("\n\n").map_or(printed.len(), |at| at + 1);
    let mut out = String::with_capacity(printed.len() + definitions.len() + 2);
    out.push_str(&printed[..header_end]);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push('\n');
    out.push_str(definitions);
    out.push_str(&printed[header_end..]);
    out
}

/// A parsed module. Handles obtained from it live as long as it does.
pub struct IrModule<'ctx> {
    module: Module<'ctx>,
    declares_source_filename: bool,
    /// The verifier's verdict on the module as read, when the parse ran it.
    verdict: ParseVerdict,
}

impl<'ctx> IrModule<'ctx> {
    fn raw(&self) -> LLVMModuleRef {
        self.module.as_mut_ptr()
    }

    /// Prints the module as textual IR (LLVM's own printer).
    pub fn print(&self) -> String {
        self.print_with_capacity(0)
    }

    /// [`Self::print`] into a buffer that first reserves `capacity` bytes
    /// (what the text is expected to take: the buffer then never moves).
    pub(crate) fn print_with_capacity(&self, capacity: usize) -> String {
        extern "C" fn append(
            out: *mut std::ffi::c_void,
            bytes: *const std::os::raw::c_char,
            len: usize,
        ) {
            // SAFETY: `out` is the Vec below, `bytes` a chunk of `len` bytes.
            unsafe {
                let out = &mut *(out as *mut Vec<u8>);
                out.extend_from_slice(std::slice::from_raw_parts(bytes as *const u8, len));
            }
        }
        let mut bytes: Vec<u8> = Vec::with_capacity(capacity);
        // Through the shim: a buffered stream (LLVMPrintModuleToString's is
        // unbuffered, which costs more than the rest of the printing).
        unsafe {
            shim::irgit_print_module_to(
                self.raw(),
                append,
                &mut bytes as *mut Vec<u8> as *mut std::ffi::c_void,
            );
        }
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        // SAFETY: the module is alive; the shim returns an LLVM message.
        let missing = unsafe { take_message(shim::irgit_types_missing_from_print(self.raw())) };
        with_type_definitions(text, &missing)
    }

    /// LLVM's verdict on the module as it was parsed: the one the parse
    /// already reached, if it ran the verifier, without a second run. Only
    /// for a module no stage has changed yet.
    pub fn verify_as_parsed(&self) -> Result<(), IrError> {
        match &self.verdict {
            ParseVerdict::Valid => Ok(()),
            ParseVerdict::Invalid(complaint) => Err(IrError::Verify(complaint.clone())),
            ParseVerdict::Unchecked | ParseVerdict::DebugInfoDropped(_) => self.verify(),
        }
    }

    /// The verifier's complaint about the debug info LLVM dropped while
    /// parsing, when it dropped debug info of the current version.
    pub(crate) fn dropped_debug_info(&self) -> Option<&str> {
        match &self.verdict {
            ParseVerdict::DebugInfoDropped(complaint) => Some(complaint),
            _ => None,
        }
    }

    /// Whether the parse already reached LLVM's verdict on the module.
    pub(crate) fn verified_as_parsed(&self) -> bool {
        matches!(self.verdict, ParseVerdict::Valid | ParseVerdict::Invalid(_))
    }

    /// Runs LLVM's verifier.
    pub fn verify(&self) -> Result<(), IrError> {
        self.module
            .verify()
            .map_err(|e| IrError::Verify(e.to_string().trim_end().to_string()))
    }

    /// Serializes the module as bitcode.
    pub(crate) fn to_bitcode(&self) -> Vec<u8> {
        self.module.write_bitcode_to_memory().as_slice().to_vec()
    }

    /// Whether the input named its source file, rather than LLVM filling
    /// `source_filename` in from the name it was parsed under.
    pub fn declares_source_filename(&self) -> bool {
        self.declares_source_filename
    }

    /// Whether the module has named metadata `name` (`llvm.dbg.cu`).
    pub(crate) fn has_named_metadata(&self, name: &str) -> bool {
        unsafe { !LLVMGetNamedMetadata(self.raw(), name.as_ptr().cast(), name.len()).is_null() }
    }

    pub fn source_filename(&self) -> String {
        let mut len = 0usize;
        unsafe {
            let p = LLVMGetSourceFileName(self.raw(), &mut len);
            raw_str(p, len)
        }
    }

    /// Sets the `source_filename` of the module.
    pub fn set_source_filename(&self, name: &str) {
        unsafe { LLVMSetSourceFileName(self.raw(), name.as_ptr() as *const _, name.len()) }
    }

    /// Sets the identifier printed in the `; ModuleID = '...'` header line.
    pub fn set_identifier(&self, id: &str) {
        unsafe { LLVMSetModuleIdentifier(self.raw(), id.as_ptr() as *const _, id.len()) }
    }

    /// All functions (definitions and declarations) in module order.
    pub fn functions(&self) -> Vec<Func> {
        let mut out = Vec::new();
        unsafe {
            let mut f = LLVMGetFirstFunction(self.raw());
            while !f.is_null() {
                out.push(Func(Val::wrap(f)));
                f = LLVMGetNextFunction(f);
            }
        }
        out
    }

    /// All global variables in module order.
    pub fn globals(&self) -> Vec<Val> {
        let mut out = Vec::new();
        unsafe {
            let mut g = LLVMGetFirstGlobal(self.raw());
            while !g.is_null() {
                out.push(Val::wrap(g));
                g = LLVMGetNextGlobal(g);
            }
        }
        out
    }

    /// All aliases in module order.
    pub(crate) fn aliases(&self) -> Vec<Val> {
        let mut out = Vec::new();
        unsafe {
            let mut g = LLVMGetFirstGlobalAlias(self.raw());
            while !g.is_null() {
                out.push(Val::wrap(g));
                g = LLVMGetNextGlobalAlias(g);
            }
        }
        out
    }

    /// Looks a function up by name.
    pub fn function(&self, name: &str) -> Option<Func> {
        let c = CString::new(name).ok()?;
        let f = unsafe { LLVMGetNamedFunction(self.raw(), c.as_ptr()) };
        (!f.is_null()).then(|| Func(Val::wrap(f)))
    }

    /// Looks a global variable, alias or ifunc up by name.
    pub(crate) fn global_value(&self, name: &str) -> Option<Val> {
        let c = CString::new(name).ok()?;
        unsafe {
            let g = LLVMGetNamedGlobal(self.raw(), c.as_ptr());
            if !g.is_null() {
                return Some(Val::wrap(g));
            }
            let a = LLVMGetNamedGlobalAlias(self.raw(), c.as_ptr(), name.len());
            if !a.is_null() {
                return Some(Val::wrap(a));
            }
            let i = LLVMGetNamedGlobalIFunc(self.raw(), c.as_ptr(), name.len());
            (!i.is_null()).then(|| Val::wrap(i))
        }
    }

    /// Moves a function to the end of the function list.
    pub fn move_function_to_end(&self, f: Func) {
        unsafe { shim::irgit_move_function_to_end(f.0.raw) }
    }

    /// Moves a global variable to the end of the global list.
    pub fn move_global_to_end(&self, g: Val) {
        unsafe { shim::irgit_move_global_to_end(g.raw) }
    }

    /// Moves an alias to the end of the alias list.
    pub(crate) fn move_alias_to_end(&self, a: Val) {
        unsafe { shim::irgit_move_alias_to_end(a.raw) }
    }
}

unsafe fn raw_str(p: *const std::os::raw::c_char, len: usize) -> String {
    if p.is_null() {
        return String::new();
    }
    let bytes = std::slice::from_raw_parts(p as *const u8, len);
    String::from_utf8_lossy(bytes).into_owned()
}

unsafe fn take_message(p: *mut std::os::raw::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    let s = CStr::from_ptr(p).to_string_lossy().into_owned();
    LLVMDisposeMessage(p);
    s
}

/// What kind of thing a value is, as far as the pipeline cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValKind {
    Argument,
    BasicBlock,
    Instruction,
    Function,
    GlobalVariable,
    GlobalAlias,
    GlobalIFunc,
    ConstantInt,
    ConstantFP,
    /// null, undef, poison, zeroinitializer, aggregates, constant expressions...
    OtherConstant,
    InlineAsm,
    Metadata,
}

/// Any LLVM value: an instruction, argument, constant, global, block label...
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Val {
    raw: LLVMValueRef,
    _not_send: PhantomData<*const ()>,
}

impl Val {
    fn wrap(raw: LLVMValueRef) -> Val {
        Val {
            raw,
            _not_send: PhantomData,
        }
    }

    /// Whether the value is `undef` or `poison` (a kind of undef to LLVM).
    pub fn is_undef(self) -> bool {
        unsafe { LLVMIsUndef(self.raw) != 0 }
    }

    pub fn kind(self) -> ValKind {
        use LLVMValueKind::*;
        match unsafe { LLVMGetValueKind(self.raw) } {
            LLVMArgumentValueKind => ValKind::Argument,
            LLVMBasicBlockValueKind => ValKind::BasicBlock,
            LLVMInstructionValueKind => ValKind::Instruction,
            LLVMFunctionValueKind => ValKind::Function,
            LLVMGlobalVariableValueKind => ValKind::GlobalVariable,
            LLVMGlobalAliasValueKind => ValKind::GlobalAlias,
            LLVMGlobalIFuncValueKind => ValKind::GlobalIFunc,
            LLVMConstantIntValueKind => ValKind::ConstantInt,
            LLVMConstantFPValueKind => ValKind::ConstantFP,
            LLVMInlineAsmValueKind => ValKind::InlineAsm,
            LLVMMetadataAsValueValueKind => ValKind::Metadata,
            _ => ValKind::OtherConstant,
        }
    }

    pub fn as_inst(self) -> Option<Inst> {
        (self.kind() == ValKind::Instruction).then_some(Inst(self))
    }

    /// The value's name without sigil (empty when unnamed).
    pub fn name(self) -> String {
        let mut len = 0usize;
        unsafe {
            let p = LLVMGetValueName2(self.raw, &mut len);
            raw_str(p, len)
        }
    }

    /// `f` of the value's name, read in place (no copy made where the name
    /// is UTF-8, as LLVM's names nearly always are).
    pub(crate) fn with_name<R>(self, f: impl FnOnce(&str) -> R) -> R {
        let mut len = 0usize;
        unsafe {
            let p = LLVMGetValueName2(self.raw, &mut len);
            if p.is_null() {
                return f("");
            }
            f(&String::from_utf8_lossy(std::slice::from_raw_parts(
                p as *const u8,
                len,
            )))
        }
    }

    /// Whether the value's name is exactly `name` (no copy made).
    pub(crate) fn has_name(self, name: &str) -> bool {
        let mut len = 0usize;
        unsafe {
            let p = LLVMGetValueName2(self.raw, &mut len);
            !p.is_null() && std::slice::from_raw_parts(p as *const u8, len) == name.as_bytes()
        }
    }

    /// Renames the value. LLVM appends a number if the name is taken.
    pub fn set_name(self, name: &str) {
        unsafe { LLVMSetValueName2(self.raw, name.as_ptr() as *const _, name.len()) }
    }

    /// LLVM's textual form of the value (an instruction's whole line, a
    /// constant with its type, a global's definition line...).
    pub fn print(self) -> String {
        unsafe { take_message(LLVMPrintValueToString(self.raw)) }
    }

    /// The value's type as LLVM prints it (`i32`, `ptr`, `{ i32, i8 }`...).
    pub(crate) fn type_string(self) -> String {
        unsafe { take_message(LLVMPrintTypeToString(LLVMTypeOf(self.raw))) }
    }

    pub fn is_void(self) -> bool {
        unsafe { LLVMGetTypeKind(LLVMTypeOf(self.raw)) == LLVMTypeKind::LLVMVoidTypeKind }
    }

    /// The value as a block label, if it is one.
    pub fn as_block(self) -> Option<Block> {
        (self.kind() == ValKind::BasicBlock)
            .then(|| Block::wrap(unsafe { LLVMValueAsBasicBlock(self.raw) }))
    }

    /// Every (user instruction, operand index) pair that uses this value.
    pub fn uses(self) -> Vec<(Val, u32)> {
        let mut out = Vec::new();
        unsafe {
            let mut u = LLVMGetFirstUse(self.raw);
            while !u.is_null() {
                let user = LLVMGetUser(u);
                let n = LLVMGetNumOperands(user).max(0) as u32;
                for i in 0..n {
                    if LLVMGetOperandUse(user, i) == u {
                        out.push((Val::wrap(user), i));
                        break;
                    }
                }
                u = LLVMGetNextUse(u);
            }
        }
        out
    }

    pub fn is_private_linkage(self) -> bool {
        unsafe { LLVMGetLinkage(self.raw) == llvm_sys::LLVMLinkage::LLVMPrivateLinkage }
    }

    /// A global variable's initializer.
    pub fn initializer(self) -> Option<Val> {
        let p = unsafe { LLVMGetInitializer(self.raw) };
        (!p.is_null()).then(|| Val::wrap(p))
    }

    pub(crate) fn is_constant_global(self) -> bool {
        unsafe { LLVMIsGlobalConstant(self.raw) != 0 }
    }

    /// The integer value of a `ConstantInt` that fits in 64 bits.
    pub fn const_int_sext(self) -> Option<i64> {
        (self.kind() == ValKind::ConstantInt).then(|| unsafe { LLVMConstIntGetSExtValue(self.raw) })
    }

    /// Replaces every use of `self` with `other`.
    pub fn replace_all_uses_with(self, other: Val) {
        unsafe { LLVMReplaceAllUsesWith(self.raw, other.raw) }
    }
}

/// A function (definition or declaration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Func(pub Val);

impl Func {
    pub fn name(self) -> String {
        self.0.name()
    }

    pub fn is_declaration(self) -> bool {
        unsafe { LLVMIsDeclaration(self.0.raw) != 0 }
    }

    pub fn params(self) -> Vec<Val> {
        unsafe {
            let n = LLVMCountParams(self.0.raw);
            (0..n)
                .map(|i| Val::wrap(LLVMGetParam(self.0.raw, i)))
                .collect()
        }
    }

    /// Blocks in layout order; the first is the entry block.
    pub fn blocks(self) -> Vec<Block> {
        let mut out = Vec::new();
        unsafe {
            let mut b = LLVMGetFirstBasicBlock(self.0.raw);
            while !b.is_null() {
                out.push(Block::wrap(b));
                b = LLVMGetNextBasicBlock(b);
            }
        }
        out
    }

    /// Orders each block's use list by the layout position of the using
    /// block, so the printer's `; preds = ...` comments follow block order.
    pub(crate) fn sort_block_uses(self) {
        unsafe { shim::irgit_sort_block_uses(self.0.raw) }
    }

    /// Number of instructions in all blocks.
    pub fn instruction_count(self) -> usize {
        self.blocks().iter().map(|b| b.instructions().len()).sum()
    }
}

/// A basic block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block {
    raw: LLVMBasicBlockRef,
    _not_send: PhantomData<*const ()>,
}

impl Block {
    fn wrap(raw: LLVMBasicBlockRef) -> Block {
        Block {
            raw,
            _not_send: PhantomData,
        }
    }

    /// The block as a value (its label).
    pub fn as_val(self) -> Val {
        Val::wrap(unsafe { LLVMBasicBlockAsValue(self.raw) })
    }

    pub fn name(self) -> String {
        self.as_val().name()
    }

    pub fn set_name(self, name: &str) {
        self.as_val().set_name(name)
    }

    pub fn instructions(self) -> Vec<Inst> {
        let mut out = Vec::new();
        unsafe {
            let mut i = LLVMGetFirstInstruction(self.raw);
            while !i.is_null() {
                out.push(Inst(Val::wrap(i)));
                i = LLVMGetNextInstruction(i);
            }
        }
        out
    }

    /// The block's instructions in order, without collecting them.
    pub(crate) fn iter_instructions(self) -> impl Iterator<Item = Inst> {
        let first = unsafe { LLVMGetFirstInstruction(self.raw) };
        std::iter::successors((!first.is_null()).then_some(first), |&i| {
            let next = unsafe { LLVMGetNextInstruction(i) };
            (!next.is_null()).then_some(next)
        })
        .map(|i| Inst(Val::wrap(i)))
    }

    pub fn terminator(self) -> Option<Inst> {
        let t = unsafe { LLVMGetBasicBlockTerminator(self.raw) };
        (!t.is_null()).then(|| Inst(Val::wrap(t)))
    }

    /// Successors in terminator order (duplicates kept).
    pub(crate) fn successors(self) -> Vec<Block> {
        match self.terminator() {
            None => Vec::new(),
            Some(t) => unsafe {
                let n = LLVMGetNumSuccessors(t.0.raw);
                (0..n)
                    .map(|i| Block::wrap(LLVMGetSuccessor(t.0.raw, i)))
                    .collect()
            },
        }
    }

    /// Moves this block right after `other` in the function's layout.
    pub fn move_after(self, other: Block) {
        unsafe { LLVMMoveBasicBlockAfter(self.raw, other.raw) }
    }
}

/// The opcodes, by the names LLVM's textual IR uses. Hashes and names are
/// built from these strings, never from LLVM's enum numbering.
pub fn opcode_name(op: LLVMOpcode) -> &'static str {
    use LLVMOpcode::*;
    match op {
        LLVMRet => "ret",
        LLVMBr => "br",
        LLVMSwitch => "switch",
        LLVMIndirectBr => "indirectbr",
        LLVMInvoke => "invoke",
        LLVMUnreachable => "unreachable",
        LLVMCallBr => "callbr",
        LLVMFNeg => "fneg",
        LLVMAdd => "add",
        LLVMFAdd => "fadd",
        LLVMSub => "sub",
        LLVMFSub => "fsub",
        LLVMMul => "mul",
        LLVMFMul => "fmul",
        LLVMUDiv => "udiv",
        LLVMSDiv => "sdiv",
        LLVMFDiv => "fdiv",
        LLVMURem => "urem",
        LLVMSRem => "srem",
        LLVMFRem => "frem",
        LLVMShl => "shl",
        LLVMLShr => "lshr",
        LLVMAShr => "ashr",
        LLVMAnd => "and",
        LLVMOr => "or",
        LLVMXor => "xor",
        LLVMAlloca => "alloca",
        LLVMLoad => "load",
        LLVMStore => "store",
        LLVMGetElementPtr => "getelementptr",
        LLVMTrunc => "trunc",
        LLVMZExt => "zext",
        LLVMSExt => "sext",
        LLVMFPToUI => "fptoui",
        LLVMFPToSI => "fptosi",
        LLVMUIToFP => "uitofp",
        LLVMSIToFP => "sitofp",
        LLVMFPTrunc => "fptrunc",
        LLVMFPExt => "fpext",
        LLVMPtrToInt => "ptrtoint",
        LLVMPtrToAddr => "ptrtoaddr",
        LLVMIntToPtr => "inttoptr",
        LLVMBitCast => "bitcast",
        LLVMAddrSpaceCast => "addrspacecast",
        LLVMICmp => "icmp",
        LLVMFCmp => "fcmp",
        LLVMPHI => "phi",
        LLVMCall => "call",
        LLVMSelect => "select",
        LLVMUserOp1 => "userop1",
        LLVMUserOp2 => "userop2",
        LLVMVAArg => "va_arg",
        LLVMExtractElement => "extractelement",
        LLVMInsertElement => "insertelement",
        LLVMShuffleVector => "shufflevector",
        LLVMExtractValue => "extractvalue",
        LLVMInsertValue => "insertvalue",
        LLVMFreeze => "freeze",
        LLVMFence => "fence",
        LLVMAtomicCmpXchg => "cmpxchg",
        LLVMAtomicRMW => "atomicrmw",
        LLVMResume => "resume",
        LLVMLandingPad => "landingpad",
        LLVMCleanupRet => "cleanupret",
        LLVMCatchRet => "catchret",
        LLVMCatchPad => "catchpad",
        LLVMCleanupPad => "cleanuppad",
        LLVMCatchSwitch => "catchswitch",
    }
}

/// An instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(pub Val);

impl Inst {
    pub fn val(self) -> Val {
        self.0
    }

    pub fn opcode(self) -> LLVMOpcode {
        unsafe { LLVMGetInstructionOpcode(self.0.raw) }
    }

    /// The opcode as textual IR spells it (`add`, `getelementptr`...).
    pub fn opcode_name(self) -> &'static str {
        opcode_name(self.opcode())
    }

    pub fn block(self) -> Block {
        Block::wrap(unsafe { LLVMGetInstructionParent(self.0.raw) })
    }

    pub fn num_operands(self) -> u32 {
        unsafe { LLVMGetNumOperands(self.0.raw).max(0) as u32 }
    }

    pub fn operand(self, i: u32) -> Val {
        Val::wrap(unsafe { LLVMGetOperand(self.0.raw, i) })
    }

    /// The operands in order, without collecting them.
    pub(crate) fn iter_operands(self) -> impl Iterator<Item = Val> {
        (0..self.num_operands()).map(move |i| self.operand(i))
    }

    pub fn operands(self) -> Vec<Val> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }

    pub fn set_operand(self, i: u32, v: Val) {
        unsafe { LLVMSetOperand(self.0.raw, i, v.raw) }
    }

    pub fn is_terminator(self) -> bool {
        unsafe { !LLVMIsATerminatorInst(self.0.raw).is_null() }
    }

    /// LLVM's `mayHaveSideEffects() || mayWriteToMemory()`.
    pub(crate) fn may_have_side_effects(self) -> bool {
        unsafe { shim::irgit_may_have_side_effects(self.0.raw) != 0 }
    }

    pub fn may_read_memory(self) -> bool {
        unsafe { shim::irgit_may_read_memory(self.0.raw) != 0 }
    }

    /// LLVM's `Instruction::isCommutative()`.
    pub fn is_commutative(self) -> bool {
        unsafe { shim::irgit_is_commutative(self.0.raw) != 0 }
    }

    /// A call or invoke marked `musttail`.
    pub(crate) fn is_musttail(self) -> bool {
        self.opcode() == LLVMOpcode::LLVMCall
            && unsafe { LLVMGetTailCallKind(self.0.raw) }
                == llvm_sys::LLVMTailCallKind::LLVMTailCallKindMustTail
    }

    /// Predicate of an icmp/fcmp as textual IR spells it (`eq`, `sgt`, `oge`...).
    pub(crate) fn predicate_name(self) -> Option<&'static str> {
        use llvm_sys::LLVMIntPredicate::*;
        use llvm_sys::LLVMRealPredicate::*;
        match self.opcode() {
            LLVMOpcode::LLVMICmp => Some(match unsafe { LLVMGetICmpPredicate(self.0.raw) } {
                LLVMIntEQ => "eq",
                LLVMIntNE => "ne",
                LLVMIntUGT => "ugt",
                LLVMIntUGE => "uge",
                LLVMIntULT => "ult",
                LLVMIntULE => "ule",
                LLVMIntSGT => "sgt",
                LLVMIntSGE => "sge",
                LLVMIntSLT => "slt",
                LLVMIntSLE => "sle",
            }),
            LLVMOpcode::LLVMFCmp => Some(match unsafe { LLVMGetFCmpPredicate(self.0.raw) } {
                LLVMRealPredicateFalse => "false",
                LLVMRealOEQ => "oeq",
                LLVMRealOGT => "ogt",
                LLVMRealOGE => "oge",
                LLVMRealOLT => "olt",
                LLVMRealOLE => "ole",
                LLVMRealONE => "one",
                LLVMRealORD => "ord",
                LLVMRealUNO => "uno",
                LLVMRealUEQ => "ueq",
                LLVMRealUGT => "ugt",
                LLVMRealUGE => "uge",
                LLVMRealULT => "ult",
                LLVMRealULE => "ule",
                LLVMRealUNE => "une",
                LLVMRealPredicateTrue => "true",
            }),
            _ => None,
        }
    }

    /// What the instruction's line says besides its opcode, type and
    /// operands, spelled as textual IR spells it: wrap/exact/disjoint/nneg/
    /// samesign flags, GEP no-wrap flags, fast-math flags, a shufflevector's
    /// mask, alignment, volatility, atomic ordering, tail-call kind.
    pub fn local_attributes(self) -> String {
        let mut out = String::new();
        self.write_local_attributes(&mut out);
        out
    }

    /// [`Inst::local_attributes`], appended to `out`.
    pub(crate) fn write_local_attributes(self, out: &mut String) {
        use LLVMOpcode::*;
        let r = self.0.raw;
        use std::fmt::Write as _;
        let mut word = |w: std::fmt::Arguments| {
            let _ = out.write_fmt(w);
            out.push(' ');
        };
        unsafe {
            match self.opcode() {
                LLVMAdd | LLVMSub | LLVMMul | LLVMShl => {
                    if LLVMGetNUW(r) != 0 {
                        word(format_args!("nuw"));
                    }
                    if LLVMGetNSW(r) != 0 {
                        word(format_args!("nsw"));
                    }
                }
                LLVMUDiv | LLVMSDiv | LLVMLShr | LLVMAShr if LLVMGetExact(r) != 0 => {
                    word(format_args!("exact"))
                }
                LLVMOr if LLVMGetIsDisjoint(r) != 0 => word(format_args!("disjoint")),
                LLVMZExt if LLVMGetNNeg(r) != 0 => word(format_args!("nneg")),
                LLVMICmp if LLVMGetICmpSameSign(r) != 0 => word(format_args!("samesign")),
                LLVMGetElementPtr => {
                    let f = LLVMGEPGetNoWrapFlags(r);
                    if f & llvm_sys::LLVMGEPFlagInBounds != 0 {
                        word(format_args!("inbounds"));
                    }
                    if f & llvm_sys::LLVMGEPFlagNUSW != 0 {
                        word(format_args!("nusw"));
                    }
                    if f & llvm_sys::LLVMGEPFlagNUW != 0 {
                        word(format_args!("nuw"));
                    }
                }
                LLVMShuffleVector => {
                    let undef = LLVMGetUndefMaskElem();
                    word(format_args!("mask"));
                    for i in 0..LLVMGetNumMaskElements(r) {
                        let m = LLVMGetMaskValue(r, i);
                        if m == undef {
                            word(format_args!("poison"));
                        } else {
                            word(format_args!("{m}"));
                        }
                    }
                }
                LLVMLoad | LLVMStore | LLVMAlloca => {
                    word(format_args!("align {}", LLVMGetAlignment(r)));
                }
                LLVMCall => {
                    let kind = match LLVMGetTailCallKind(r) {
                        llvm_sys::LLVMTailCallKind::LLVMTailCallKindNone => "",
                        llvm_sys::LLVMTailCallKind::LLVMTailCallKindTail => "tail",
                        llvm_sys::LLVMTailCallKind::LLVMTailCallKindMustTail => "musttail",
                        llvm_sys::LLVMTailCallKind::LLVMTailCallKindNoTail => "notail",
                    };
                    word(format_args!("{kind}"));
                }
                _ => {}
            }
            if self.is_volatile_or_atomic() {
                let volatile = if LLVMGetVolatile(r) != 0 {
                    "volatile"
                } else {
                    ""
                };
                word(format_args!("{volatile}"));
                let ordering =
                    format!("{:?}", LLVMGetOrdering(r)).replace("LLVMAtomicOrdering", "");
                word(format_args!("{ordering}"));
            }
            if LLVMCanValueUseFastMathFlags(r) != 0 {
                let f = LLVMGetFastMathFlags(r);
                for (bit, name) in [
                    (llvm_sys::LLVMFastMathAllowReassoc, "reassoc"),
                    (llvm_sys::LLVMFastMathNoNaNs, "nnan"),
                    (llvm_sys::LLVMFastMathNoInfs, "ninf"),
                    (llvm_sys::LLVMFastMathNoSignedZeros, "nsz"),
                    (llvm_sys::LLVMFastMathAllowReciprocal, "arcp"),
                    (llvm_sys::LLVMFastMathAllowContract, "contract"),
                    (llvm_sys::LLVMFastMathApproxFunc, "afn"),
                ] {
                    if f & bit != 0 {
                        word(format_args!("{name}"));
                    }
                }
            }
        }
    }

    /// Swaps the operands of an icmp/fcmp and mirrors the predicate.
    pub fn swap_cmp_operands(self) {
        unsafe { shim::irgit_cmp_swap_operands(self.0.raw) }
    }

    /// For `alloca`: the allocated type as printed.
    pub fn allocated_type(self) -> Option<String> {
        (self.opcode() == LLVMOpcode::LLVMAlloca).then(|| unsafe {
            take_message(LLVMPrintTypeToString(LLVMGetAllocatedType(self.0.raw)))
        })
    }

    /// For `getelementptr`: the source element type as printed.
    pub fn gep_source_type(self) -> Option<String> {
        (self.opcode() == LLVMOpcode::LLVMGetElementPtr).then(|| unsafe {
            take_message(LLVMPrintTypeToString(LLVMGetGEPSourceElementType(
                self.0.raw,
            )))
        })
    }

    /// For `extractvalue` / `insertvalue`: the constant indices.
    pub(crate) fn aggregate_indices(self) -> Vec<u32> {
        match self.opcode() {
            LLVMOpcode::LLVMExtractValue | LLVMOpcode::LLVMInsertValue => unsafe {
                let n = LLVMGetNumIndices(self.0.raw);
                let p = LLVMGetIndices(self.0.raw);
                std::slice::from_raw_parts(p, n as usize).to_vec()
            },
            _ => Vec::new(),
        }
    }

    /// Volatile or ordered (atomic) memory access.
    pub(crate) fn is_volatile_or_atomic(self) -> bool {
        match self.opcode() {
            LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMStore => unsafe {
                LLVMGetVolatile(self.0.raw) != 0
                    || LLVMGetOrdering(self.0.raw)
                        != llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
            },
            _ => false,
        }
    }

    /// PHI incoming pairs in order.
    pub fn incoming(self) -> Vec<(Val, Block)> {
        unsafe {
            let n = LLVMCountIncoming(self.0.raw);
            (0..n)
                .map(|i| {
                    (
                        Val::wrap(LLVMGetIncomingValue(self.0.raw, i)),
                        Block::wrap(LLVMGetIncomingBlock(self.0.raw, i)),
                    )
                })
                .collect()
        }
    }

    /// Sets PHI incoming pair `i`.
    pub fn set_incoming(self, i: u32, v: Val, b: Block) {
        unsafe { shim::irgit_phi_set_incoming(self.0.raw, i, v.raw, b.raw) }
    }

    /// Moves the instruction to the end of its block (see [`reorder_block`]).
    pub(crate) fn move_to_block_end(self) {
        unsafe { shim::irgit_move_to_block_end(self.0.raw) }
    }

    /// Removes the instruction from its block and deletes it. It must have no uses.
    pub fn erase(self) {
        unsafe { LLVMInstructionEraseFromParent(self.0.raw) }
    }
}

/// Puts the instructions of one block in the given order. `order` must be a
/// permutation of the block's instructions.
pub fn reorder_block(order: &[Inst]) {
    for i in order {
        i.move_to_block_end();
    }
}
