//! Structural hashes of instructions: the raw material of canonical names,
//! operand order and tie-breaks.
//!
//! ```text
//! %5 = add nsw i32 %4, 1      base = H("add", "i32", "nsw", ["i", "c:i32"])   (sorted: add commutes)
//! %6 = icmp sgt i32 %5, %x    base = H("icmp", "i1", "slt", ["a:0", "i"])     (mirrored to sorted order)
//! ```
//!
//! The *base* hash of an instruction covers only what is local to it: its
//! opcode name, result type, predicate, allocated / source element types,
//! aggregate indices, flags, and for each operand a short descriptor (the
//! mere fact that an operand is an instruction, an argument's position, a
//! global's name, a constant's *type*, a block's canonical name). Constant values are
//! left to refinement, so changing `3` to `4` in a unique instruction renames
//! nothing. Allocated and source element types leave array lengths out
//! (`int a[4]` made `int a[5]` renames neither `a` nor the addresses into
//! it; arrays alike but for their length go by the usual tie-breaks).
//! Commutative operands are
//! sorted and compares mirrored, so operand order never changes a hash.
//!
//! Where base hashes collide inside a function, the colliding instructions
//! are refined (Weisfeiler-Lehman style): first with the hashes of their
//! operands (constant values included) as deep as that separates them, then
//! with the index of their block, then with the hashes of their users. Instructions
//! that are already unique keep their base hash, and a step that splits no
//! group of equal hashes changes none of them, so an edit only renames the
//! edited instruction and the few values whose disambiguation looked at it.
//! Variables (allocas) and their reads are told apart before any of this
//! ([`super::variables`]).
//! Whatever still collides after refinement is structurally interchangeable
//! as far as a bounded neighbourhood can tell; [`crate::canon::naming`]
//! separates those by canonical position.

use rustc_hash::FxHashMap as HashMap;

use llvm_sys::LLVMOpcode;

use super::blocks::{BlockKeyCache, Layout};
use super::instructions::{
    is_commutative_binop, is_output, users_of, OperandLists, OperandTable, Users, NOT_LOCAL,
};
use crate::hash::{collisions, StableHasher};
use crate::ir::content::UnnamedGlobals;
use crate::ir::{Func, Inst, TypeNames, Val, ValKind};

/// Most refinement rounds (operand or user) per function.
const MAX_ROUNDS: usize = 64;
/// Whether the last resort looks at all users' refined hashes. Off: it
/// separates a few more values but ties a variable's name to every use of
/// it, so one edit renames the variable everywhere (measured: locality p90
/// 21 lines with it, 11 without). Ties left go by canonical position.
const USE_FULL_USERS: bool = false;

/// Hashes for every instruction of one function.
pub(crate) struct Signatures {
    /// Instructions in canonical block order, then current order within a block.
    pub insts: Vec<Inst>,
    /// Position of each instruction in `insts`.
    pub index: HashMap<Val, usize>,
    /// The refined hash of each instruction (same indexing as `insts`).
    pub full: Vec<u64>,
    /// The base hash of each instruction (same indexing as `insts`).
    pub base: Vec<u64>,
    /// Hashes of non-instruction operands (arguments, constants, globals...).
    pub(super) leaf: HashMap<Val, u64>,
    /// The opcode of each instruction (same indexing as `insts`), read once:
    /// the later stages need not reach into every instruction for it.
    pub opcodes: Vec<LLVMOpcode>,
    /// Whether each instruction's result is `void` (same indexing).
    pub voids: Vec<bool>,
    /// The operands as read (the stages that reorder operands take it
    /// over and keep it up to date).
    pub(crate) operands: OperandTable,
}

impl Signatures {
    /// The signatures of `based`'s instructions with their refined hashes.
    pub(super) fn from_base(based: BaseHashes, full: Vec<u64>) -> Self {
        Signatures {
            insts: based.insts,
            index: based.index,
            full,
            base: based.base,
            leaf: based.leaf,
            opcodes: based.opcodes,
            voids: based.voids,
            operands: based.read,
        }
    }

