//! Content keys for what LLVM prints by *number*: unnamed struct types
//! (`%0 = type { ... }`) and unnamed globals and functions (`@0`). The
//! number is a position (the order of first use, the order in the module),
//! not an identity: a hash built from it changes when anything before it
//! moves, and canonicalizing twice gives different names. The keys here
//! stand for such an entity by what it *is*.
//!
//! ```text
//! %0 = type { i32, i64 }            type key of %0:  %{ i32, i64 }
//! @0 = internal global %0 zeroinit  key of @0:       @#5c1d09a2e4f7b813  (hash of kind, linkage, type, initializer)
//! %v = load %0, ptr @0              hashed as:       load %{ i32, i64 }, ptr @#5c1d09a2e4f7b813
//! ```
//!
//! LLVM prints an unnamed struct type that is not part of a whole module's
//! printout as `%"type 0x55d8..."`: a heap address, different on every run.
//! Printed constants refer to unnamed globals as `@3`. `type_key` and
//! [`UnnamedGlobals::text_key_with`] take LLVM's own text and replace exactly
//! those two kinds of token (outside quoted strings) by content keys; text
//! without them is returned unchanged, so every other hash stays as it was.

use std::collections::BTreeMap;
use std::ffi::CStr;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMTypeKind;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{Block, Func, Inst, Val};

extern "C" {
    fn irgit_operand_texts(vals: *const LLVMValueRef, n: usize) -> *mut std::os::raw::c_char;
}

/// The marker LLVM prints for an unnamed struct type outside a module printout.
const TYPE_PLACEHOLDER: &str = "%\"type 0x";

fn print_type(ty: LLVMTypeRef) -> String {
    unsafe { super::take_message(LLVMPrintTypeToString(ty)) }
}

fn is_identified_struct(ty: LLVMTypeRef) -> bool {
    unsafe {
        LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMStructTypeKind && LLVMIsLiteralStruct(ty) == 0
    }
}

fn struct_name(ty: LLVMTypeRef) -> Option<String> {
    let p = unsafe { LLVMGetStructName(ty) };
    if p.is_null() {
        return None;
    }
    let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    (!s.is_empty()).then_some(s)
}

fn subtypes(ty: LLVMTypeRef) -> Vec<LLVMTypeRef> {
    unsafe {
        let n = LLVMGetNumContainedTypes(ty) as usize;
        let mut out = vec![std::ptr::null_mut(); n];
        if n > 0 {
            LLVMGetSubtypes(ty, out.as_mut_ptr());
        }
        out
    }
}

/// How `ty` is spelled where it is *referred to*: a named struct by its
/// name, an unnamed one by its body (recursively), anything else as LLVM
/// prints it with unnamed structs inside replaced by their bodies.
fn type_ref_key(ty: LLVMTypeRef, depth: usize) -> String {
    BodyKeys::default().ref_key(ty, depth)
}

/// How `ty` is spelled where it is referred to ([`type_ref_key`]): a named
/// struct by its name alone (`%T`), whatever its fields.
pub(crate) fn type_ref_key_top(ty: LLVMTypeRef) -> String {
    type_ref_key(ty, 0)
}

/// A body spelled longer than this is keyed by its hash instead
/// (`%{#5c1d09a2e4f7b813}`): unnamed structs that each hold several of the
/// next one (`%0 = type { %1, %1 }`, `%1 = type { %2, %2 }`, …) spell out
/// to a text that doubles with each level.
const LONGEST_BODY: usize = 1 << 16;

/// The bodies of unnamed structs met while keying one type, each spelled
/// once: a type that many fields share is not spelled again for each.
#[derive(Default)]
struct BodyKeys {
    spelled: HashMap<(usize, usize), String>,
}

impl BodyKeys {
    fn ref_key(&mut self, ty: LLVMTypeRef, depth: usize) -> String {
        if is_identified_struct(ty) {
            if let Some(name) = struct_name(ty) {
                return format!("%{name}");
            }
            return self.body(ty, depth);
        }
        self.rewrite_from(&print_type(ty), &[ty], depth)
    }

