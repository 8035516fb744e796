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
//! or atomic accesses, allocas, EH pads, terminators — keep their relative
//! order. Before each output, the instructions computing its operands are
//! placed, operands left to right, depth first (so each definition sits just
//! above its first use). *Readers* (plain loads, read-only calls) may not
//! cross an output: one not yet placed when the walk reaches the next output
//! is placed right before it. Instructions used only in other blocks, or not
//! at all, go just before the terminator. PHIs, the entry block's leading
//! allocas, and every block holding a `musttail` call keep their places
//! (PHIs among themselves are sorted by structural hash).
//!
//! Instructions only move down past outputs, never up, so a trapping
//! instruction is never hoisted above a call that might not return.

use rustc_hash::FxHashMap as HashMap;

use llvm_sys::LLVMOpcode;

use super::blocks::Layout;
use super::signature::Signatures;
use crate::ir::{reorder_block, Block, Func, Inst, Val};

/// Canonical position of every instruction in the function (block order,
/// then order within the block).
pub type Positions = HashMap<Val, usize>;

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

/// Intrinsics whose place carries meaning although LLVM may consider them
/// free of side effects (`memory(none)`, `nounwind`, `willreturn`), each
/// with the reason. A call to one of them is an output.
pub const PINNED_INTRINSICS: &[(&str, &str)] = &[
    (
        "llvm.experimental.convergence.",
        "Verifier (ConvergenceVerifier): `entry` and `loop` may not be preceded \
         by a convergent operation in their block, and token regions must nest \
         in program order",
    ),
    (
        "llvm.coro.",
        "Coroutines: CoroEarly/CoroSplit read the positions of the coroutine \
         intrinsics (id, frame, size, save, suspend, end...) as the coroutine's structure",
    ),
    (
        "llvm.experimental.gc.",
        "Statepoints: gc.result and gc.relocate are tied to their statepoint",
    ),
    (
        "llvm.threadlocal.address",
        "LangRef: a thread-local address may differ across a coroutine suspend point",
    ),
    (
        "llvm.stacksave",
        "LangRef: stack save/restore bracket dynamic (inalloca) allocas",
    ),
    (
        "llvm.stackrestore",
        "LangRef: stack save/restore bracket dynamic (inalloca) allocas",
    ),
    (
        "llvm.call.preallocated.",
        "LangRef: setup, arg and teardown bracket a preallocated call",
    ),
];

/// Must be the first instruction after the PHIs of its block (Verifier:
/// "... not the first non-PHI instruction in the block", and
/// `llvm.callbr.landingpad`: "No other instructions may proceed intrinsic").
pub(crate) fn must_lead(inst: Inst) -> bool {
    use LLVMOpcode::*;
    matches!(
        inst.opcode(),
        LLVMLandingPad | LLVMCatchPad | LLVMCleanupPad | LLVMCatchSwitch
    ) || inst
        .callee_name()
        .is_some_and(|n| n == "llvm.callbr.landingpad")
}

/// A call whose position carries meaning beyond its memory effects: a
/// convergent call (convergence tokens nest in program order; the entry
/// intrinsic may not follow a convergent operation) or a
/// [`PINNED_INTRINSICS`] one.
fn is_pinned_call(inst: Inst) -> bool {
    use LLVMOpcode::*;
    if !matches!(inst.opcode(), LLVMCall | LLVMInvoke | LLVMCallBr) {
        return false;
    }
    inst.is_convergent()
        || inst.callee_name().is_some_and(|n| {
            PINNED_INTRINSICS
                .iter()
                .any(|(prefix, _)| n.starts_with(prefix))
        })
}

/// An instruction whose relative order among outputs is fixed: side
/// effects or memory writes, volatile or atomic accesses, allocas, EH pads,
/// `va_arg`, terminators, and the pinned calls.
pub(crate) fn is_output(inst: Inst) -> bool {
    use LLVMOpcode::*;
    inst.is_terminator()
        || inst.is_volatile_or_atomic()
        || inst.may_have_side_effects()
        || matches!(
            inst.opcode(),
            LLVMAlloca | LLVMLandingPad | LLVMCatchPad | LLVMCleanupPad | LLVMVAArg | LLVMCallBr
        )
        || is_pinned_call(inst)
}

/// How many instructions at the end of the block (the terminator included)
/// must stay together, in order, with nothing placed between them:
/// a `musttail` call, an optional bitcast of it and the `ret` (Verifier:
/// "musttail call must precede a ret with an optional bitcast"); a call to
/// `llvm.experimental.deoptimize` and the `ret` (Verifier: "calls to
/// experimental_deoptimize must be followed by a return"). 1 otherwise.
pub(crate) fn glued_tail(insts: &[Inst]) -> usize {
    let n = insts.len();
    if n < 2 || insts[n - 1].opcode() != LLVMOpcode::LLVMRet {
        return 1.min(n);
    }
    let before = insts[n - 2];
    let ends_call = |c: Inst| {
        c.is_musttail()
            || c.callee_name()
                .is_some_and(|name| name.starts_with("llvm.experimental.deoptimize"))
    };
    if ends_call(before) {
        return 2;
    }
    if n >= 3
        && before.opcode() == LLVMOpcode::LLVMBitCast
        && insts[n - 3].is_musttail()
        && before.operand(0) == insts[n - 3].val()
    {
        return 3;
    }
    1
}

