//! Canonical instruction order inside each block: the def-use walk from the
//! outputs (llvm-canon; walked bottom-up from uses to definitions).
//!
//! ```text
//! before                              after
//! %a = load i32, ptr %p               %b = load i32, ptr %q
//! %b = load i32, ptr %q               %c = mul i32 %b, 3
//! %c = mul i32 %b, 3                  store i32 %c, ptr %r
//! store i32 %c, ptr %r                %a = load i32, ptr %p
//! %d = add i32 %a, 1                  %d = add i32 %a, 1
//! ret i32 %d                          ret i32 %d
//! ```
//!
//! *Outputs* — instructions with side effects or that write memory, volatile
//! or atomic accesses, allocas, EH pads, terminators, and the *pinned* calls
//! below — keep their relative order. Before each output, the instructions
//! computing its operands are placed, operands left to right, depth first
//! (so each definition sits just above its first use). *Readers* (plain
//! loads, read-only calls) may not cross an output: one not yet placed when
//! the walk reaches the next output is placed right before it. Instructions
//! used only in other blocks, or not at all, go just before the block's last
//! unit of outputs (its terminator and what is glued to it).
//!
//! Instructions only move down past outputs, never up, so a trapping
//! instruction is never hoisted above a call that might not return.
//!
//! The placement rules of the LLVM 22 verifier and LangRef, and how each is
//! kept (each has a module in `tests/canon_rules/`):
//!
//! | rule | kept by |
//! |---|---|
//! | PHIs grouped at the top of the block | fixed head (sorted by hash among themselves) |
//! | `landingpad`, `catchpad`, `cleanuppad`, `catchswitch`: first non-PHI | [`must_lead`]: fixed head, right after the PHIs |
//! | `llvm.callbr.landingpad`: first instruction of its block | [`must_lead`] |
//! | terminators (`invoke`, `callbr`, `catchswitch`...) end the block | last output |
//! | `musttail` call, optional bitcast, `ret` | [`glued_to_previous`]: one unit, nothing in between |
//! | `llvm.experimental.deoptimize` then `ret` | [`glued_to_previous`] |
//! | `llvm.amdgcn.cs.chain` then `unreachable` | [`glued_to_previous`] |
//! | convergence `entry`/`loop` not after a convergent op; tokens nest | every convergent call is an output ([`super::instructions::PINNED_INTRINSICS`]) |
//! | `inalloca` allocas between stack save and restore | allocas, `llvm.stacksave`/`stackrestore` are outputs |
//! | `llvm.call.preallocated.*`, `llvm.coro.*`, gc statepoint/result/relocate | pinned calls: outputs |
//! | `llvm.threadlocal.address` not moved across a coroutine suspend | pinned call |
//! | the entry block's leading allocas | fixed head |
//! | definitions before uses | the def-use walk |

use llvm_sys::LLVMOpcode;

use super::blocks::Layout;
use super::instructions::{is_output, OperandTable, NOT_LOCAL};
use super::signature::Signatures;
use crate::ir::{reorder_block, Block, Func, Inst};

/// Canonical position of every instruction in the function (block order,
/// then order within the block), by index in `sigs.insts`.
pub(crate) struct Positions(Vec<usize>);

impl Positions {
    /// Nothing placed yet, for `count` instructions.
    fn unplaced(count: usize) -> Positions {
        Positions(vec![usize::MAX; count])
    }