    /// The hash that stands for an operand: the refined hash of an
    /// instruction of this function (`local`: its index, as an
    /// [`OperandTable`] has it), the descriptor hash of anything else.
    pub(crate) fn operand_hash_at(&self, v: Val, local: u32) -> u64 {
        match local {
            NOT_LOCAL => self.leaf.get(&v).copied().unwrap_or(0),
            j => self.full[j as usize],
        }
    }

    /// What orders operands and placements: the base hash first, then the
    /// refined one. A refinement (which depends on what else collides in
    /// the function) then only decides between values that look alike, so
    /// an edit elsewhere cannot flip the order of two unlike values.
    pub(crate) fn order_key_at(&self, v: Val, local: u32) -> (u64, u64) {
        match local {
            NOT_LOCAL => {
                let h = self.operand_hash_at(v, local);
                (h, h)
            }
            j => (self.base[j as usize], self.full[j as usize]),
        }
    }
}

/// The predicate that means the same with the operands swapped.
pub(crate) fn mirrored_predicate(p: &'static str) -> &'static str {
    match p {
        "sgt" => "slt",
        "slt" => "sgt",
        "sge" => "sle",
        "sle" => "sge",
        "ugt" => "ult",
        "ult" => "ugt",
        "uge" => "ule",
        "ule" => "uge",
        "ogt" => "olt",
        "olt" => "ogt",
        "oge" => "ole",
        "ole" => "oge",
        other => other,
    }
}

/// Descriptor hash of an operand that is not an instruction of the function.
fn leaf_hash(
    v: Val,
    args: &HashMap<Val, usize>,
    layout: &Layout,
    globals: &GlobalKeys,
    unnamed: &UnnamedGlobals,
) -> u64 {
    let h = StableHasher::new();
    if let Some(&k) = globals.private.get(&v) {
        return h.str("@private").u64(k).finish();
    }
    if let Some(key) = unnamed.key(v) {
        return h.str("@").str(key).finish();
    }
    match v.kind() {
        ValKind::Argument => h.str("a").u64(args.get(&v).copied().unwrap_or(0) as u64),
        ValKind::BasicBlock => {
            let b = v.as_block().expect("a block value is a block");
            h.str("b").u64(layout.key(b).unwrap_or(u64::MAX))
        }
        ValKind::Function
        | ValKind::GlobalVariable
        | ValKind::GlobalAlias
        | ValKind::GlobalIFunc => h.str("@").str(&v.name()),
        ValKind::Metadata => h.str("m"),
        ValKind::InlineAsm => h.str("asm").str(&globals.constant_text(unnamed, v)),
        ValKind::Instruction => h.str("i"), // instruction of another function: cannot happen
        ValKind::ConstantInt | ValKind::ConstantFP => h.str("c").str(&v.print()),
        ValKind::OtherConstant => h.str("c").str(&globals.constant_text(unnamed, v)),
    }
    .finish()
}

/// Feeds an operand list into `h`, normalizing order for commutative
/// instructions and mirrored compares. `pred` is the compare predicate.
pub(super) fn feed_operands(
    mut h: StableHasher,
    op: LLVMOpcode,
    pred: Option<&'static str>,
    ops: &mut [u64],
) -> StableHasher {
    if is_commutative_binop(op) && ops.len() == 2 {
        ops.sort_unstable();
    }
    if let Some(p) = pred {
        let p = if ops.len() == 2 && ops[0] > ops[1] {
            ops.swap(0, 1);
            mirrored_predicate(p)
        } else if ops.len() == 2 && ops[0] == ops[1] {
            // Interchangeable operands: `ugt a, b` and `ult b, a` must agree.
            p.min(mirrored_predicate(p))
        } else {
            p
        };
        h = h.str(p);
    }
    for &o in ops.iter() {
        h = h.u64(o);
    }
    h
}

/// What instructions hash a global operand by, where its printed name is
/// not its identity: private globals by a content hash (their names may
/// carry a tie-breaking suffix that is only settled after all functions are
/// done), unnamed globals (`@0`) by a content key, computed once per module
/// when the first function needs it.
#[derive(Default)]
pub(crate) struct GlobalKeys {
    private: HashMap<Val, u64>,
    unnamed: std::cell::OnceCell<UnnamedGlobals>,
    blocks: BlockKeyCache,
}

impl GlobalKeys {
    pub(crate) fn insert_private(&mut self, g: Val, h: u64) {
        self.private.insert(g, h);
    }

    /// Whether `g` is a private global named by its content.
    pub(crate) fn is_private_constant(&self, g: Val) -> bool {
        self.private.contains_key(&g)
    }

    /// Private globals and their content hashes.
    pub(crate) fn private(&self) -> impl Iterator<Item = (Val, u64)> + '_ {
        self.private.iter().map(|(&g, &h)| (g, h))
    }

    /// The content keys of the unnamed globals of `func`'s module.
    pub(crate) fn unnamed(&self, func: Func) -> &UnnamedGlobals {
        self.unnamed
            .get_or_init(|| UnnamedGlobals::of_function(func, &mut |f, b| self.blocks.key(f, b)))
    }

    /// The canonical key of block `b` of function `f` (cached per function).
    pub(crate) fn block_key(&self, f: Func, b: crate::ir::Block) -> Option<u64> {
        self.blocks.key(f, b)
    }

    /// The content text of a constant: [`UnnamedGlobals::text_key_with`],
    /// blocks of `blockaddress` spelled by their canonical keys.
    pub(crate) fn constant_text(&self, unnamed: &UnnamedGlobals, v: Val) -> String {
        unnamed.text_key_with(v, &mut |f, b| self.blocks.key(f, b))
    }
}

