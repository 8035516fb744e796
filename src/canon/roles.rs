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
//! *local* facts (constants, `undef` and `poison` alike; indices, predicate, call arguments), but the
//! first of them in the canonical order keeps the plain role: a twin
//! added below it renames nothing. A value whose line has no such fact (a
//! load of a variable) is told apart by the roles of its users instead; a
//! call is not, so one gaining a user keeps its name. A read of a variable
//! never keeps the plain role (all reads share it: the first read of the
//! function would have it), and a value stored into a variable, used
//! nowhere else, has that variable and the variables its operands read in
//! its role: `x = a + 1` and `y = b + 1` are no twins. What is still alike
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
use super::instructions::{is_commutative_binop, is_compare, OperandTable, NOT_LOCAL};
use super::order::Positions;
use super::own_names::InputName;
use super::signature::{GlobalKeys, Signatures};
use crate::hash::StableHasher;
use crate::ir::{Func, Inst, TypeNames, Val, ValKind};

/// What naming a function's values by role reads.
pub(crate) struct RoleContext<'a> {
    pub func: Func,
    pub sigs: &'a Signatures,
    pub layout: &'a Layout,
    pub positions: &'a Positions,
    /// The operands as they stand once ordered.
    pub operands: &'a OperandTable,
    pub globals: &'a GlobalKeys,
    /// The input name of each instruction (same indexing as `sigs.insts`).
    pub input_names: &'a [InputName],
}