    /// The position of instruction `k` (`None` while it is not placed).
    pub(crate) fn of(&self, k: usize) -> Option<usize> {
        Some(self.0[k]).filter(|&p| p != usize::MAX)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// Stays where it is (PHIs, a block's EH pad, entry allocas).
    Fixed,
    /// Keeps its order relative to the other outputs.
    Output,
    /// Reads memory: must stay between the same two outputs.
    Reader { segment: usize },
    /// Free to move anywhere after its operands and before its users.
    Pure,
}

/// Must be the first instruction after the PHIs of its block (Verifier:
/// "... not the first non-PHI instruction in the block", and
/// `llvm.callbr.landingpad`: "No other instructions may proceed intrinsic").
pub fn must_lead(inst: Inst) -> bool {
    use LLVMOpcode::*;
    matches!(
        inst.opcode(),
        LLVMLandingPad | LLVMCatchPad | LLVMCleanupPad | LLVMCatchSwitch
    ) || inst
        .callee_name()
        .is_some_and(|n| n == "llvm.callbr.landingpad")
}

fn calls(inst: Inst, prefix: &str) -> bool {
    inst.callee_name().is_some_and(|n| n.starts_with(prefix))
}

/// Whether `inst` must stay right after the instruction before it, with
/// nothing placed between them (Verifier):
/// - a `musttail` call, an optional bitcast of its result, and the `ret`:
///   "musttail call must precede a ret with an optional bitcast";
/// - a call to `llvm.experimental.deoptimize` and the `ret`: "calls to
///   experimental_deoptimize must be followed by a return";
/// - `llvm.amdgcn.cs.chain` and the `unreachable` (or
///   `llvm.amdgcn.unreachable`): "llvm.amdgcn.cs.chain must be followed by
///   unreachable".
pub fn glued_to_previous(inst: Inst) -> bool {
    use LLVMOpcode::*;
    let Some(prev) = inst.prev() else {
        return false;
    };
    let musttail_cast =
        |c: Inst| c.opcode() == LLVMBitCast && c.prev().is_some_and(|m| glued_cast(m, c));
    match inst.opcode() {
        LLVMRet => {
            prev.is_musttail() || calls(prev, "llvm.experimental.deoptimize") || musttail_cast(prev)
        }
        LLVMBitCast => glued_cast(prev, inst),
        LLVMUnreachable => calls(prev, "llvm.amdgcn.cs.chain"),
        LLVMCall => calls(inst, "llvm.amdgcn.unreachable") && calls(prev, "llvm.amdgcn.cs.chain"),
        _ => false,
    }
}

/// A bitcast of a `musttail` call's result, right after it.
fn glued_cast(call: Inst, cast: Inst) -> bool {
    call.is_musttail() && cast.operand(0) == call.val()
}

/// Positions in the function as it is laid out now.
pub(crate) fn current_positions(func: Func, sigs: &Signatures) -> Positions {
    let mut positions = Positions::unplaced(sigs.insts.len());
    let laid_out = func
        .blocks()
        .into_iter()
        .flat_map(|b| b.iter_instructions());
    for (at, inst) in laid_out.enumerate() {
        positions.0[sigs.index[&inst.val()]] = at;
    }
    positions
}

/// How a ready instruction is placed among others: (rank, base and refined hash).
type PlaceKey = (usize, (u64, u64));

/// What placing a function's instructions reads: their hashes and their
/// operands (as ordered), both indexed as `sigs.insts`.
pub(crate) struct Placing<'a> {
    pub sigs: &'a Signatures,
    pub operands: &'a OperandTable,
}

/// Reorders every block of the function and returns the canonical positions.
pub(crate) fn reorder(layout: &Layout, by: &Placing<'_>) -> Positions {
    let mut positions = Positions::unplaced(by.sigs.insts.len());
    let mut placed = 0;
    let mut orders = Vec::with_capacity(layout.order.len());
    for (bi, &b) in layout.order.iter().enumerate() {
        let (order, free) = block_order(b, bi == 0, by, (&positions, placed));
        for &k in &order {
            positions.0[k] = placed;
            placed += 1;
        }
        orders.push((order, free));
    }
    // Interchangeable computations (same hash, no side effects, independent
    // of each other) sitting side by side were ordered by the input as a last
    // resort; put them in the order of their first users instead. Going
    // bottom-up, users are settled before the definitions that feed them.
    for (order, free) in orders.iter_mut().rev() {
        order_interchangeable_runs(order, free, by, &mut positions);
    }
    let mut insts: Vec<Inst> = Vec::new();
    for (order, _) in &orders {
        insts.clear();
        insts.extend(order.iter().map(|&k| by.sigs.insts[k]));
        reorder_block(&insts);
    }
    positions
}

/// `order` holds indexes into `sigs.insts`; `free[k]`: `order[k]` is no
/// PHI, no output and not glued to the instruction before it (see
/// [`block_order`]).
fn order_interchangeable_runs(
    order: &mut [usize],
    free: &[bool],
    by: &Placing<'_>,
    positions: &mut Positions,
) {
    let movable = |k: usize| free[k];
    let full = &by.sigs.full;
    let mut end = order.len();
    while end > 0 {
        let mut start = end - 1;
        while start > 0
            && movable(start - 1)
            && movable(end - 1)
            && full[order[start - 1]] == full[order[end - 1]]
        {
            start -= 1;
        }
        if end - start > 1 {
            let run = &mut order[start..end];
            let independent = run.iter().all(|&k| {
                by.operands
                    .of(k)
                    .all(|(_, j)| j == NOT_LOCAL || !run.contains(&(j as usize)))
            });
            if independent {
                let slots: Vec<usize> = run.iter().map(|&k| positions.0[k]).collect();
                run.sort_by_cached_key(|&k| first_use(k, by.sigs, positions));
                for (&k, slot) in run.iter().zip(slots) {
                    positions.0[k] = slot;
                }
            }
        }
        end = start;
    }
}