/// Computes base and refined hashes for every instruction of `func`.
/// With `for_view`, the diff view's naming, not the canonical form's: a
/// group that refinement splits leaves one member its name
/// ([`one_keeps_its_hash`]; the merge pairs values by name, and one value
/// taking another's name would pair it with the other), and base hashes
/// follow [`BaseRules::View`].
pub(crate) fn compute(
    func: Func,
    layout: &Layout,
    globals: &GlobalKeys,
    for_view: bool,
) -> Signatures {
    let rules = if for_view {
        BaseRules::View
    } else {
        BaseRules::Canonical
    };
    let one_keeps = for_view;
    let mut based = base_hashes(func, &layout.order, layout, globals, rules);
    let users = users_of(&based.opcodes, &based.operands);
    let block_of: Vec<u64> = based
        .blocks
        .iter()
        .map(|&bi| layout.keys[bi as usize])
        .collect();
    let reads_variables = super::variables::absorb_variables(
        &mut based.base,
        &based.insts,
        &based.opcodes,
        &based.operands,
        &users,
    );
    absorb_variable_reads(&mut based, &reads_variables);
    let full = refine(based.base.clone(), &based, &users, &block_of, one_keeps);
    Signatures::from_base(based, full)
}

/// Every instruction with operands that use variables (`reads[j]`, see
/// [`super::variables`]) absorbs their base hashes: `sext` of a load of
/// `%a` and `sext` of a load of `%b` differ before any refinement, so one
/// more `sext` of another variable collides with neither and renames
/// neither. Other operands count as one and the same shape, so nothing
/// changes at -O2, where there are no variables.
fn absorb_variable_reads(based: &mut BaseHashes, reads: &[bool]) {
    let own = based.base.clone();
    let mut ops: Vec<u64> = Vec::new();
    for (i, base) in based.base.iter_mut().enumerate() {
        let list = based.operands.of(i);
        if !list.iter().any(|o| matches!(o, Ok(j) if reads[*j])) {
            continue;
        }
        ops.clear();
        ops.extend(
            list.iter()
                .map(|o| o.map_or(0, |j| if reads[j] { own[j] } else { 0 })),
        );
        *base = feed_operands(
            StableHasher::new().u64(own[i]).str("shapes"),
            based.opcodes[i],
            based.predicates[i],
            &mut ops,
        )
        .finish();
    }
}