    /// `%{ i32, %{ i8 } }`, `%<{ i8, i8 }>` (packed), `%opaque`. LLVM 22 has
    /// no typed pointers, so a struct cannot contain itself; the depth bound
    /// only keeps a malformed context from recursing forever.
    fn body(&mut self, ty: LLVMTypeRef, depth: usize) -> String {
        if depth > 32 {
            return "%{...}".to_string();
        }
        if let Some(known) = self.spelled.get(&(ty as usize, depth)) {
            return known.clone();
        }
        let spelled = self.spell_body(ty, depth);
        let spelled = if spelled.len() > LONGEST_BODY {
            format!("%{{#{:016x}}}", crate::hash::hash_str(&spelled))
        } else {
            spelled
        };
        self.spelled.insert((ty as usize, depth), spelled.clone());
        spelled
    }

    fn spell_body(&mut self, ty: LLVMTypeRef, depth: usize) -> String {
        unsafe {
            if LLVMIsOpaqueStruct(ty) != 0 {
                return "%opaque".to_string();
            }
            let elems: Vec<String> = subtypes(ty)
                .into_iter()
                .map(|e| self.ref_key(e, depth + 1))
                .collect();
            if LLVMIsPackedStruct(ty) != 0 {
                format!("%<{{ {} }}>", elems.join(", "))
            } else {
                format!("%{{ {} }}", elems.join(", "))
            }
        }
    }

    /// `text` with the placeholders of unnamed structs reachable from
    /// `roots` replaced by their bodies.
    fn rewrite_from(&mut self, text: &str, roots: &[LLVMTypeRef], depth: usize) -> String {
        if !text.contains(TYPE_PLACEHOLDER) {
            return text.to_string();
        }
        let map = unnamed_structs_of(roots);
        rewrite(text, |tok| {
            tok.starts_with('%').then(|| match map.get(tok) {
                Some(&t) => self.body(t, depth + 1),
                None => "%{?}".to_string(),
            })
        })
    }
}

/// The unnamed identified structs reachable from `roots`, keyed by the
/// placeholder LLVM prints for them.
fn unnamed_structs_of(roots: &[LLVMTypeRef]) -> HashMap<String, LLVMTypeRef> {
    let mut seen = HashSet::default();
    let mut map = HashMap::default();
    for &r in roots {
        collect_unnamed_structs(r, &mut seen, &mut map);
    }
    map
}

/// Unnamed identified structs reachable from `ty`, keyed by the placeholder
/// LLVM prints for them.
fn collect_unnamed_structs(
    ty: LLVMTypeRef,
    seen: &mut HashSet<usize>,
    out: &mut HashMap<String, LLVMTypeRef>,
) {
    if !seen.insert(ty as usize) {
        return;
    }
    if is_identified_struct(ty) && struct_name(ty).is_none() {
        // raw_ostream prints a pointer as lower-case hex with a 0x prefix.
        out.insert(format!("{TYPE_PLACEHOLDER}{:x}\"", ty as usize), ty);
    }
    for s in subtypes(ty) {
        collect_unnamed_structs(s, seen, out);
    }
}

/// The content key of a type: LLVM's spelling, with every unnamed struct
/// replaced by its body. A top-level identified struct is spelled as LLVM
/// prints it alone (`%T = type { ... }`), so named types hash as they
/// always did.
pub(crate) fn type_key(ty: LLVMTypeRef) -> String {
    let mut keys = BodyKeys::default();
    if is_identified_struct(ty) && struct_name(ty).is_none() {
        return keys.body(ty, 0);
    }
    keys.rewrite_from(&print_type(ty), &[ty], 0)
}

/// Calls `replace` on every `%"type 0x..."` token and every global
/// reference (`@3`, `@.str.1`, `@"a b"`) of `text` that is not inside a
/// quoted string; `None` keeps the token.
fn rewrite(text: &str, mut replace: impl FnMut(&str) -> Option<String>) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        let (start, end) = if text[i..].starts_with(TYPE_PLACEHOLDER) {
            let close = text[i + 2..].find('"').map_or(b.len(), |k| i + 2 + k + 1);
            (i, close)
        } else if b[i] == b'"' {
            // A quoted name or string constant: skip it whole (LLVM escapes
            // a quote inside as \22, so the next quote closes it).
            i = text[i + 1..].find('"').map_or(b.len(), |k| i + 1 + k + 1);
            continue;
        } else if b[i] == b'@' && b.get(i + 1) == Some(&b'"') {
            let close = text[i + 2..].find('"').map_or(b.len(), |k| i + 2 + k + 1);
            (i, close)
        } else if b[i] == b'@' && b.get(i + 1).is_some_and(|&c| is_name_char(c)) {
            let len = b[i + 1..].iter().take_while(|&&c| is_name_char(c)).count();
            (i, i + 1 + len)
        } else {
            i += 1;
            continue;
        };
        if let Some(r) = replace(&text[start..end]) {
            out.push_str(&text[copied..start]);
            out.push_str(&r);
            copied = end;
        }
        i = end;
    }
    out.push_str(&text[copied..]);
    out
}

