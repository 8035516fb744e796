//! Semantics-preserving perturbations of a module, the adversary of the
//! canonical form: `canon(π(m))` must equal `canon(m)` byte for byte for each
//! kind π below (`docs/architecture.md`, *Properties*: invariance). Each works
//! on the LLVM module through [`irgit::ir`] handles, never on text, and is
//! deterministic in its seed.
//!
//! ```text
//! before                              after rename_locals + commute_operands + shuffle_instructions
//! %a = load i32, ptr %p               %3 = mul i32 %q, 7
//! %b = add i32 %a, 1                  %x91 = load i32, ptr %p
//! %c = mul i32 %q, 7                  %4 = add i32 1, %x91
//! %d = icmp sgt i32 %b, %c            %y = icmp slt i32 %3, %4
//! ```
//!
//! Instruction shuffling draws a random topological order that respects what
//! `canon::order` documents as fixed (its own functions decide): PHIs, EH
//! pads and the entry block's leading allocas stay first, outputs (side
//! effects, memory writes, volatile/atomic accesses, allocas, pinned calls,
//! terminators) keep their relative order, memory readers stay between the
//! same two outputs, pure instructions never move up past an output,
//! definitions come before their uses, and a block holding a glued pair
//! (`musttail` call and `ret`, deoptimize and `ret`...) is left alone.

use std::collections::{BTreeMap, HashMap};

use llvm_sys::LLVMOpcode;

use irgit::ir::{Block, Inst, IrModule, Val};

/// SplitMix64: a tiny, fast, well-distributed deterministic PRNG.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x6A09_E667_F3BC_C909)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// The kinds of perturbation, each one semantics-preserving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    RenameLocals,
    RenameArgs,
    RenameBlocks,
    ShuffleInstructions,
    CommuteOperands,
    ShufflePhiIncoming,
    ShuffleBlocks,
    ShuffleFunctions,
    ShuffleGlobals,
    RenumberPrivateConstants,
    /// Redraws the number at the end of local names (`%add5`, `for.body12`).
    RenumberSuffixes,
    /// Every kind above, one after the other.
    All,
}

impl Kind {
    pub const ALL: [Kind; 12] = [
        Kind::RenameLocals,
        Kind::RenameArgs,
        Kind::RenameBlocks,
        Kind::ShuffleInstructions,
        Kind::CommuteOperands,
        Kind::ShufflePhiIncoming,
        Kind::ShuffleBlocks,
        Kind::ShuffleFunctions,
        Kind::ShuffleGlobals,
        Kind::RenumberPrivateConstants,
        Kind::RenumberSuffixes,
        Kind::All,
    ];

    /// Whether this kind renames what is not a number: a change the diff
    /// view shows (it keeps the names a file has), though the canonical
    /// form does not.
    pub fn renames(self) -> bool {
        matches!(
            self,
            Kind::RenameLocals | Kind::RenameArgs | Kind::RenameBlocks | Kind::All
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::RenameLocals => "rename-locals",
            Kind::RenameArgs => "rename-args",
            Kind::RenameBlocks => "rename-blocks",
            Kind::ShuffleInstructions => "shuffle-instructions",
            Kind::CommuteOperands => "commute-operands",
            Kind::ShufflePhiIncoming => "shuffle-phi-incoming",
            Kind::ShuffleBlocks => "shuffle-blocks",
            Kind::ShuffleFunctions => "shuffle-functions",
            Kind::ShuffleGlobals => "shuffle-globals",
            Kind::RenumberPrivateConstants => "renumber-private-constants",
            Kind::RenumberSuffixes => "renumber-suffixes",
            Kind::All => "all",
        }
    }
}