/// The base hashes of a function's instructions, before any refinement.
pub(super) struct BaseHashes {
    /// The instructions of `blocks`, in that order.
    pub insts: Vec<Inst>,
    pub index: HashMap<Val, usize>,
    /// Base hash of each instruction (same indexing as `insts`).
    pub base: Vec<u64>,
    pub operands: OperandLists,
    pub leaf: HashMap<Val, u64>,
    /// Opcode and compare predicate of each instruction, and the index of
    /// its block in `blocks` (read once: the refinement rounds would
    /// otherwise reach into every colliding instruction again).
    pub opcodes: Vec<LLVMOpcode>,
    pub predicates: Vec<Option<&'static str>>,
    pub blocks: Vec<u32>,
    pub voids: Vec<bool>,
    /// The operands in LLVM's order ([`OperandTable`]).
    pub read: OperandTable,
}

/// What a base hash sees of an instruction besides its opcode and its
/// operands' kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BaseRules {
    /// The canonical form's: result and element types by content (a named
    /// struct by its fields), flags and alignment included.
    Canonical,
    /// The diff view's: no fact that one line changes on its own enters a
    /// name, since every line naming the value would inherit it. A named
    /// struct is spelled by its name (a field added to `%T` renames no value
    /// of type `%T`), and flags, alignment and tail-call kind are left out
    /// (`store ..., align 8` made `align 4` renames neither the store's
    /// variable nor the values computed from it; `add nsw` made `add` keeps
    /// its name).
    ///
    /// ```text
    /// %T = type { ptr, i1 }            -> %T = type { ptr, [0 x ptr], i1 }
    /// %var.4eb9 = alloca %T, align 8      %var.4eb9 = alloca %T, align 8
    /// ```
    ///
    /// A function is spelled by its name without the pointee types of
    /// typed-pointer mangling ([`super::view::without_pointee_mangling`]):
    /// a test moved to opaque pointers renames its declarations, not the
    /// values its calls compute.
    View,
}

/// Base hashes of the instructions of `blocks` (all of `func`'s blocks, in
/// the order their instructions are to be indexed).
pub(super) fn base_hashes(
    func: Func,
    blocks: &[crate::ir::Block],
    layout: &Layout,
    globals: &GlobalKeys,
    rules: BaseRules,
) -> BaseHashes {
    let unnamed = globals.unnamed(func);
    let args: HashMap<Val, usize> = func
        .params()
        .into_iter()
        .enumerate()
        .map(|(i, a)| (a, i))
        .collect();
    let (insts, block_index, index) = instructions_of(blocks);

    let mut leaf: HashMap<Val, u64> = HashMap::default();
    let mut types = match rules {
        BaseRules::Canonical => TypeNames::default(),
        BaseRules::View => TypeNames::structs_by_name(),
    };
    let mut operands = OperandLists {
        flat: Vec::with_capacity(insts.len() * 3),
        start: Vec::with_capacity(insts.len() + 1),
    };
    operands.start.push(0);
    let mut base = Vec::with_capacity(insts.len());
    let mut opcodes = Vec::with_capacity(insts.len());
    let mut predicates = Vec::with_capacity(insts.len());
    let mut voids = Vec::with_capacity(insts.len());
    let mut attributes = String::new();
    let mut descriptors: Vec<u64> = Vec::new();
    let mut read = OperandTable::with_capacity(insts.len());
    let mut cx = Describe {
        index: &index,
        leaf: &mut leaf,
        types: &mut types,
        args: &args,
        layout,
        globals,
        unnamed,
        instruction: StableHasher::new().str("i").finish(),
        rules,
        pairs: Vec::new(),
    };
    for inst in &insts {
        let op = inst.opcode();
        let mut h = own_hash(*inst, &mut *cx.types, rules, &mut attributes);
        descriptors.clear();
        if op == LLVMOpcode::LLVMPHI {
            cx.describe_incoming(*inst, &mut descriptors, &mut operands, &mut read);
        } else {
            for v in inst.iter_operands() {
                let (r, d) = cx.describe(v);
                operands.flat.push(r);
                read.push(v, local_index(r));
                descriptors.push(d);
            }
        }
        operands.start.push(operands.flat.len());
        read.end_instruction();
        let pred = inst.predicate_name();
        h = feed_operands(h, op, pred, &mut descriptors);
        base.push(h.finish());
        opcodes.push(op);
        predicates.push(pred);
        voids.push(inst.val().is_void());
    }
    BaseHashes {
        insts,
        index,
        base,
        operands,
        leaf,
        opcodes,
        predicates,
        blocks: block_index,
        voids,
        read,
    }
}