/// The position of the first user of instruction `k` (`usize::MAX`: none).
fn first_use(k: usize, sigs: &Signatures, positions: &Positions) -> usize {
    sigs.insts[k]
        .val()
        .uses()
        .iter()
        .filter_map(|(u, _)| sigs.index.get(u).and_then(|&j| positions.of(j)))
        .min()
        .unwrap_or(usize::MAX)
}

/// The canonical order of one block's instructions (as indexes into
/// `sigs.insts`), and for each of them whether it is free (no PHI, no
/// output, not glued to its predecessor). `before`: the positions of the
/// earlier blocks' instructions, and how many those are.
fn block_order(
    b: Block,
    is_entry: bool,
    by: &Placing<'_>,
    before: (&Positions, usize),
) -> (Vec<usize>, Vec<bool>) {
    let insts = b.instructions();
    let n = insts.len();
    // A block's instructions are a run of `sigs.insts`.
    let first = insts.first().map_or(0, |i| by.sigs.index[&i.val()]);
    debug_assert!((0..n).all(|i| by.sigs.insts[first + i] == insts[i]));
    let span = BlockSpan { first, len: n };
    let roles = BlockRoles::of(&insts, is_entry);
    let mut deps = Deps::floating_operands(span, by.operands, &roles.role);
    let outputs: Vec<usize> = (0..n).filter(|&i| roles.role[i] == Role::Output).collect();
    let rank = walk_ranks(&outputs, &mut deps);
    let (readers, leftovers) = roles.readers_and_leftovers(&rank, outputs.len());

    // The constrained walk.
    let mut placement = Placement::new(n);
    placement.fixed_head(&insts, &roles.role, &by.sigs.full[first..first + n]);
    let flush = Flush {
        span,
        rank: &rank,
        by,
        before,
    };
    // Outputs glued together are placed as one unit: the operands of all
    // members, then the readers of their segments (and, for the unit that
    // ends the block, the leftovers) go before its first member.
    let units = glued_units(&outputs, &roles.glued);
    let last_unit = units.len().saturating_sub(1);
    for (u, unit) in units.into_iter().enumerate() {
        for &member in &outputs[unit.clone()] {
            walk_operands_then(
                member,
                &mut deps,
                &mut placement.placed,
                &mut placement.order,
            );
        }
        let groups = readers[unit.clone()]
            .iter()
            .chain((u == last_unit).then_some(&leftovers));
        for group in groups {
            placement.flush(group, &flush, &mut deps);
        }
        for &member in &outputs[unit] {
            placement.placed[member] = true;
            placement.order.push(member);
        }
    }
    // Anything left (a block without outputs cannot verify, but be total).
    for i in 0..n {
        if !placement.placed[i] {
            walk_root(i, &mut deps, &mut placement.placed, &mut placement.order);
        }
    }
    let order = placement.order;
    debug_assert_eq!(order.len(), n);
    let free_in_order = order.iter().map(|&i| roles.free[i]).collect();
    (
        order.into_iter().map(|i| first + i).collect(),
        free_in_order,
    )
}

/// Where a block's instructions are in `sigs.insts`.
#[derive(Clone, Copy)]
struct BlockSpan {
    first: usize,
    len: usize,
}

impl BlockSpan {
    /// The index in the block of instruction `j` of the function, if it
    /// is one of the block's.
    fn local(self, j: u32) -> Option<usize> {
        let j = (j as usize).checked_sub(self.first)?;
        (j < self.len).then_some(j)
    }
}

/// What each instruction of a block may do in the ordering.
struct BlockRoles {
    role: Vec<Role>,
    /// No PHI, no output, not glued to its predecessor.
    free: Vec<bool>,
    /// Glued to the previous instruction.
    glued: Vec<bool>,
}