/// Applies one kind of perturbation and checks that the module still
/// verifies. The error names the kind, the seed and LLVM's complaint.
pub fn apply(m: &IrModule<'_>, kind: Kind, seed: u64) -> Result<(), String> {
    match kind {
        Kind::RenameLocals => rename_locals(m, seed),
        Kind::RenameArgs => rename_args(m, seed),
        Kind::RenameBlocks => rename_blocks(m, seed),
        Kind::ShuffleInstructions => shuffle_instructions(m, seed),
        Kind::CommuteOperands => commute_operands(m, seed),
        Kind::ShufflePhiIncoming => shuffle_phi_incoming(m, seed),
        Kind::ShuffleBlocks => shuffle_blocks(m, seed),
        Kind::ShuffleFunctions => shuffle_functions(m, seed),
        Kind::ShuffleGlobals => shuffle_globals(m, seed),
        Kind::RenumberPrivateConstants => renumber_private_constants(m, seed),
        Kind::RenumberSuffixes => renumber_suffixes(m, seed),
        Kind::All => all(m, seed),
    }
    m.verify().map_err(|e| {
        format!(
            "perturbation {} (seed {seed}) broke the module: {e}",
            kind.name()
        )
    })
}

/// Every kind, in an order that exercises interactions (shuffles before renames).
pub fn all(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    shuffle_functions(m, rng.next_u64());
    shuffle_globals(m, rng.next_u64());
    renumber_private_constants(m, rng.next_u64());
    renumber_suffixes(m, rng.next_u64());
    shuffle_blocks(m, rng.next_u64());
    shuffle_phi_incoming(m, rng.next_u64());
    commute_operands(m, rng.next_u64());
    shuffle_instructions(m, rng.next_u64());
    rename_blocks(m, rng.next_u64());
    rename_args(m, rng.next_u64());
    rename_locals(m, rng.next_u64());
}

fn defined_blocks(m: &IrModule<'_>) -> Vec<Vec<Block>> {
    m.functions()
        .into_iter()
        .filter(|f| !f.is_declaration())
        .map(|f| f.blocks())
        .collect()
}

/// Gives values new names, some of them empty (printed as `%5`). Two phases:
/// first clear every name, so a new name is never auto-suffixed by LLVM
/// because an old one still holds it.
fn rename_values(vals: &[Val], rng: &mut Rng, prefix: &str) {
    for v in vals {
        v.set_name("");
    }
    for v in vals {
        if rng.below(3) == 0 {
            continue; // unnamed
        }
        v.set_name(&format!("{prefix}{}", rng.next_u64() % 100_000));
    }
}

/// Redraws the number that ends a local value's or block's name (`%add5`
/// -> `%add31`, `for.body12` -> `for.body4`), distinct within the function:
/// what another run of a compiler that creates the same values in another
/// order would print (LLVM appends a counter to a name already taken).
pub fn renumber_suffixes(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    for blocks in defined_blocks(m) {
        let named = blocks.iter().map(|b| b.as_val()).chain(
            blocks
                .iter()
                .flat_map(|b| b.instructions())
                .map(|i| i.val())
                .filter(|v| !v.is_void()),
        );
        let numbered: Vec<(Val, String)> = named
            .filter_map(|v| {
                let name = v.name();
                let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
                (!stem.is_empty() && stem.len() < name.len()).then(|| (v, stem.to_string()))
            })
            .collect();
        for (v, _) in &numbered {
            v.set_name("");
        }
        let mut taken = std::collections::HashSet::new();
        for (v, stem) in numbered {
            loop {
                let name = format!("{stem}{}", 1 + rng.below(1000));
                if taken.insert(name.clone()) {
                    v.set_name(&name);
                    break;
                }
            }
        }
    }
}

/// Renames every non-void instruction; about a third become unnamed.
pub fn rename_locals(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    for blocks in defined_blocks(m) {
        let vals: Vec<Val> = blocks
            .iter()
            .flat_map(|b| b.instructions())
            .map(|i| i.val())
            .filter(|v| !v.is_void())
            .collect();
        rename_values(&vals, &mut rng, "t");
    }
}

/// Renames the arguments of every definition; about a third become unnamed.
pub fn rename_args(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    for f in m.functions() {
        if f.is_declaration() {
            continue;
        }
        rename_values(&f.params(), &mut rng, "a");
    }
}