/// An operand's index in an [`OperandTable`]: its instruction's, or
/// [`NOT_LOCAL`].
fn local_index(described: Result<usize, u64>) -> u32 {
    described.map_or(NOT_LOCAL, |j| j as u32)
}

/// The instructions of `blocks` in order, the block index of each, and
/// each one's index by value.
fn instructions_of(blocks: &[crate::ir::Block]) -> (Vec<Inst>, Vec<u32>, HashMap<Val, usize>) {
    let mut insts: Vec<Inst> = Vec::new();
    let mut block_index: Vec<u32> = Vec::new();
    for (bi, b) in blocks.iter().enumerate() {
        for inst in b.iter_instructions() {
            insts.push(inst);
            block_index.push(bi as u32);
        }
    }
    let index: HashMap<Val, usize> = insts
        .iter()
        .enumerate()
        .map(|(i, inst)| (inst.val(), i))
        .collect();
    (insts, block_index, index)
}

/// An instruction's hash from its own parts, before its operands: opcode
/// name, types, aggregate indices and (in the canonical form) its
/// attributes. `attributes` is scratch space.
fn own_hash(
    inst: Inst,
    types: &mut TypeNames,
    rules: BaseRules,
    attributes: &mut String,
) -> StableHasher {
    let mut h = StableHasher::new()
        .str(inst.opcode_name())
        .str(&types.of(inst.val()));
    if let Some(t) = types.allocated(inst) {
        h = h.str(&t);
    }
    if let Some(t) = types.gep_source(inst) {
        h = h.str(&t);
    }
    for i in inst.aggregate_indices() {
        h = h.u64(i as u64);
    }
    if rules == BaseRules::Canonical {
        attributes.clear();
        inst.write_local_attributes(attributes);
        h = h.str(attributes);
    }
    h
}

/// What describing an operand needs.
struct Describe<'a> {
    index: &'a HashMap<Val, usize>,
    leaf: &'a mut HashMap<Val, u64>,
    types: &'a mut TypeNames,
    args: &'a HashMap<Val, usize>,
    layout: &'a Layout,
    globals: &'a GlobalKeys,
    unnamed: &'a UnnamedGlobals,
    /// The descriptor of any instruction operand.
    instruction: u64,
    rules: BaseRules,
    /// Scratch space for a PHI's incoming pairs.
    pairs: Vec<(u64, Result<usize, u64>, u64)>,
}

