//! The hashes the diff view of compiler output names its unnamed values
//! by: a value's role and place, never its operands' content.
//!
//! ```text
//! compiler output (old -> new)                       view (old and new)
//! %1 = call ptr @runtime.alloc(i32 8, ptr undef)     %call.44c1 = call ptr @runtime.alloc(...)
//!   -> call ptr @runtime.alloc(i32 8, ptr null, ...)
//! %2 = getelementptr inbounds i8, ptr %1, i32 4      %gep.761e = getelementptr inbounds i8, ptr %call.44c1, i32 4
//! %3 = load i32, ptr %2                              %ld.5a68 = load i32, ptr %gep.761e
//! ```
//!
//! A value's *role* is what it does and with what stable things: its
//! opcode; for a call, the function it calls (not its arguments); for an
//! `alloca`, the type it allocates (a struct by its name without a
//! numbering suffix); for anything else, its operands: an argument by its
//! position, a global or a block by its name, and a value computed in the
//! function by its shallow role (its opcode, callee and the arguments,
//! globals and blocks it uses), never by its name: renaming `%n` (or two
//! values swapping names) shows on the lines that name them, as in the
//! text. Constants, types, flags and call arguments stay out: changing one
//! of them changes its line, and no other. Two values of one role in a function are told apart by their
//! *local* facts (constants, indices, predicate, call arguments), but the
//! first of them in the canonical order keeps the plain role: a twin
//! added below it renames nothing. A value whose line has no such fact (a
//! load of a variable) is told apart by the roles of its users instead; a
//! call is not, so one gaining a user keeps its name. What is still alike
//! is numbered by place ([`super::naming`]: `.1`, `.2` in canonical order).
//!
//! The names depend on nothing the input's numbering or order decides
//! (the canonical order is the input's order's invariant), so two runs of
//! a compiler that differ only in those show no diff. The canonical form
//! keeps its content hashes ([`super::signature`]): only the view of
//! compiler output is named here.

use llvm_sys::LLVMOpcode;
use rustc_hash::FxHashMap as HashMap;

use super::blocks::Layout;
use super::instructions::is_commutative_binop;
use super::order::Positions;
use super::own_names::Kept;
use super::signature::{GlobalKeys, Signatures};
use crate::hash::StableHasher;
use crate::ir::{Func, Inst, TypeNames, Val, ValKind};

/// What naming a function's values by role reads.
pub(crate) struct RoleContext<'a> {
    pub func: Func,
    pub sigs: &'a Signatures,
    pub layout: &'a Layout,
    pub positions: &'a Positions,
    pub globals: &'a GlobalKeys,
}

/// The hash each instruction of `cx.sigs` is named by (same indexing as
/// `sigs.insts`; 0 for a value that keeps its own name or has none).
pub(crate) fn hashes(cx: &RoleContext<'_>) -> Vec<u64> {
    let sigs = cx.sigs;
    let mut describe = Describe {
        cx,
        types: TypeNames::structs_by_name(),
        shallow: HashMap::default(),
        arguments: (cx.func.params().into_iter())
            .enumerate()
            .map(|(position, p)| (p, position as u64))
            .collect(),
        uses: Vec::new(),
    };
    let roles: Vec<u64> = (0..sigs.insts.len())
        .map(|k| describe.role(k, true))
        .collect();
    let named: Vec<usize> = (0..sigs.insts.len())
        .filter(|&k| !sigs.voids[k] && !Kept::Own.keeps(&sigs.insts[k].val().name()))
        .collect();
    describe.uses = uses_by_role(sigs, &roles);
    // In canonical order: the first of a role keeps it; the others are
    // told apart by their local facts and their operands' names, given
    // before them (an operand defined later, through a phi, by its role).
    let place = |k: usize| {
        let v = sigs.insts[k].val();
        (cx.positions.get(&v).copied().unwrap_or(usize::MAX), k)
    };
    let mut named = named;
    named.sort_unstable_by_key(|&k| place(k));
    let mut out = vec![0u64; sigs.insts.len()];
    let mut taken: rustc_hash::FxHashSet<u64> = Default::default();
    for k in named {
        out[k] = match taken.insert(roles[k]) {
            true => roles[k],
            false => StableHasher::new()
                .u64(roles[k])
                .str("local")
                .u64(describe.local(k, &out))
                .finish(),
        };
    }
    out
}