/// Renames every block label (the entry block included); about a third
/// become unnamed.
pub fn rename_blocks(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    for blocks in defined_blocks(m) {
        let vals: Vec<Val> = blocks.iter().map(|b| b.as_val()).collect();
        rename_values(&vals, &mut rng, "L");
    }
}

/// Outputs, leading pads and glued pairs: the canonical form's own rules
/// (`canon::order`), so a shuffle never moves what the canonical form keeps.
use irgit::canon::instructions::is_output;
use irgit::canon::order::{glued_to_previous, must_lead};

/// Reorders independent instructions inside every block (see the module doc
/// for the constraints).
pub fn shuffle_instructions(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    for blocks in defined_blocks(m) {
        for (bi, b) in blocks.iter().enumerate() {
            if let Some(order) = random_block_order(*b, bi == 0, &mut rng) {
                irgit::ir::reorder_block(&order);
            }
        }
    }
}

/// A random valid order of one block, or `None` to leave it alone.
fn random_block_order(b: Block, is_entry: bool, rng: &mut Rng) -> Option<Vec<Inst>> {
    let insts = b.instructions();
    if insts.iter().any(|&i| glued_to_previous(i)) {
        return None;
    }
    let n = insts.len();
    let local: HashMap<Val, usize> = insts
        .iter()
        .enumerate()
        .map(|(i, inst)| (inst.val(), i))
        .collect();
    // Fixed head.
    let mut head = 0;
    while head < n {
        let op = insts[head].opcode();
        if op == LLVMOpcode::LLVMPHI
            || must_lead(insts[head])
            || (is_entry && op == LLVMOpcode::LLVMAlloca)
        {
            head += 1;
        } else {
            break;
        }
    }
    // Ordering edges among the movable instructions head..n.
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    let mut edge = |a: usize, b: usize, succs: &mut Vec<Vec<usize>>| {
        succs[a].push(b);
        indeg[b] += 1;
    };
    let outputs: Vec<usize> = (head..n).filter(|&i| is_output(insts[i])).collect();
    for w in outputs.windows(2) {
        edge(w[0], w[1], &mut succs);
    }
    let mut prev_output: Option<usize> = None;
    let mut next_k = 0; // index in `outputs` of the next output at or after i
    for (i, inst) in insts.iter().enumerate().skip(head) {
        if next_k < outputs.len() && outputs[next_k] == i {
            prev_output = Some(i);
            next_k += 1;
            continue;
        }
        // Nothing moves up past an output.
        if let Some(p) = prev_output {
            edge(p, i, &mut succs);
        }
        // Readers do not move down past the next output either.
        if inst.may_read_memory() {
            if let Some(&o) = outputs.get(next_k) {
                edge(i, o, &mut succs);
            }
        }
    }
    // Everything stays before the terminator.
    if let Some(&t) = outputs.last() {
        if insts[t].is_terminator() {
            for i in head..n {
                if i != t && !succs[i].contains(&t) {
                    edge(i, t, &mut succs);
                }
            }
        }
    }
    // Definitions before uses.
    for (u, inst) in insts.iter().enumerate().skip(head) {
        for v in inst.operands() {
            if let Some(&d) = local.get(&v) {
                if d >= head && d != u {
                    edge(d, u, &mut succs);
                }
            }
        }
    }
    // Random Kahn.
    let mut ready: Vec<usize> = (head..n).filter(|&i| indeg[i] == 0).collect();
    let mut order: Vec<Inst> = insts[..head].to_vec();
    while !ready.is_empty() {
        let k = rng.below(ready.len());
        let i = ready.swap_remove(k);
        order.push(insts[i]);
        for &s in &succs[i] {
            indeg[s] -= 1;
            if indeg[s] == 0 {
                ready.push(s);
            }
        }
    }
    // A cycle can only come from unreachable self-referencing code: leave it.
    (order.len() == n).then_some(order)
}