impl Describe<'_> {
    /// The leaf hash of a value that is not an instruction of this function.
    fn leaf_of(&mut self, v: Val) -> u64 {
        if let Some(&h) = self.leaf.get(&v) {
            return h;
        }
        let h = self
            .unmangled_callee(v)
            .unwrap_or_else(|| leaf_hash(v, self.args, self.layout, self.globals, self.unnamed));
        self.leaf.insert(v, h);
        h
    }

    /// By the view's rules, the hash of a function whose name has
    /// typed-pointer mangling: that of the name without it.
    fn unmangled_callee(&self, v: Val) -> Option<u64> {
        if self.rules != BaseRules::View || v.kind() != ValKind::Function {
            return None;
        }
        match super::view::without_pointee_mangling(&v.name()) {
            std::borrow::Cow::Owned(name) => Some(StableHasher::new().str("@").str(&name).finish()),
            std::borrow::Cow::Borrowed(_) => None,
        }
    }

    /// A PHI's incoming pairs (value, block), sorted by block so incoming
    /// order is irrelevant, into `descriptors` and `operands`; its incoming
    /// values in order into `read`.
    fn describe_incoming(
        &mut self,
        phi: Inst,
        descriptors: &mut Vec<u64>,
        operands: &mut OperandLists,
        read: &mut OperandTable,
    ) {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        for (v, b) in phi.incoming() {
            let bh = self.leaf_of(b.as_val());
            let (r, d) = self.describe(v);
            read.push(v, local_index(r));
            pairs.push((bh, r, d));
        }
        pairs.sort_by_key(|(bh, _, d)| (*bh, *d));
        for &(bh, r, d) in &pairs {
            descriptors.push(bh);
            descriptors.push(d);
            operands.flat.push(Err(bh));
            operands.flat.push(r);
        }
        self.pairs = pairs;
    }

    /// An operand as (index of an instruction of this function | leaf hash)
    /// and its base-level descriptor hash.
    fn describe(&mut self, v: Val) -> (Result<usize, u64>, u64) {
        if let Some(&j) = self.index.get(&v) {
            return (Ok(j), self.instruction);
        }
        let h = self.leaf_of(v);
        let descriptor = match v.kind() {
            // The base hash sees only a constant's type; its value enters
            // through refinement, and only where it separates a collision.
            ValKind::ConstantInt | ValKind::ConstantFP | ValKind::OtherConstant => {
                StableHasher::new().str("c").str(&self.types.of(v)).finish()
            }
            _ => h,
        };
        (Err(h), descriptor)
    }
}

/// A refinement step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Step {
    /// Absorb operand hashes (constant values included).
    Down,
    /// Absorb the identity of the block: copies of one expression in
    /// different blocks separate without looking at users.
    Block,
    /// Absorb the *set* of (user base hash, operand position): what kinds of
    /// instructions use a value, not what they compute. A variable (alloca)
    /// keeps its name when one of its uses is edited or another load is added.
    UserShapes,
    /// Colliding outputs (allocas, stores, calls: instructions whose
    /// relative order is fixed) absorb their rank among the outputs sharing
    /// their hash, but the first keeps its hash: a copy of a call inserted
    /// after it leaves its name alone. What they feed separates in the
    /// `Down`s that follow.
    Anchor,
    /// Absorb the refined hashes of all users (off: see [`USE_FULL_USERS`]).
    Up,
}