impl BlockRoles {
    /// The fixed head: PHIs, then the instruction that must lead the block
    /// (an EH pad), then, in the entry block, the leading allocas. Both
    /// members of a glued pair are outputs.
    fn of(insts: &[Inst], is_entry: bool) -> BlockRoles {
        let glued: Vec<bool> = insts.iter().map(|&i| glued_to_previous(i)).collect();
        let mut role = Vec::with_capacity(insts.len());
        let mut free = Vec::with_capacity(insts.len());
        let mut head = true;
        let mut led = false;
        let mut segment = 0;
        for (k, &inst) in insts.iter().enumerate() {
            let op = inst.opcode();
            let output = op != LLVMOpcode::LLVMPHI && is_output(inst);
            free.push(op != LLVMOpcode::LLVMPHI && !output && !glued[k]);
            let fixed = op == LLVMOpcode::LLVMPHI
                || (!led && must_lead(inst))
                || (is_entry && op == LLVMOpcode::LLVMAlloca);
            role.push(if head && fixed && !inst.is_terminator() {
                led |= op != LLVMOpcode::LLVMPHI;
                Role::Fixed
            } else {
                head = false;
                if glued[k] || glued.get(k + 1) == Some(&true) || output {
                    segment += 1;
                    Role::Output
                } else if inst.may_read_memory() {
                    Role::Reader { segment }
                } else {
                    Role::Pure
                }
            });
        }
        BlockRoles { role, free, glued }
    }

    /// The readers of each segment (the last one holding any past the last
    /// output), and the pure instructions no output reaches.
    fn readers_and_leftovers(
        &self,
        rank: &[usize],
        segments: usize,
    ) -> (Vec<Vec<usize>>, Vec<usize>) {
        let mut readers: Vec<Vec<usize>> = vec![Vec::new(); segments + 1];
        let mut leftovers = Vec::new();
        for (i, role) in self.role.iter().enumerate() {
            match *role {
                Role::Reader { segment } => readers[segment.min(segments)].push(i),
                Role::Pure if rank[i] == usize::MAX => leftovers.push(i),
                _ => {}
            }
        }
        (readers, leftovers)
    }
}

/// The unconstrained walk: the rank at which each instruction is first
/// reached from the outputs' operands (`usize::MAX`: never).
fn walk_ranks(outputs: &[usize], deps: &mut Deps) -> Vec<usize> {
    let n = deps.start.len() - 1;
    let mut rank = vec![usize::MAX; n];
    let mut seen = vec![false; n];
    let mut counter = 0;
    for &output in outputs {
        walk(output, deps, &mut seen, &mut |i| {
            rank[i] = counter;
            counter += 1;
        });
    }
    rank
}

/// The outputs in runs glued together, as ranges of indexes into `outputs`.
fn glued_units(outputs: &[usize], glued: &[bool]) -> Vec<std::ops::Range<usize>> {
    let mut units: Vec<std::ops::Range<usize>> = Vec::new();
    for (k, &output) in outputs.iter().enumerate() {
        match units.last_mut() {
            Some(unit) if glued[output] => unit.end = k + 1,
            _ => units.push(k..k + 1),
        }
    }
    units
}

/// What a flush of floating instructions sorts by.
struct Flush<'b> {
    span: BlockSpan,
    rank: &'b [usize],
    by: &'b Placing<'b>,
    /// Where the values of earlier blocks were placed, and how many.
    before: (&'b Positions, usize),
}

/// The block's order as it is built.
struct Placement {
    placed: Vec<bool>,
    order: Vec<usize>,
    /// Where instruction i sits in `order`, kept in step lazily.
    local_pos: Vec<usize>,
    synced: usize,
}

impl Placement {
    fn new(n: usize) -> Placement {
        Placement {
            placed: vec![false; n],
            order: Vec::with_capacity(n),
            local_pos: vec![usize::MAX; n],
            synced: 0,
        }
    }

    /// PHIs first, sorted by structural hash (their order carries no
    /// meaning), then the entry block's leading allocas in their own order.
    /// `full`: the block's refined hashes.
    fn fixed_head(&mut self, insts: &[Inst], roles: &[Role], full: &[u64]) {
        let fixed = |i: &usize| roles[*i] == Role::Fixed;
        let is_phi = |i: &usize| insts[*i].opcode() == LLVMOpcode::LLVMPHI;
        let mut phis: Vec<usize> = (0..insts.len()).filter(fixed).filter(is_phi).collect();
        phis.sort_by_key(|&i| (full[i], i));
        let allocas = (0..insts.len()).filter(fixed).filter(|i| !is_phi(i));
        for i in phis.into_iter().chain(allocas) {
            self.placed[i] = true;
            self.order.push(i);
        }
    }