/// A character of an unquoted LLVM identifier (`[-a-zA-Z$._0-9]`).
fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_')
}

impl Val {
    /// The content key of the value's type (see `content::type_key`).
    pub fn type_key(self) -> String {
        type_key(unsafe { LLVMTypeOf(self.raw) })
    }

    /// The module a global value, argument or instruction belongs to.
    fn parent_module(self) -> LLVMModuleRef {
        unsafe {
            if !LLVMIsAGlobalValue(self.raw).is_null() {
                LLVMGetGlobalParent(self.raw)
            } else {
                std::ptr::null_mut()
            }
        }
    }
}

impl Inst {
    /// For `alloca`: the content key of the allocated type.
    pub fn allocated_type_key(self) -> Option<String> {
        (self.opcode() == llvm_sys::LLVMOpcode::LLVMAlloca)
            .then(|| type_key(unsafe { LLVMGetAllocatedType(self.0.raw) }))
    }

    /// For `getelementptr`: the content key of the source element type.
    pub fn gep_source_type_key(self) -> Option<String> {
        (self.opcode() == llvm_sys::LLVMOpcode::LLVMGetElementPtr)
            .then(|| type_key(unsafe { LLVMGetGEPSourceElementType(self.0.raw) }))
    }
}

/// Types a constant's printed text can mention: its own type, every
/// operand's (recursively, not into globals' initializers) and the source
/// element types of `getelementptr` expressions.
fn constant_types(v: LLVMValueRef, out: &mut Vec<LLVMTypeRef>, seen: &mut HashSet<usize>) {
    if !seen.insert(v as usize) || out.len() > 4096 {
        return;
    }
    unsafe {
        out.push(LLVMTypeOf(v));
        if !LLVMIsAGlobalValue(v).is_null() {
            return;
        }
        if !LLVMIsAConstantExpr(v).is_null()
            && LLVMGetConstOpcode(v) == llvm_sys::LLVMOpcode::LLVMGetElementPtr
        {
            out.push(LLVMGetGEPSourceElementType(v));
        }
        if !LLVMIsAUser(v).is_null() {
            for k in 0..LLVMGetNumOperands(v).max(0) as u32 {
                let o = LLVMGetOperand(v, k);
                if !o.is_null() && !LLVMIsAConstant(o).is_null() {
                    constant_types(o, out, seen);
                }
            }
        }
    }
}