/// Refines colliding hashes. `Down` runs until it stops separating; then the
/// next step of the schedule `Block`, `UserShapes`, `Up`, `Up`, ... runs once,
/// followed again by `Down`s. Stops when nothing collides, when an `Up` and
/// the `Down`s after it separate nothing, or after [`MAX_ROUNDS`] rounds.
fn refine(
    mut full: Vec<u64>,
    based: &BaseHashes,
    users: &Users,
    block_of: &[u64],
    one_keeps: bool,
) -> Vec<u64> {
    let (base, insts, operands) = (&based.base, &based.insts, &based.operands);
    let all: Vec<usize> = (0..full.len()).collect();
    let mut colliding = collisions(&full, &all);
    let mut down_seen = vec![0u64; full.len()];
    let mut step = Step::Down;
    let mut escalations = [Step::Block, Step::UserShapes, Step::Anchor].into_iter();
    let mut progress_since_up = true;
    // Each step reads the hashes `before` it and changes `full` (one
    // buffer each, reused round after round).
    let mut before = full.clone();
    for _ in 0..MAX_ROUNDS {
        if colliding.is_empty() {
            break;
        }
        before.copy_from_slice(&full);
        match step {
            Step::Down => refine_down(&before, &mut full, &colliding, based, &mut down_seen),
            Step::Block => refine_by_block(&before, &mut full, &colliding, block_of),
            Step::Anchor => refine_by_anchor(&before, &mut full, &colliding, insts),
            Step::UserShapes | Step::Up => {
                let stuck = stuck_on_operands(&colliding, operands);
                let targets = if stuck.is_empty() { &colliding } else { &stuck };
                if step == Step::Up {
                    refine_up(&before, &mut full, targets, users)
                } else {
                    refine_user_shapes(&before, &mut full, targets, users, base)
                }
            }
        }
        keep_unsplit(&before, &mut full, &colliding);
        if one_keeps {
            one_keeps_its_hash(&before, &mut full, &colliding, &based.blocks);
        }
        // Only colliding values were re-hashed, each to a fresh 64-bit hash,
        // so new collisions can only be among them.
        let now = collisions(&full, &colliding);
        let progressed = now.len() < colliding.len();
        colliding = now;
        progress_since_up |= progressed;
        step = if step != Step::Down || progressed {
            Step::Down
        } else if let Some(next) = escalations.next() {
            next
        } else if !progress_since_up || !USE_FULL_USERS {
            break; // an Up and the Downs after it separated nothing
        } else {
            progress_since_up = false;
            Step::Up
        };
    }
    full
}

/// Colliding values told apart by their block, only in groups that span
/// several blocks: where all copies sit in one block, its identity
/// separates nothing and would only tie their names to that block's other
/// contents.
fn refine_by_block(full: &[u64], next: &mut [u64], colliding: &[usize], block_of: &[u64]) {
    let mut first_block: HashMap<u64, u64> = HashMap::default();
    let mut spans: HashMap<u64, bool> = HashMap::default();
    for &i in colliding {
        let b = *first_block.entry(full[i]).or_insert(block_of[i]);
        *spans.entry(full[i]).or_insert(false) |= b != block_of[i];
    }
    for &i in colliding.iter().filter(|&&i| spans[&full[i]]) {
        next[i] = StableHasher::new()
            .u64(full[i])
            .str("block")
            .u64(block_of[i])
            .finish();
    }
}

/// Colliding outputs told apart by their rank among the outputs alike; the
/// first keeps its hash.
fn refine_by_anchor(full: &[u64], next: &mut [u64], colliding: &[usize], insts: &[Inst]) {
    let mut rank: HashMap<u64, u64> = HashMap::default();
    for &i in colliding {
        if is_output(insts[i]) {
            let r = rank.entry(full[i]).or_insert(0);
            if *r == 0 {
                *r += 1;
                continue;
            }
            next[i] = StableHasher::new()
                .u64(full[i])
                .str("anchor")
                .u64(*r)
                .finish();
            *r += 1;
        }
    }
}

/// The colliding values whose instruction operands are all unique already
/// (allocas, say): only there can users help; the others wait for their
/// operands to separate.
fn stuck_on_operands(colliding: &[usize], operands: &OperandLists) -> Vec<usize> {
    let set: rustc_hash::FxHashSet<usize> = colliding.iter().copied().collect();
    colliding
        .iter()
        .copied()
        .filter(|&i| {
            operands
                .of(i)
                .iter()
                .all(|o| !matches!(o, Ok(j) if set.contains(j)))
        })
        .collect()
}

/// Undoes a step for the groups it did not split: a step that tells
/// nothing apart changes no name.
fn keep_unsplit(before: &[u64], full: &mut [u64], colliding: &[usize]) {
    let mut first: HashMap<u64, u64> = HashMap::default();
    let mut split: HashMap<u64, bool> = HashMap::default();
    for &i in colliding {
        let f = *first.entry(before[i]).or_insert(full[i]);
        *split.entry(before[i]).or_insert(false) |= f != full[i];
    }
    for &i in colliding {
        if !split[&before[i]] {
            full[i] = before[i];
        }
    }
}

