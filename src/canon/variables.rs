//! Variables (allocas) get an identity of their own before any refinement,
//! and every instruction that uses one sees it in its base hash.
//!
//! ```text
//! %var.1 = alloca i32                 kind = H(alloca i32, holds argument 0, users' shapes)
//! %var.2 = alloca i32                 kind = H(alloca i32, users' shapes), rank 0
//! %var.3 = alloca i32                 the same kind, rank 1
//! store i32 %arg0, ptr %var.1
//! %ld = load i32, ptr %var.2          base = H(load i32, var.2's kind, what it feeds)
//! %add = add nsw i32 %ld, 1                  (an add whose other operand is a
//! store i32 %add, ptr %var.3                  constant)
//! ```
//!
//! At -O0 every read of a variable looks alike (`load i32, ptr %var`): left
//! to refinement, which loads collide, and so how each is refined, depends
//! on the whole function, and one load added anywhere renamed loads
//! everywhere. Here a variable is named by what it is (the argument it
//! holds, the kinds of its uses, else its rank among the allocas that look
//! the same), never by the values its uses compute, and a load by its
//! variable's kind and what it feeds (its users' operand positions and
//! other operands' shapes, a store's variable, a call's callee; never its
//! block, whose name an `if` added nearby changes): one more read of a
//! variable renames no other read.

use rustc_hash::FxHashMap as HashMap;

use llvm_sys::LLVMOpcode;

use super::instructions::{is_commutative_binop, is_compare, is_output, OperandLists, Users};
use crate::hash::StableHasher;
use crate::ir::{Inst, Val, ValKind};

/// Rewrites `base` in place: each alloca's hash becomes its identity, each
/// instruction with alloca operands absorbs their kinds, and a load
/// of a variable also what it feeds. Returns which instructions use a
/// variable (same indexing as `insts`).
pub(super) fn absorb_variables(
    base: &mut [u64],
    insts: &[Inst],
    opcodes: &[LLVMOpcode],
    operands: &OperandLists,
    users: &Users,
) -> Vec<bool> {
    let mut uses_variable = vec![false; insts.len()];
    let ids = identities(base, insts, opcodes, operands, users);
    if ids.is_empty() {
        return uses_variable;
    }
    let mut vars: Vec<(u64, u64)> = Vec::new();
    let mut reads = Vec::new();
    for (i, &op) in opcodes.iter().enumerate() {
        vars.clear();
        for (k, o) in operands.of(i).iter().enumerate() {
            if let Ok(j) = o {
                if let Some(&(kind, _)) = ids.get(j) {
                    vars.push((k as u64, kind));
                }
            }
        }
        if vars.is_empty() {
            continue;
        }
        if is_commutative_binop(op) || is_compare(op) || op == LLVMOpcode::LLVMPHI {
            for v in vars.iter_mut() {
                v.0 = u64::MAX;
            }
            vars.sort_unstable();
        }
        let mut h = StableHasher::new().u64(base[i]).str("vars");
        for &(k, id) in &vars {
            h = h.u64(k).u64(id);
        }
        base[i] = h.finish();
        uses_variable[i] = true;
        if op == LLVMOpcode::LLVMLoad {
            reads.push(i);
        }
    }
    for (&j, &(kind, _)) in &ids {
        base[j] = kind;
    }
    let with_vars = base.to_vec();
    let cx = Feeds {
        insts,
        users,
        operands,
        base: &with_vars,
    };
    for i in reads {
        base[i] = StableHasher::new()
            .u64(with_vars[i])
            .str("feeds")
            .u64(feeds(i, FEEDS_DEPTH, &cx))
            .finish();
    }
    for (&j, &(_, id)) in &ids {
        base[j] = id;
    }
    uses_variable
}

/// How many levels of users a read's context sees. One: deeper, an edit
/// of a computation renames the reads below it (measured on
/// `tests/canon_locality`'s mutations: p90 of max(removed, added) 17 at
/// depth 1, 24 at 2, 26 at 4; real edits at -O0 gain little from depth).
const FEEDS_DEPTH: usize = 1;

fn feeds(i: usize, depth: usize, cx: &Feeds) -> u64 {
    let mut parts: Vec<(u64, u32, u64, u64)> = cx
        .users
        .of(i)
        .iter()
        .map(|&(u, k)| {
            let output = is_output(cx.insts[u]);
            let up = if depth > 1 && !output {
                feeds(u, depth - 1, cx)
            } else {
                0
            };
            let shape = if !output {
                0
            } else if cx.insts[u].is_terminator() {
                StableHasher::new().str(cx.insts[u].opcode_name()).finish()
            } else {
                cx.base[u]
            };
            (shape, k, up, cx.siblings(u, i))
        })
        .collect();
    parts.sort_unstable();
    let mut h = StableHasher::new().str("feeds");
    for (b, k, up, sib) in parts {
        h = h.u64(b).u64(k as u64).u64(up).u64(sib);
    }
    h.finish()
}

/// What [`feeds`] looks at.
struct Feeds<'a> {
    insts: &'a [Inst],
    users: &'a Users,
    operands: &'a OperandLists,
    base: &'a [u64],
}