/// The `blockaddress` constants inside constant `v`: (function, block,
/// LLVM's text for the constant).
fn block_addresses(v: Val) -> Vec<(Func, Block, String)> {
    fn walk(v: LLVMValueRef, seen: &mut HashSet<usize>, out: &mut Vec<(Func, Block, String)>) {
        if !seen.insert(v as usize) || seen.len() > 4096 {
            return;
        }
        unsafe {
            if LLVMGetValueKind(v) == llvm_sys::LLVMValueKind::LLVMBlockAddressValueKind {
                let f = Func(Val::wrap(LLVMGetBlockAddressFunction(v)));
                let b = Block::wrap(LLVMGetBlockAddressBasicBlock(v));
                out.push((f, b, Val::wrap(v).print()));
                return;
            }
            if !LLVMIsAGlobalValue(v).is_null() || LLVMIsAUser(v).is_null() {
                return;
            }
            for k in 0..LLVMGetNumOperands(v).max(0) as u32 {
                let o = LLVMGetOperand(v, k);
                if !o.is_null() && !LLVMIsAConstant(o).is_null() {
                    walk(o, seen, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(v.raw, &mut HashSet::default(), &mut out);
    out
}

/// The unnamed globals, functions, aliases and ifuncs of one module (and,
/// on request, the private ones), each with a content key, and the text
/// LLVM prints for a reference to each.
#[derive(Default)]
pub(crate) struct UnnamedGlobals {
    key: HashMap<Val, String>,
    by_text: HashMap<String, String>,
}

impl UnnamedGlobals {
    /// Computes the keys of the unnamed globals of the module `f` belongs
    /// to; `block_key` spells the blocks of `blockaddress` constants (see
    /// [`Self::text_key_with`]).
    pub(crate) fn of_function(
        f: Func,
        block_key: &mut dyn FnMut(Func, Block) -> Option<u64>,
    ) -> Self {
        Self::of_raw_module(f.0.parent_module(), false, block_key)
    }

    /// Computes the keys of a module's unnamed globals and, `with_private`,
    /// of its private ones too (whose names are as arbitrary: `.str.7`).
    pub(crate) fn of_module(
        m: &super::IrModule<'_>,
        with_private: bool,
        block_key: &mut dyn FnMut(Func, Block) -> Option<u64>,
    ) -> Self {
        Self::of_raw_module(m.raw(), with_private, block_key)
    }

    fn of_raw_module(
        m: LLVMModuleRef,
        with_private: bool,
        block_key: &mut dyn FnMut(Func, Block) -> Option<u64>,
    ) -> Self {
        if m.is_null() {
            return Self::default();
        }
        let mut unnamed: Vec<Val> = Vec::new();
        unsafe {
            type Next = unsafe extern "C" fn(LLVMValueRef) -> LLVMValueRef;
            let lists: [(LLVMValueRef, Next); 4] = [
                (LLVMGetFirstGlobal(m), LLVMGetNextGlobal),
                (LLVMGetFirstFunction(m), LLVMGetNextFunction),
                (LLVMGetFirstGlobalAlias(m), LLVMGetNextGlobalAlias),
                (LLVMGetFirstGlobalIFunc(m), LLVMGetNextGlobalIFunc),
            ];
            for (first, next) in lists {
                let mut g = first;
                while !g.is_null() {
                    let v = Val::wrap(g);
                    if v.name().is_empty() || (with_private && v.is_private_linkage()) {
                        unnamed.push(v);
                    }
                    g = next(g);
                }
            }
        }
        if unnamed.is_empty() {
            return Self::default();
        }
        let raws: Vec<LLVMValueRef> = unnamed.iter().map(|v| v.raw).collect();
        let texts = unsafe { super::take_message(irgit_operand_texts(raws.as_ptr(), raws.len())) };
        let texts: Vec<String> = texts.lines().map(str::to_string).collect();
        // Round 1: references to other unnamed globals are all alike; round
        // 2 tells them apart by their round-1 keys.
        let mut keys = Self::default();
        for round in 0..2 {
            let mut next = Self::default();
            for (k, &g) in unnamed.iter().enumerate() {
                let own = keys.shape(g, round > 0, block_key);
                let key = format!("@#{:016x}", crate::hash::hash_str(&own));
                if let Some(t) = texts.get(k) {
                    next.by_text.insert(t.clone(), key.clone());
                }
                next.key.insert(g, key);
            }
            keys = next;
        }
        keys
    }

    /// What an unnamed global is, as text: its kind, linkage, constness,
    /// value type and initializer (or aliasee); for a function, its
    /// signature and the multiset of its instructions' opcodes.
    fn shape(
        &self,
        g: Val,
        refine: bool,
        block_key: &mut dyn FnMut(Func, Block) -> Option<u64>,
    ) -> String {
        use super::ValKind;
        let mut s = format!("{:?} ", g.kind());
        unsafe {
            s.push_str(&format!("{:?} ", LLVMGetLinkage(g.raw)));
            s.push_str(&type_key(LLVMGlobalGetValueType(g.raw)));
        }
        let target = match g.kind() {
            ValKind::GlobalVariable => {
                s.push_str(if g.is_constant_global() {
                    " const"
                } else {
                    " var"
                });
                g.initializer()
            }
            ValKind::GlobalAlias => {
                let a = unsafe { LLVMAliasGetAliasee(g.raw) };
                (!a.is_null()).then(|| Val::wrap(a))
            }
            ValKind::GlobalIFunc => {
                let r = unsafe { LLVMGetGlobalIFuncResolver(g.raw) };
                (!r.is_null()).then(|| Val::wrap(r))
            }
            ValKind::Function => {
                let f = Func(g);
                let mut ops: BTreeMap<&'static str, usize> = BTreeMap::new();
                for b in f.blocks() {
                    for i in b.iter_instructions() {
                        *ops.entry(i.opcode_name()).or_default() += 1;
                    }
                }
                for (op, n) in ops {
                    s.push_str(&format!(" {op}:{n}"));
                }
                None
            }
            _ => None,
        };
        if let Some(t) = target {
            s.push(' ');
            let known = if refine { self } else { &Self::default() };
            s.push_str(&known.text_key_with(t, block_key));
        }
        s
    }

    /// The key that stands for `v` when it is an unnamed global (`None` for
    /// anything else).
    pub(crate) fn key(&self, v: Val) -> Option<&str> {
        self.key.get(&v).map(String::as_str)
    }

    /// LLVM's text for a constant (or inline asm), with unnamed structs and
    /// references to unnamed globals replaced by their content keys
    /// (references not known here, in round 1, become `@?`), and the block
    /// of each `blockaddress(@f, %bb)` spelled `^<key>` by `block_key(f, bb)`:
    /// a block's printed name is the input's until its function is
    /// canonicalized (`^?` where `block_key` has none).
    pub(crate) fn text_key_with(
        &self,
        v: Val,
        block_key: &mut dyn FnMut(Func, Block) -> Option<u64>,
    ) -> String {
        let mut text = v.print();
        if text.contains("blockaddress(") {
            for (f, b, printed) in block_addresses(v) {
                let Some(at) = printed.find("blockaddress(") else {
                    continue;
                };
                let seg = &printed[at..];
                let Some(comma) = seg.rfind(", ") else {
                    continue;
                };
                let key = block_key(f, b).map_or("?".to_string(), |k| format!("{k:016x}"));
                text = text.replace(seg, &format!("{}, ^{key})", &seg[..comma]));
            }
        }
        let has_types = text.contains(TYPE_PLACEHOLDER);
        let has_globals = text.contains('@');
        if !has_types && !has_globals {
            return text;
        }
        let mut types = Vec::new();
        if has_types {
            constant_types(v.raw, &mut types, &mut HashSet::default());
        }
        let map = unnamed_structs_of(&types);
        let mut keys = BodyKeys::default();
        rewrite(&text, |tok| {
            if let Some(name) = tok.strip_prefix('@') {
                let numbered = name.bytes().all(|c| c.is_ascii_digit());
                self.by_text
                    .get(tok)
                    .cloned()
                    .or_else(|| numbered.then(|| "@?".into()))
            } else {
                Some(match map.get(tok) {
                    Some(&t) => keys.body(t, 1),
                    None => "%{?}".to_string(),
                })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{rewrite, LONGEST_BODY};

    /// Unnamed structs nested `levels` deep, each holding eight of the next
    /// (`%0 = type { %1, %1, … }`), and a global of the outermost.
    fn nested_types(levels: usize) -> String {
        let mut text = String::new();
        for level in 0..levels {
            let field = format!("%{}", level + 1);
            let fields = [field.as_str(); 8].join(", ");
            text.push_str(&format!("%{level} = type {{ {fields} }}\n"));
        }
        text.push_str(&format!("%{levels} = type {{ i8 }}\n"));
        text.push_str("@g = global %0 zeroinitializer\n");
        text
    }

    /// Its body spelled out would be 8^7 fields (about 14 MB per key);
    /// each type is spelled once, and a body past the bound is its hash.
    #[test]
    fn a_type_nested_eightfold_has_a_bounded_key() {
        let session = crate::ir::Session::new();
        let module = session
            .parse(nested_types(7).as_bytes(), "nested.ll")
            .expect("the module parses");
        let global = module.globals().into_iter().next().expect("@g");
        let key = global.type_key();
        assert!(key.starts_with("ptr"), "{key}");
        let value_type =
            super::type_key(unsafe { llvm_sys::core::LLVMGlobalGetValueType(global.raw) });
        assert!(
            value_type.len() <= 9 * LONGEST_BODY,
            "{} bytes",
            value_type.len()
        );
        assert!(value_type.contains("%{#"), "no body is keyed by its hash");
    }

    #[test]
    fn rewrite_skips_quoted_text_and_keeps_other_tokens() {
        let text = r#"{ ptr @3, [4 x i8] c"@1\22" , ptr @"x y", ptr @.str.2, %"type 0x1f" }"#;
        let got = rewrite(text, |t| Some(format!("<{t}>")));
        assert_eq!(
            got,
            r#"{ ptr <@3>, [4 x i8] c"@1\22" , ptr <@"x y">, ptr <@.str.2>, <%"type 0x1f"> }"#
        );
        let kept = rewrite("ptr @a, ptr @b", |t| (t == "@b").then(|| "B".into()));
        assert_eq!(kept, "ptr @a, ptr B");
        assert_eq!(rewrite("i32 7", |_| Some("x".into())), "i32 7");
    }
}