    /// Places the unplaced instructions of `group` (readers at the end of
    /// their segment, leftovers before the terminator), sorted by walk
    /// rank, then hash, then where their operands were placed: ties are
    /// structurally interchangeable, and ordering them by their operands
    /// keeps each pairing of definition and use the same whatever the input
    /// order was. (The input position is the very last resort.)
    fn flush(&mut self, group: &[usize], by: &Flush, deps: &mut Deps) {
        for (p, &i) in self.order.iter().enumerate().skip(self.synced) {
            self.local_pos[i] = p;
        }
        self.synced = self.order.len();
        // Sorted by (rank, hash, operand places, index); the places are
        // only worked out where rank and hash tie.
        let sigs = by.by.sigs;
        let first = by.span.first;
        let mut keyed: Vec<(PlaceKey, usize)> = group
            .iter()
            .filter(|&&i| !self.placed[i])
            .map(|&i| {
                (
                    (by.rank[i], (sigs.base[first + i], sigs.full[first + i])),
                    i,
                )
            })
            .collect();
        keyed.sort_unstable();
        let (before, earlier) = by.before;
        let places = |i: usize| -> Vec<(usize, u64)> {
            by.by
                .operands
                .of(first + i)
                .map(|(v, j)| {
                    let place = match by.span.local(j) {
                        Some(l) if self.local_pos[l] != usize::MAX => earlier + self.local_pos[l],
                        Some(_) => usize::MAX,
                        None if j != NOT_LOCAL => before.of(j as usize).unwrap_or(usize::MAX),
                        None => usize::MAX,
                    };
                    (place, sigs.operand_hash_at(v, j))
                })
                .collect()
        };
        for tie in keyed.chunk_by_mut(|a, b| a.0 == b.0) {
            if tie.len() > 1 {
                tie.sort_by_cached_key(|&(_, i)| (places(i), i));
            }
        }
        for (_, i) in keyed {
            walk_root(i, deps, &mut self.placed, &mut self.order);
        }
    }
}

/// Each instruction's same-block floating operands (flattened, one slice
/// per instruction), and the walks' reused stack.
struct Deps {
    flat: Vec<usize>,
    start: Vec<usize>,
    stack: Vec<(usize, usize)>,
}

impl Deps {
    /// The same-block floating operands of each instruction of the block
    /// `span`, in operand order.
    fn floating_operands(span: BlockSpan, operands: &OperandTable, roles: &[Role]) -> Deps {
        let floating = |i: usize| matches!(roles[i], Role::Reader { .. } | Role::Pure);
        let mut deps = Deps {
            flat: Vec::with_capacity(span.len * 2),
            start: Vec::with_capacity(span.len + 1),
            stack: Vec::new(),
        };
        deps.start.push(0);
        for k in span.first..span.first + span.len {
            deps.flat.extend(
                operands
                    .of(k)
                    .filter_map(|(_, j)| span.local(j))
                    .filter(|&i| floating(i)),
            );
            deps.start.push(deps.flat.len());
        }
        deps
    }

    fn of(&self, i: usize) -> &[usize] {
        &self.flat[self.start[i]..self.start[i + 1]]
    }
}

/// Depth-first post-order over `deps` from `root`'s operands (not `root`
/// itself), calling `emit` for each newly reached instruction.
fn walk(root: usize, deps: &mut Deps, seen: &mut [bool], emit: &mut dyn FnMut(usize)) {
    let mut stack = std::mem::take(&mut deps.stack);
    stack.push((root, 0));
    while let Some(top) = stack.last_mut() {
        let (i, k) = *top;
        let ops = deps.of(i);
        if k < ops.len() {
            top.1 += 1;
            let j = ops[k];
            if !seen[j] {
                seen[j] = true;
                stack.push((j, 0));
            }
        } else {
            stack.pop();
            if i != root {
                emit(i);
            }
        }
    }
    deps.stack = stack;
}

/// Places the unplaced operand trees of `root` (not `root` itself).
fn walk_operands_then(root: usize, deps: &mut Deps, placed: &mut [bool], order: &mut Vec<usize>) {
    walk(root, deps, placed, &mut |i| order.push(i));
}

/// Places `root` and its unplaced operand trees.
fn walk_root(root: usize, deps: &mut Deps, placed: &mut [bool], order: &mut Vec<usize>) {
    if placed[root] {
        return;
    }
    walk_operands_then(root, deps, placed, order);
    placed[root] = true;
    order.push(root);
}