/// Swaps the operands of commutative instructions (about half of them) and
/// of compares, mirroring the predicate (`sgt a, b` → `slt b, a`).
pub fn commute_operands(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    for blocks in defined_blocks(m) {
        for inst in blocks.iter().flat_map(|b| b.instructions()) {
            let op = inst.opcode();
            if !rng.coin() {
                continue;
            }
            if matches!(op, LLVMOpcode::LLVMICmp | LLVMOpcode::LLVMFCmp) {
                inst.swap_cmp_operands();
            } else if irgit::ir::edit::is_binop(inst) && inst.is_commutative() {
                let (a, b) = (inst.operand(0), inst.operand(1));
                inst.set_operand(0, b);
                inst.set_operand(1, a);
            }
        }
    }
}

/// Permutes the incoming (value, block) pairs of every PHI.
pub fn shuffle_phi_incoming(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    for blocks in defined_blocks(m) {
        for inst in blocks.iter().flat_map(|b| b.instructions()) {
            if inst.opcode() != LLVMOpcode::LLVMPHI {
                continue;
            }
            let mut pairs = inst.incoming();
            rng.shuffle(&mut pairs);
            for (i, (v, b)) in pairs.into_iter().enumerate() {
                inst.set_incoming(i as u32, v, b);
            }
        }
    }
}

/// Permutes the non-entry blocks of every function.
pub fn shuffle_blocks(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    for blocks in defined_blocks(m) {
        if blocks.len() < 3 {
            continue;
        }
        let mut rest = blocks[1..].to_vec();
        rng.shuffle(&mut rest);
        let mut after = blocks[0];
        for b in rest {
            b.move_after(after);
            after = b;
        }
    }
}

/// Permutes the functions (definitions and declarations) of the module.
pub fn shuffle_functions(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut fs = m.functions();
    rng.shuffle(&mut fs);
    for f in fs {
        m.move_function_to_end(f);
    }
}

/// Permutes the global variables of the module.
pub fn shuffle_globals(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut gs = m.globals();
    rng.shuffle(&mut gs);
    for g in gs {
        m.move_global_to_end(g);
    }
}

/// `.str.12` → (`.str`, true); `.str` → (`.str`, false); `foo` → (`foo`, false).
fn numbered_stem(name: &str) -> (&str, bool) {
    match name.rfind('.') {
        Some(dot)
            if dot + 1 < name.len() && name[dot + 1..].bytes().all(|b| b.is_ascii_digit()) =>
        {
            (&name[..dot], true)
        }
        _ => (name, false),
    }
}

/// Renumbers private globals that carry a compiler-made name: within each
/// family (`.str`, `.str.1`, `.str.2`... ; `__const.main.a`, ...; `@0`, `@1`)
/// the numbers are redrawn at random, as a different order of string
/// literals in the source would produce. Clang's first member has no number
/// (`.str`), so it takes part too.
pub fn renumber_private_constants(m: &IrModule<'_>, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut families: BTreeMap<String, Vec<Val>> = BTreeMap::new();
    for g in m.globals() {
        if !g.is_private_linkage() {
            continue;
        }
        let name = g.name();
        let (stem, _) = numbered_stem(&name);
        families.entry(stem.to_string()).or_default().push(g);
    }
    // Only stems that look compiler-made: numbered, or with a leading dot.
    families.retain(|stem, members| {
        stem.is_empty()
            || stem.starts_with('.')
            || members.iter().any(|g| numbered_stem(&g.name()).1)
    });
    // Phase 1: move every member out of the way.
    for members in families.values() {
        for (i, g) in members.iter().enumerate() {
            g.set_name(&format!("irgit.perturb.tmp.{i}.{}", rng.next_u64()));
        }
    }
    // Phase 2: new numbers, distinct within the family, one member possibly plain.
    for (stem, members) in &families {
        let mut numbers: Vec<u64> = (0..members.len() as u64 * 3 + 1).collect();
        rng.shuffle(&mut numbers);
        for (g, num) in members.iter().zip(numbers) {
            let name = if stem.is_empty() {
                String::new()
            } else if num == 0 {
                stem.clone()
            } else {
                format!("{stem}.{num}")
            };
            g.set_name(&name);
        }
    }
}