/// In each group a step split, the member in the first block (in
/// canonical block order; in one block, the one with the lowest new hash)
/// keeps the group's hash: a copy of a value inserted further down, or a
/// later copy deleted, then renames nothing (before, every member took a
/// new name, and the one left of two took the old one back). How many
/// colliding values hold each hash is counted once and kept up to date, so
/// a round costs time linear in the colliding values, not their square.
fn one_keeps_its_hash(before: &[u64], full: &mut [u64], colliding: &[usize], blocks: &[u32]) {
    let mut keeper: HashMap<u64, (u32, u64, usize)> = HashMap::default();
    for &i in colliding {
        if full[i] == before[i] {
            continue;
        }
        let candidate = (blocks[i], full[i], i);
        let k = keeper.entry(before[i]).or_insert(candidate);
        *k = (*k).min(candidate);
    }
    if keeper.is_empty() {
        return;
    }
    let mut holders: HashMap<u64, usize> =
        HashMap::with_capacity_and_hasher(colliding.len(), Default::default());
    for &j in colliding {
        *holders.entry(full[j]).or_insert(0) += 1;
    }
    for (old, (_, new, i)) in keeper {
        let taken = holders.get(&old).is_some_and(|&n| n > 0);
        // `full[i]` is `new`: `i` alone holds it when it is counted once.
        if !taken && holders[&new] == 1 {
            full[i] = old;
            holders.insert(new, 0);
            holders.insert(old, 1);
        }
    }
}

/// One round of refinement by the set of users' base shapes.
fn refine_user_shapes(
    full: &[u64],
    next: &mut [u64],
    colliding: &[usize],
    users: &Users,
    base: &[u64],
) {
    for &i in colliding {
        let mut ctx: Vec<(u64, u32)> = users.of(i).iter().map(|&(u, k)| (base[u], k)).collect();
        ctx.sort_unstable();
        ctx.dedup();
        let mut h = StableHasher::new().u64(full[i]).str("shapes");
        for (uh, k) in ctx {
            h = h.u64(uh).u64(k as u64);
        }
        next[i] = h.finish();
    }
}

/// One round of refinement by operand hashes. A value whose operands hash
/// as they did at its previous `Down` learns nothing new and keeps its hash,
/// so how many rounds the rest of the function needs does not leak into it.
fn refine_down(
    full: &[u64],
    next: &mut [u64],
    colliding: &[usize],
    based: &BaseHashes,
    seen: &mut [u64],
) {
    let mut ops: Vec<u64> = Vec::new();
    for &i in colliding {
        ops.clear();
        ops.extend(based.operands.of(i).iter().map(|o| match o {
            Ok(j) => full[*j],
            Err(h) => *h,
        }));
        let absorbed = feed_operands(
            StableHasher::new(),
            based.opcodes[i],
            based.predicates[i],
            &mut ops,
        )
        .finish();
        if seen[i] == absorbed {
            continue;
        }
        seen[i] = absorbed;
        next[i] = StableHasher::new()
            .u64(full[i])
            .str("down")
            .u64(absorbed)
            .finish();
    }
}

/// One round of refinement by user hashes.
fn refine_up(full: &[u64], next: &mut [u64], colliding: &[usize], users: &Users) {
    for &i in colliding {
        let mut ctx: Vec<(u64, u32)> = users.of(i).iter().map(|&(u, k)| (full[u], k)).collect();
        ctx.sort_unstable();
        let mut h = StableHasher::new().u64(full[i]).str("up");
        for (uh, k) in ctx {
            h = h.u64(uh).u64(k as u64);
        }
        next[i] = h.finish();
    }
}