impl Feeds<'_> {
    /// The shapes of `u`'s instruction operands other than `i`: each one's
    /// base hash and its own instruction operands' (constants left out).
    fn siblings(&self, u: usize, i: usize) -> u64 {
        let shape = |j: usize| {
            let mut v: Vec<u64> = self
                .operands
                .of(j)
                .iter()
                .filter_map(|o| o.ok().map(|x| self.base[x]))
                .collect();
            v.sort_unstable();
            let mut h = StableHasher::new().u64(self.base[j]);
            for x in v {
                h = h.u64(x);
            }
            h.finish()
        };
        let mut v: Vec<u64> = self
            .operands
            .of(u)
            .iter()
            .filter_map(|o| o.ok())
            .filter(|&j| j != i)
            .map(shape)
            .collect();
        v.sort_unstable();
        let mut h = StableHasher::new().str("siblings");
        for x in v {
            h = h.u64(x);
        }
        h.finish()
    }
}

/// The identity of each alloca (by index in `insts`): its base hash and
/// the source variable a `#dbg_declare` says it holds, when one does;
/// else the argument it holds (an argument stored into it, as clang spills
/// parameters at -O0), the set of its users' shapes (base hash and operand
/// position: a variable stored a constant and one stored a computed value
/// differ): its *kind*; where several allocas share a kind, each also its
/// rank among them. Returns (kind, identity). The users see the kind only:
/// a variable declared above another of its kind renames that variable,
/// not every value computed from it.
fn identities(
    base: &[u64],
    insts: &[Inst],
    opcodes: &[LLVMOpcode],
    operands: &OperandLists,
    users: &Users,
) -> HashMap<usize, (u64, u64)> {
    let mut spilled: HashMap<usize, u64> = HashMap::default();
    for (s, &op) in opcodes.iter().enumerate() {
        if op != LLVMOpcode::LLVMStore {
            continue;
        }
        if let [Err(arg), Ok(j)] = operands.of(s) {
            if opcodes[*j] == LLVMOpcode::LLVMAlloca
                && insts[s].operand(0).kind() == ValKind::Argument
            {
                spilled.entry(*j).or_insert(*arg);
            }
        }
    }
    let mut kinds: Vec<(usize, u64)> = Vec::new();
    let mut shapes: Vec<(u64, u32)> = Vec::new();
    for (i, &op) in opcodes.iter().enumerate() {
        if op != LLVMOpcode::LLVMAlloca {
            continue;
        }
        let mut key = StableHasher::new().u64(base[i]).str("var");
        if let Some(variable) = insts[i].declared_variable() {
            // The source variable it is: no use it has renames it.
            kinds.push((i, key.str("declares").str(&variable).finish()));
            continue;
        }
        if let Some(&arg) = spilled.get(&i) {
            key = key.str("holds").u64(arg);
        }
        if is_return_slot(insts[i]) {
            key = key.str("return slot");
        }
        shapes.clear();
        shapes.extend(users.of(i).iter().map(|&(u, k)| (base[u], k)));
        shapes.sort_unstable();
        shapes.dedup();
        for &(b, k) in &shapes {
            key = key.u64(b).u64(k as u64);
        }
        kinds.push((i, key.finish()));
    }
    // A variable alone of its kind is named by its kind; equal kinds by
    // kind and rank, all of them: a variable declared above one of its
    // kind takes no name the other had.
    let mut count: HashMap<u64, u64> = HashMap::default();
    for &(_, kind) in &kinds {
        *count.entry(kind).or_insert(0) += 1;
    }
    let mut rank: HashMap<u64, u64> = HashMap::default();
    let mut ids = HashMap::default();
    for (i, kind) in kinds {
        let id = if count[&kind] == 1 {
            kind
        } else {
            let r = rank.entry(kind).or_insert(0);
            *r += 1;
            StableHasher::new()
                .u64(kind)
                .str("rank")
                .u64(*r - 1)
                .finish()
        };
        ids.insert(i, (kind, id));
    }
    ids
}

/// Whether `alloca` is a function's return slot as clang writes one at
/// -O0 for a function with several `return`s (`retval`): read at least
/// once, and every read feeds a `ret`. Among the variables alike in their
/// uses (stored a constant and a computed value, read), it is the one an
/// added early `return` brings; a kind of its own leaves the others the
/// ranks they had.
///
/// ```text
/// %retval = alloca i32      store i32 -1, ptr %retval ... %r = load i32, ptr %retval; ret i32 %r
/// ```
pub(super) fn is_return_slot(alloca: Inst) -> bool {
    let is = |v: Val, op: LLVMOpcode| v.as_inst().is_some_and(|i| i.opcode() == op);
    let reads: Vec<Val> = (alloca.val().uses().into_iter())
        .map(|(user, _)| user)
        .filter(|&user| is(user, LLVMOpcode::LLVMLoad))
        .collect();
    !reads.is_empty()
        && reads.iter().all(|read| {
            let feeds = read.uses();
            !feeds.is_empty() && feeds.iter().all(|&(user, _)| is(user, LLVMOpcode::LLVMRet))
        })
}