/// The hash each instruction of `cx.sigs` is named by (same indexing as
/// `sigs.insts`; 0 for a value that keeps its own name or has none).
pub(crate) fn hashes(cx: &RoleContext<'_>) -> Vec<u64> {
    let sigs = cx.sigs;
    let count = sigs.insts.len();
    let mut describe = Describe {
        cx,
        operands: cx.operands,
        types: TypeNames::structs_by_name(),
        shallow: Vec::new(),
        arguments: (cx.func.params().into_iter())
            .enumerate()
            .map(|(position, p)| (p, position as u64))
            .collect(),
        leaves: HashMap::default(),
        any_value: StableHasher::new().str("value").finish(),
        uses: UsesByRole::default(),
        variable_uses: UsesByRole::default(),
        slot_leaves: vec![None; cx.operands.values.len()],
        prefixes: Vec::new(),
        parts: Vec::new(),
    };
    // Every shallow role first, in order: the roles then read them from
    // one dense list instead of reaching into each operand's instruction.
    let shallow: Vec<u64> = (0..count).map(|k| describe.role(k, false)).collect();
    describe.shallow = shallow;
    let roles: Vec<u64> = (0..count).map(|k| describe.role(k, true)).collect();
    describe.uses = UsesByRole::collect(describe.operands, &roles);
    describe.variable_uses = UsesByRole::collect(describe.operands, &describe.shallow);
    // In canonical order: the first of a role keeps it; the others are
    // told apart by their local facts and their operands' names, given
    // before them (an operand defined later, through a phi, by its role).
    // A read of a variable never keeps it: every read of every variable
    // has one role, so the first would be whichever read comes first in
    // the function, and a statement added above it would take its name.
    let mut named: Vec<(usize, usize)> = (0..count)
        .filter(|&k| !sigs.voids[k] && cx.input_names[k] != InputName::Own)
        .map(|k| (cx.positions.of(k).unwrap_or(usize::MAX), k))
        .collect();
    named.sort_unstable();
    let mut out = vec![0u64; count];
    let mut taken: rustc_hash::FxHashSet<u64> = Default::default();
    for (_, k) in named {
        let role = describe.with_its_variables(k, roles[k], &out);
        let first = taken.insert(role);
        out[k] = match first && !describe.reads_a_variable(k) {
            true => role,
            false => StableHasher::new()
                .u64(role)
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
    operands: &'b OperandTable,
    types: TypeNames,
    /// The shallow role of each instruction, by index (empty while they
    /// are computed).
    shallow: Vec<u64>,
    /// Each argument's position among the function's parameters.
    arguments: HashMap<Val, u64>,
    /// The [`Describe::leaf`] of blocks and globals already described.
    leaves: HashMap<Val, u64>,
    /// What any computed operand stands for in a shallow role.
    any_value: u64,
    /// How each instruction is used ([`UsesByRole`]).
    uses: UsesByRole,
    /// How each variable is used, by its users' shallow roles (a store of
    /// a constant, an argument or a computed value; a load), not by what
    /// the value stored computes: `j = n - 1` made `j = n + 1` renames
    /// neither `j` nor any read of it. Variables alike in that go by their
    /// identity ([`super::variables`]).
    variable_uses: UsesByRole,
    /// Each operand slot's leaf, once read ([`Describe::leaf_at`]).
    slot_leaves: Vec<Option<SlotLeaf>>,
    /// The start of the roles of each opcode ([`Describe::role_prefix`]).
    prefixes: Vec<Option<StableHasher>>,
    /// The parts of the role being computed (one buffer for all).
    parts: Vec<u64>,
}

/// What an operand that is not an instruction of the function stands for
/// in a role, and whether it is a constant.
#[derive(Clone, Copy)]
struct SlotLeaf {
    hash: u64,
    constant: bool,
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
        let mut h = self.role_prefix(op);
        if let Some(callee) = callee_of(inst, op) {
            return h.str("calls").str(&callee).finish();
        }
        if op == LLVMOpcode::LLVMAlloca {
            // Its own name says what it holds; its users' names do not (a
            // stack object gaining a field renames no address into it).
            if let Some(t) = self.types.allocated(inst).filter(|_| deep) {
                h = h.str(&without_numbering(&t));
            }
            // clang's return slot, added above the variables when a
            // function gains a `return`, is a role of its own: it takes
            // no variable's name (the first of a role keeps it).
            if deep && super::variables::is_return_slot(inst) {
                h = h.str("return slot");
            }
            return h.finish();
        }
        let mut parts = std::mem::take(&mut self.parts);
        parts.clear();
        if op == LLVMOpcode::LLVMPHI {
            // A phi's operands are its incoming values, in order.
            let blocks = inst.incoming().into_iter().map(|(_, b)| b);
            for (at, b) in self.operands.range(k).zip(blocks) {
                let block = self.leaf(b.as_val());
                let part = StableHasher::new().u64(block).u64(self.operand(at, deep));
                parts.push(part.finish());
            }
            parts.sort_unstable();
        } else {
            for at in self.operands.range(k) {
                parts.push(self.operand(at, deep));
            }
            if is_commutative_binop(op) || is_compare(op) {
                parts.sort_unstable();
            }
        }
        for &part in &parts {
            h = h.u64(part);
        }
        self.parts = parts;
        h.finish()
    }

    /// The role of a value stored into a variable and used nowhere else
    /// (at -O0, what a statement computes): its `role`, that variable's
    /// name in `named`, and the names of the variables its operands read.
    /// `x = a + 1`, `y = b + 1` and `x = x + 1` are then no twins, and a
    /// statement added above one takes no name of the others'.
    fn with_its_variables(&self, k: usize, role: u64, named: &[u64]) -> u64 {
        let sigs = self.cx.sigs;
        let Some(target) = self.stored_into(sigs.insts[k], named) else {
            return role;
        };
        let mut h = StableHasher::new().u64(role).str("stored in").u64(target);
        for at in self.operands.range(k) {
            let j = self.operands.local[at];
            if j != NOT_LOCAL && sigs.opcodes[j as usize] == LLVMOpcode::LLVMLoad {
                let read = sigs.insts[j as usize].operand(0);
                h = h.u64(self.variable_at(read, named).unwrap_or(0));
            }
        }
        h.finish()
    }

    /// The name in `named` of `v` when it is a named `alloca` of the
    /// function.
    fn variable_at(&self, v: Val, named: &[u64]) -> Option<u64> {
        let sigs = self.cx.sigs;
        let j = sigs.index.get(&v).copied()?;
        (sigs.opcodes[j] == LLVMOpcode::LLVMAlloca && named[j] != 0).then_some(named[j])
    }

    /// What tells a read of a variable apart, added to `h`: for each use,
    /// the kind of operation (arithmetic and compares each one kind, so
    /// an operator changed renames no read), the operand position, and the
    /// variable the result is stored into (`named`), or, for a store, the
    /// variable stored to: `x = n - 1` made `x = n + 1` renames no read.
    fn read_uses(&self, k: usize, mut h: StableHasher, named: &[u64]) -> u64 {
        let mut parts: Vec<u64> = (self.cx.sigs.insts[k].val().uses().into_iter())
            .filter_map(|(user, at)| Some((user.as_inst()?, at)))
            .map(|(user, at)| {
                let op = user.opcode();
                let mut part = StableHasher::new()
                    .str(kind_of_operation(op))
                    .u64(at as u64);
                // The other operands' kinds: `n < 0` is not `n < m`.
                for other in (0..user.num_operands()).filter(|&o| o != at) {
                    part = part.u64(user.operand(other).kind() as u64);
                }
                if let Some(callee) = callee_of(user, op) {
                    part = part.str(&callee);
                }
                let target = match op {
                    LLVMOpcode::LLVMStore => self.variable_at(user.operand(1), named),
                    _ => self.stored_into(user, named),
                };
                part.u64(target.unwrap_or(0)).finish()
            })
            .collect();
        parts.sort_unstable();
        parts.dedup();
        for part in parts {
            h = h.u64(part);
        }
        h.finish()
    }

    /// The name in `named` of the variable `value` is stored into, when
    /// that store is its one use.
    fn stored_into(&self, value: Inst, named: &[u64]) -> Option<u64> {
        let uses = value.val().uses();
        let [(user, 0)] = uses[..] else {
            return None;
        };
        let store = user
            .as_inst()
            .filter(|s| s.opcode() == LLVMOpcode::LLVMStore)?;
        self.variable_at(store.operand(1), named)
    }

    /// Whether instruction `k` is a load of an `alloca` of the function.
    fn reads_a_variable(&self, k: usize) -> bool {
        let sigs = self.cx.sigs;
        sigs.opcodes[k] == LLVMOpcode::LLVMLoad
            && (self.operands.range(k)).any(|at| {
                let j = self.operands.local[at];
                j != NOT_LOCAL && sigs.opcodes[j as usize] == LLVMOpcode::LLVMAlloca
            })
    }

    /// What every role of opcode `op` starts with (hashed once per opcode).
    fn role_prefix(&mut self, op: LLVMOpcode) -> StableHasher {
        let slot = op as usize;
        if slot >= self.prefixes.len() {
            self.prefixes.resize(slot + 1, None);
        }
        *self.prefixes[slot].get_or_insert_with(|| {
            StableHasher::new()
                .str("role")
                .str(crate::ir::opcode_name(op))
        })
    }

    /// The [`Describe::leaf`] of the operand in slot `at` of the operand
    /// table (one that is not an instruction of the function), read from
    /// LLVM the first time only: every pass asks again.
    fn leaf_at(&mut self, at: usize) -> SlotLeaf {
        if let Some(known) = self.slot_leaves[at] {
            return known;
        }
        let v = self.operands.values[at];
        let known = SlotLeaf {
            hash: self.leaf(v),
            constant: is_constant(v),
        };
        self.slot_leaves[at] = Some(known);
        known
    }

    /// An operand's part of a role: an instruction by its shallow role (or,
    /// not `deep`, by being one), whatever its name: a name enters no other
    /// value's name, so renaming a value (or two swapping names) shows on
    /// the lines that name it, as in the text. Anything else by [`leaf`].
    /// `at` is the operand's slot in the operand table.
    fn operand(&mut self, at: usize, deep: bool) -> u64 {
        match self.operands.local[at] {
            NOT_LOCAL => self.leaf_at(at).hash,
            _ if !deep => self.any_value,
            j => self.shallow[j as usize],
        }
    }

    /// An argument by its position, a block by its name, a global by its
    /// name (a constant one by nothing), a constant by nothing: its value
    /// is a local fact.
    fn leaf(&mut self, v: Val) -> u64 {
        let h = StableHasher::new();
        let kind = v.kind();
        match kind {
            ValKind::Argument => {
                return h
                    .str("a")
                    .u64(self.arguments.get(&v).copied().unwrap_or(0))
                    .finish()
            }
            ValKind::Metadata => return h.str("m").finish(),
            // An instruction of another function cannot be an operand.
            ValKind::Instruction => return h.str("i").finish(),
            ValKind::ConstantInt
            | ValKind::ConstantFP
            | ValKind::OtherConstant
            | ValKind::InlineAsm => return h.str("c").finish(),
            ValKind::BasicBlock
            | ValKind::Function
            | ValKind::GlobalVariable
            | ValKind::GlobalAlias
            | ValKind::GlobalIFunc => {}
        }
        if let Some(&known) = self.leaves.get(&v) {
            return known;
        }
        let described = if kind == ValKind::BasicBlock {
            let b = v.as_block().expect("a block value is a block");
            h.str("b").str(self.cx.layout.name(b))
        } else {
            let name = v.name();
            let numbered = name.bytes().all(|b| b.is_ascii_digit());
            match self.cx.globals.is_private_constant(v) || numbered {
                true => h.str("@constant"),
                false => h.str("@").str(&name),
            }
        }
        .finish();
        self.leaves.insert(v, described);
        described
    }

    /// What tells apart values of one role: constants by value, operands
    /// computed in the function by the names `named` gave them (one with a
    /// name of the file's own by its role: a swap of two names renames no
    /// user), aggregate indices, the compare predicate, for an `alloca`
    /// how it is used ([`super::variables`]), and, for a value whose line
    /// has no constant (a load of a variable: what it is used for is all
    /// that tells it apart), or an `alloca` no `#dbg_declare` names, the
    /// roles of its users. A
    /// value that has constants goes by them, not by its users, which are
    /// facts of other lines: `runtime.alloc(i32 12, ...)` gaining a user
    /// keeps its name.
    fn local(&mut self, k: usize, named: &[u64]) -> u64 {
        let inst = self.cx.sigs.insts[k];
        let op = self.cx.sigs.opcodes[k];
        let mut h = StableHasher::new().str("local");
        let alloca = op == LLVMOpcode::LLVMAlloca;
        if alloca {
            h = h.u64(self.cx.sigs.full[k]);
        }
        let mut constants = false;
        for at in self.operands.range(k) {
            let operand = (self.operands.values[at], self.operands.local[at]);
            let part = match operand {
                (_, j) if j != NOT_LOCAL && named[j as usize] != 0 => named[j as usize],
                (v, NOT_LOCAL) => match self.leaf_at(at) {
                    SlotLeaf { constant: true, .. } => {
                        constants = true;
                        placeholder_or_content(v, self.cx.sigs)
                    }
                    leaf => leaf.hash,
                },
                _ => self.operand(at, true),
            };
            h = h.u64(part);
        }
        if matches!(
            op,
            LLVMOpcode::LLVMExtractValue | LLVMOpcode::LLVMInsertValue
        ) {
            for i in inst.aggregate_indices() {
                h = h.u64(i as u64);
            }
        }
        if is_compare(op) {
            if let Some(p) = inst.predicate_name() {
                h = h.str(p);
            }
        }
        // A variable a `#dbg_declare` names is known by that name (in its
        // content hash): what its users compute does not rename it.
        let told_by_users = if alloca {
            inst.declared_variable().is_none()
        } else {
            !constants
        };
        if told_by_users && self.reads_a_variable(k) {
            return self.read_uses(k, h, named);
        }
        let uses = match alloca {
            true => &self.variable_uses,
            false => &self.uses,
        };
        if told_by_users {
            for &(role, at) in uses.of(k) {
                h = h.u64(role).u64(at as u64);
            }
        }
        h.finish()
    }
}

/// A constant's part of the facts that tell twins apart: its content, but
/// `undef` and `poison` alike, both "no value" (LLVM moved from one to the
/// other as shuffles' and insertions' placeholder: a file modernized so
/// shows that on the lines that change, and renames none of their users).
fn placeholder_or_content(v: Val, sigs: &Signatures) -> u64 {
    match v.is_undef() {
        true => StableHasher::new().str("undef or poison").finish(),
        false => sigs.leaf.get(&v).copied().unwrap_or(0),
    }
}

/// Whether `v` is a constant (or inline asm): its value is a local fact.
fn is_constant(v: Val) -> bool {
    matches!(
        v.kind(),
        ValKind::ConstantInt | ValKind::ConstantFP | ValKind::OtherConstant | ValKind::InlineAsm
    )
}

/// For each instruction, the set of (role of a user, operand position)
/// that use it, sorted: what it is used for, not what its users compute
/// (two loads of one variable, one feeding `x + 1` and one `x + n`, are
/// told apart without their places). Flattened, one slice per instruction.
#[derive(Default)]
struct UsesByRole {
    flat: Vec<(u64, u32)>,
    start: Vec<usize>,
}

impl UsesByRole {
    fn collect(operands: &OperandTable, roles: &[u64]) -> Self {
        let count = roles.len();
        let mut start = vec![0usize; count + 1];
        for &j in &operands.local {
            if j != NOT_LOCAL {
                start[j as usize + 1] += 1;
            }
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut next = start.clone();
        let mut flat = vec![(0u64, 0u32); start[count]];
        for (user, &role) in roles.iter().enumerate() {
            for (at, (_, j)) in operands.of(user).enumerate() {
                if j != NOT_LOCAL {
                    flat[next[j as usize]] = (role, at as u32);
                    next[j as usize] += 1;
                }
            }
        }
        // Sort and deduplicate each slice, packing them to the front.
        let mut packed = 0;
        for k in 0..count {
            let (from, to) = (start[k], start[k + 1]);
            flat[from..to].sort_unstable();
            start[k] = packed;
            for at in from..to {
                let entry = flat[at];
                if packed == start[k] || flat[packed - 1] != entry {
                    flat[packed] = entry;
                    packed += 1;
                }
            }
        }
        start[count] = packed;
        flat.truncate(packed);
        UsesByRole { flat, start }
    }

    fn of(&self, k: usize) -> &[(u64, u32)] {
        &self.flat[self.start[k]..self.start[k + 1]]
    }
}

/// What a read's use is, in kind: arithmetic (every binary operator) or
/// a compare, else the opcode.
fn kind_of_operation(op: LLVMOpcode) -> &'static str {
    use LLVMOpcode::*;
    match op {
        LLVMAdd | LLVMFAdd | LLVMSub | LLVMFSub | LLVMMul | LLVMFMul | LLVMUDiv | LLVMSDiv
        | LLVMFDiv | LLVMURem | LLVMSRem | LLVMFRem | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd
        | LLVMOr | LLVMXor => "arithmetic",
        _ if is_compare(op) => "compare",
        _ => crate::ir::opcode_name(op),
    }
}

/// The function a call calls, or `indirect`; `None` for anything else.
fn callee_of(inst: Inst, op: LLVMOpcode) -> Option<String> {
    use LLVMOpcode::*;
    if !matches!(op, LLVMCall | LLVMInvoke | LLVMCallBr) {
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