/// Describes instructions and their operands by role.
struct Describe<'a, 'b> {
    cx: &'b RoleContext<'a>,
    types: TypeNames,
    /// Shallow roles already computed, by instruction index.
    shallow: HashMap<usize, u64>,
    /// Each argument's position among the function's parameters.
    arguments: HashMap<Val, u64>,
    /// How each instruction is used ([`uses_by_role`]).
    uses: Vec<Vec<(u64, u32)>>,
}

impl Describe<'_, '_> {
    /// The role of instruction `k`: its opcode, callee or allocated type,
    /// and the descriptors of its operands that are not constants. With
    /// `deep`, an operand computed in the function stands for its shallow
    /// role; without (the shallow role), only for being such a value, and
    /// an `alloca` for being one.
    fn role(&mut self, k: usize, deep: bool) -> u64 {
        let inst = self.cx.sigs.insts[k];
        let op = self.cx.sigs.opcodes[k];
        let mut h = StableHasher::new().str("role").str(inst.opcode_name());
        if let Some(callee) = callee_of(inst) {
            return h.str("calls").str(&callee).finish();
        }
        if op == LLVMOpcode::LLVMAlloca {
            // Its own name says what it holds; its users' names do not (a
            // stack object gaining a field renames no address into it).
            if let Some(t) = self.types.allocated(inst).filter(|_| deep) {
                h = h.str(&without_numbering(&t));
            }
            return h.finish();
        }
        let mut parts: Vec<u64> = Vec::new();
        if op == LLVMOpcode::LLVMPHI {
            for (v, b) in inst.incoming() {
                let block = self.leaf(b.as_val());
                parts.push(
                    StableHasher::new()
                        .u64(block)
                        .u64(self.operand(v, deep))
                        .finish(),
                );
            }
            parts.sort_unstable();
        } else {
            parts.extend(inst.iter_operands().map(|v| self.operand(v, deep)));
            if is_commutative_binop(op) || inst.predicate_name().is_some() {
                parts.sort_unstable();
            }
        }
        for part in parts {
            h = h.u64(part);
        }
        h.finish()
    }

    /// An operand's part of a role: an instruction by its shallow role (or,
    /// not `deep`, by being one), whatever its name: a name enters no other
    /// value's name, so renaming a value (or two swapping names) shows on
    /// the lines that name it, as in the text. Anything else by [`leaf`].
    fn operand(&mut self, v: Val, deep: bool) -> u64 {
        let Some(&j) = self.cx.sigs.index.get(&v) else {
            return self.leaf(v);
        };
        if !deep {
            return StableHasher::new().str("value").finish();
        }
        if let Some(&h) = self.shallow.get(&j) {
            return h;
        }
        let h = self.role(j, false);
        self.shallow.insert(j, h);
        h
    }

    /// An argument by its position, a block by its name, a global by its
    /// name (a constant one by nothing), a constant by nothing: its value
    /// is a local fact.
    fn leaf(&self, v: Val) -> u64 {
        let h = StableHasher::new();
        match v.kind() {
            ValKind::Argument => h.str("a").u64(self.arguments.get(&v).copied().unwrap_or(0)),
            ValKind::BasicBlock => {
                let b = v.as_block().expect("a block value is a block");
                h.str("b").str(self.cx.layout.name(b))
            }
            ValKind::Function
            | ValKind::GlobalVariable
            | ValKind::GlobalAlias
            | ValKind::GlobalIFunc => {
                let name = v.name();
                let numbered = name.bytes().all(|b| b.is_ascii_digit());
                match self.cx.globals.is_private_constant(v) || numbered {
                    true => h.str("@constant"),
                    false => h.str("@").str(&name),
                }
            }
            ValKind::Metadata => h.str("m"),
            // An instruction of another function cannot be an operand.
            ValKind::Instruction => h.str("i"),
            ValKind::ConstantInt
            | ValKind::ConstantFP
            | ValKind::OtherConstant
            | ValKind::InlineAsm => h.str("c"),
        }
        .finish()
    }