/// Positions in the function as it is laid out now.
pub fn current_positions(func: Func) -> Positions {
    func.blocks()
        .iter()
        .flat_map(|b| b.instructions())
        .enumerate()
        .map(|(i, inst)| (inst.val(), i))
        .collect()
}

/// Reorders every block of the function and returns the canonical positions.
pub fn reorder(layout: &Layout, sigs: &Signatures) -> Positions {
    let mut positions = Positions::with_capacity_and_hasher(sigs.insts.len(), Default::default());
    let mut orders = Vec::with_capacity(layout.order.len());
    for (bi, &b) in layout.order.iter().enumerate() {
        let order = block_order(b, bi == 0, sigs, &positions);
        for inst in &order {
            let n = positions.len();
            positions.insert(inst.val(), n);
        }
        orders.push(order);
    }
    // Interchangeable computations (same hash, no side effects, independent
    // of each other) sitting side by side were ordered by the input as a last
    // resort; put them in the order of their first users instead. Going
    // bottom-up, users are settled before the definitions that feed them.
    for order in orders.iter_mut().rev() {
        order_interchangeable_runs(order, sigs, &mut positions);
    }
    for order in &orders {
        reorder_block(order);
    }
    positions
}

fn order_interchangeable_runs(order: &mut [Inst], sigs: &Signatures, positions: &mut Positions) {
    let glued = order.len() - glued_tail(order);
    let free: Vec<bool> = order
        .iter()
        .enumerate()
        .map(|(k, &a)| k < glued && a.opcode() != LLVMOpcode::LLVMPHI && !is_output(a))
        .collect();
    let movable = |k: usize| free[k];
    let mut end = order.len();
    while end > 0 {
        let mut start = end - 1;
        while start > 0
            && movable(start - 1)
            && movable(end - 1)
            && sigs.of(order[start - 1]) == sigs.of(order[end - 1])
        {
            start -= 1;
        }
        if end - start > 1 {
            let run = &mut order[start..end];
            let members: Vec<Val> = run.iter().map(|i| i.val()).collect();
            let independent = run
                .iter()
                .all(|i| i.operands().iter().all(|v| !members.contains(v)));
            if independent {
                let slots: Vec<usize> = run.iter().map(|i| positions[&i.val()]).collect();
                run.sort_by_cached_key(|&i| {
                    i.val()
                        .uses()
                        .iter()
                        .filter_map(|(u, _)| positions.get(u).copied())
                        .min()
                        .unwrap_or(usize::MAX)
                });
                for (inst, slot) in run.iter().zip(slots) {
                    positions.insert(inst.val(), slot);
                }
            }
        }
        end = start;
    }
}

/// The canonical order of one block's instructions.
fn block_order(b: Block, is_entry: bool, sigs: &Signatures, before: &Positions) -> Vec<Inst> {
    let insts = b.instructions();
    let n = insts.len();
    let local: HashMap<Val, usize> = insts
        .iter()
        .enumerate()
        .map(|(i, inst)| (inst.val(), i))
        .collect();

    // Roles. The fixed head: PHIs, then the instruction that must lead the
    // block (an EH pad), then, in the entry block, the leading allocas.
    let tail = n - glued_tail(&insts);
    let mut roles = Vec::with_capacity(n);
    let mut head = true;
    let mut led = false;
    let mut segment = 0;
    for (k, &inst) in insts.iter().enumerate() {
        let op = inst.opcode();
        let fixed = op == LLVMOpcode::LLVMPHI
            || (!led && must_lead(inst))
            || (is_entry && op == LLVMOpcode::LLVMAlloca);
        let role = if head && fixed && !inst.is_terminator() {
            led |= op != LLVMOpcode::LLVMPHI;
            Role::Fixed
        } else {
            head = false;
            if k >= tail || is_output(inst) {
                segment += 1;
                Role::Output
            } else if inst.may_read_memory() {
                Role::Reader { segment }
            } else {
                Role::Pure
            }
        };
        roles.push(role);
    }
    let floating = |i: usize| matches!(roles[i], Role::Reader { .. } | Role::Pure);

    // Same-block floating operands of each instruction, in operand order.
    let deps: Vec<Vec<usize>> = insts
        .iter()
        .map(|inst| {
            inst.iter_operands()
                .filter_map(|v| local.get(&v).copied())
                .filter(|&j| floating(j))
                .collect()
        })
        .collect();
    let outputs: Vec<usize> = (0..n).filter(|&i| roles[i] == Role::Output).collect();

    // Unconstrained walk: the rank at which each instruction is first reached.
    let mut rank: Vec<usize> = vec![usize::MAX; n];
    {
        let mut seen = vec![false; n];
        let mut counter = 0;
        for &o in &outputs {
            walk(o, &deps, &mut seen, &mut |i| {
                rank[i] = counter;
                counter += 1;
            });
        }
    }

    let segments = outputs.len();
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); segments + 1];
    let mut leftovers = Vec::new();
    for i in 0..n {
        match roles[i] {
            Role::Reader { segment } => readers[segment.min(segments)].push(i),
            Role::Pure if rank[i] == usize::MAX => leftovers.push(i),
            _ => {}
        }
    }

    // The constrained walk.
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    // PHIs first, sorted by structural hash (their order carries no meaning),
    // then the entry block's leading allocas in their own order.
    let mut phis: Vec<usize> = (0..n)
        .filter(|&i| roles[i] == Role::Fixed && insts[i].opcode() == LLVMOpcode::LLVMPHI)
        .collect();
    phis.sort_by_key(|&i| (sigs.of(insts[i]), i));
    let allocas =
        (0..n).filter(|&i| roles[i] == Role::Fixed && insts[i].opcode() != LLVMOpcode::LLVMPHI);
    for i in phis.into_iter().chain(allocas) {
        placed[i] = true;
        order.push(i);
    }
    // Instructions placed by a flush (readers at the end of their segment,
    // leftovers before the terminator) are sorted by walk rank, then hash,
    // then where their operands were placed: ties are structurally
    // interchangeable, and ordering them by their operands keeps each
    // pairing of definition and use the same whatever the input order was.
    // (The input position is the very last resort.)
    let earlier = before.len();
    // local_pos[i]: where instruction i sits in `order`, kept in step lazily.
    let mut local_pos = vec![usize::MAX; n];
    let mut synced = 0;
    // The glued tail (the terminator, and what must stay right before it)
    // is placed as one: its operands, the last readers and the leftovers
    // all go before its first member.
    let tail_start = outputs.partition_point(|&o| o < tail);
    for (k, &o) in outputs.iter().enumerate() {
        if k > tail_start {
            placed[o] = true;
            order.push(o);
            continue;
        }
        let flushes: Vec<&Vec<usize>> = if k == tail_start {
            for &m in &outputs[k..] {
                walk_operands_then(m, &deps, &mut placed, &mut order);
            }
            readers[k..].iter().chain([&leftovers]).collect()
        } else {
            walk_operands_then(o, &deps, &mut placed, &mut order);
            vec![&readers[k]]
        };
        for group in flushes {
            for (p, &i) in order.iter().enumerate().skip(synced) {
                local_pos[i] = p;
            }
            synced = order.len();
            let mut keyed: Vec<_> = group
                .iter()
                .filter(|&&i| !placed[i])
                .map(|&i| {
                    let places: Vec<(usize, u64)> = insts[i]
                        .operands()
                        .into_iter()
                        .map(|v| {
                            let place = match local.get(&v) {
                                Some(&j) if local_pos[j] != usize::MAX => earlier + local_pos[j],
                                Some(_) => usize::MAX,
                                None => before.get(&v).copied().unwrap_or(usize::MAX),
                            };
                            (place, sigs.operand_hash(v))
                        })
                        .collect();
                    ((rank[i], sigs.of(insts[i]), places), i)
                })
                .collect();
            keyed.sort();
            for (_, i) in keyed {
                walk_root(i, &deps, &mut placed, &mut order);
            }
        }
        placed[o] = true;
        order.push(o);
    }
    // Anything left (a block without outputs cannot verify, but be total).
    for i in 0..n {
        if !placed[i] {
            walk_root(i, &deps, &mut placed, &mut order);
        }
    }
    debug_assert_eq!(order.len(), n);
    order.into_iter().map(|i| insts[i]).collect()
}

/// Depth-first post-order over `deps` from `root`'s operands (not `root`
/// itself), calling `emit` for each newly reached instruction.
fn walk(root: usize, deps: &[Vec<usize>], seen: &mut [bool], emit: &mut dyn FnMut(usize)) {
    let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
    while let Some(top) = stack.last_mut() {
        let (i, k) = *top;
        if k < deps[i].len() {
            top.1 += 1;
            let j = deps[i][k];
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
}

/// Places the unplaced operand trees of `root` (not `root` itself).
fn walk_operands_then(
    root: usize,
    deps: &[Vec<usize>],
    placed: &mut [bool],
    order: &mut Vec<usize>,
) {
    walk(root, deps, placed, &mut |i| order.push(i));
}

/// Places `root` and its unplaced operand trees.
fn walk_root(root: usize, deps: &[Vec<usize>], placed: &mut [bool], order: &mut Vec<usize>) {
    if placed[root] {
        return;
    }
    walk_operands_then(root, deps, placed, order);
    placed[root] = true;
    order.push(root);
}