    /// What tells apart values of one role: constants by value, operands
    /// computed in the function by the names `named` gave them (one with a
    /// name of the file's own by its role: a swap of two names renames no
    /// user), aggregate indices, the compare predicate, for an `alloca`
    /// how it is used ([`super::variables`]), and, for a value whose line
    /// has no constant (a load of a variable: what it is used for is all
    /// that tells it apart), or an `alloca`, the roles of its users. A
    /// value that has constants goes by them, not by its users, which are
    /// facts of other lines: `runtime.alloc(i32 12, ...)` gaining a user
    /// keeps its name.
    fn local(&mut self, k: usize, named: &[u64]) -> u64 {
        let inst = self.cx.sigs.insts[k];
        let mut h = StableHasher::new().str("local");
        let alloca = self.cx.sigs.opcodes[k] == LLVMOpcode::LLVMAlloca;
        if alloca {
            h = h.u64(self.cx.sigs.full[k]);
        }
        let mut constants = false;
        for v in inst.iter_operands() {
            let part = match (v.kind(), self.cx.sigs.index.get(&v)) {
                (ValKind::Instruction, Some(&j)) if named[j] != 0 => named[j],
                (
                    ValKind::ConstantInt
                    | ValKind::ConstantFP
                    | ValKind::OtherConstant
                    | ValKind::InlineAsm,
                    _,
                ) => {
                    constants = true;
                    self.cx.sigs.operand_hash(v)
                }
                _ => self.operand(v, true),
            };
            h = h.u64(part);
        }
        for i in inst.aggregate_indices() {
            h = h.u64(i as u64);
        }
        if let Some(p) = inst.predicate_name() {
            h = h.str(p);
        }
        if alloca || !constants {
            for &(role, at) in &self.uses[k] {
                h = h.u64(role).u64(at as u64);
            }
        }
        h.finish()
    }
}

/// For each instruction, the set of (role of a user, operand position)
/// that use it, sorted: what it is used for, not what its users compute
/// (two loads of one variable, one feeding `x + 1` and one `x + n`, are
/// told apart without their places).
fn uses_by_role(sigs: &Signatures, roles: &[u64]) -> Vec<Vec<(u64, u32)>> {
    let mut uses: Vec<Vec<(u64, u32)>> = vec![Vec::new(); sigs.insts.len()];
    for (u, inst) in sigs.insts.iter().enumerate() {
        for (at, v) in inst.iter_operands().enumerate() {
            if let Some(&j) = sigs.index.get(&v) {
                uses[j].push((roles[u], at as u32));
            }
        }
    }
    for list in &mut uses {
        list.sort_unstable();
        list.dedup();
    }
    uses
}

/// The function a call calls, or `indirect`; `None` for anything else.
fn callee_of(inst: Inst) -> Option<String> {
    use LLVMOpcode::*;
    if !matches!(inst.opcode(), LLVMCall | LLVMInvoke | LLVMCallBr) {
        return None;
    }
    Some(inst.callee_name().unwrap_or_else(|| "indirect".to_string()))
}

/// A type key without the numbering suffixes of struct names
/// (`%main.Point.0` -> `%main.Point`): LLVM appends them where two types
/// would share a name, and another type going away drops them.
fn without_numbering(key: &str) -> String {
    let bytes = key.as_bytes();
    let mut out = String::with_capacity(key.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'.' {
            let digits = bytes[at + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let end = at + 1 + digits;
            let ends_name = end == bytes.len() || !is_name_byte(bytes[end]);
            if digits > 0 && ends_name {
                at = end;
                continue;
            }
        }
        let c = key[at..].chars().next().expect("a character at a boundary");
        out.push(c);
        at += c.len_utf8();
    }
    out
}

/// Whether `b` can continue a struct type's name.
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"._$-".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_suffixes_of_struct_names_are_left_out() {
        assert_eq!(without_numbering("%main.Point.0"), "%main.Point");
        assert_eq!(
            without_numbering("%{ %main.kv.12, [_ x i32] }"),
            "%{ %main.kv, [_ x i32] }"
        );
        assert_eq!(without_numbering("%\"a.b.3\""), "%\"a.b\"");
        assert_eq!(without_numbering("%v1.2x"), "%v1.2x");
        assert_eq!(without_numbering("double"), "double");
    }
}
