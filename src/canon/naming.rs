//! Canonical names for arguments and instruction results.
//!
//! ```text
//! before                              after
//! define i32 @f(i32 %n) {             define i32 @f(i32 %arg0) {
//!   %0 = add nsw i32 %n, 1              %add.5e1c = add nsw i32 %arg0, 1
//!   %1 = load i32, ptr @g               %ld.90af = load i32, ptr @g
//!   %2 = mul i32 %0, %1                 %mul.c2a9 = mul i32 %add.5e1c, %ld.90af
//! ```
//!
//! An argument is `argN` by position. An instruction's name is a short
//! mnemonic of its opcode, a dot, and the first 4 hex digits of its refined
//! structural hash ([`super::signature`]); where two different hashes share
//! those digits in one function, both print 8 (then 16). Instructions whose
//! hashes are equal even after refinement are interchangeable as far as a
//! bounded neighbourhood shows; the first in canonical order keeps the plain
//! name, later ones get `.1`, `.2`, ... No function-wide counter is involved,
//! so an edit renames only the edited value and the few that looked at it.

use rustc_hash::FxHashMap as HashMap;

use llvm_sys::LLVMOpcode;

use super::order::Positions;
use super::signature::Signatures;
use crate::ir::{Func, Inst, Val};

/// The readable part of a value name.
pub fn mnemonic(inst: Inst) -> &'static str {
    use LLVMOpcode::*;
    match inst.opcode() {
        LLVMAlloca => "var",
        LLVMLoad => "ld",
        LLVMGetElementPtr => "gep",
        LLVMICmp | LLVMFCmp => "cmp",
        LLVMSelect => "sel",
        LLVMCall | LLVMInvoke | LLVMCallBr => "call",
        LLVMExtractValue => "ev",
        LLVMInsertValue => "iv",
        LLVMExtractElement => "ee",
        LLVMInsertElement => "ie",
        LLVMShuffleVector => "shuf",
        LLVMAtomicRMW => "rmw",
        LLVMAtomicCmpXchg => "cas",
        LLVMLandingPad => "lp",
        _ => inst.opcode_name(),
    }
}

/// Names every argument and every non-void instruction of `func`.
pub fn apply(func: Func, sigs: &Signatures, positions: &Positions) {
    let params = func.params();
    let named: Vec<Inst> = sigs
        .insts
        .iter()
        .copied()
        .filter(|i| !i.val().is_void())
        .collect();
    let mut renamer = Renamer::default();
    for (k, p) in params.iter().enumerate() {
        renamer.set(*p, format!("arg{k}"));
    }

    // (full hash, mnemonic) -> members; then detect short-prefix clashes.
    // Each group's name depends only on the groups, not on the order in
    // which they are visited.
    let mut by_hash: HashMap<(u64, &'static str), Vec<Inst>> = HashMap::default();
    for &i in &named {
        by_hash
            .entry((sigs.of(i), mnemonic(i)))
            .or_default()
            .push(i);
    }
    let mut prefix_users: HashMap<(u64, &'static str), u32> = HashMap::default();
    for &(h, m) in by_hash.keys() {
        *prefix_users.entry((h >> 48, m)).or_insert(0) += 1;
    }
    let mut long_users: HashMap<(u64, &'static str), u32> = HashMap::default();
    for &(h, m) in by_hash.keys() {
        if prefix_users[&(h >> 48, m)] > 1 {
            *long_users.entry((h >> 32, m)).or_insert(0) += 1;
        }
    }
    for ((h, m), mut members) in by_hash {
        let hex = if prefix_users[&(h >> 48, m)] == 1 {
            format!("{:04x}", h >> 48)
        } else if long_users[&(h >> 32, m)] == 1 {
            format!("{:08x}", h >> 32)
        } else {
            format!("{h:016x}")
        };
        members.sort_by_key(|i| positions.get(&i.val()).copied().unwrap_or(usize::MAX));
        let stem = format!("{m}.{hex}");
        for (k, inst) in members.iter().enumerate() {
            let name = if k == 0 {
                stem.clone()
            } else {
                format!("{stem}.{k}")
            };
            renamer.set(inst.val(), name);
        }
    }
    renamer.finish();
}

/// Gives values their new names without first clearing the old ones: when
/// a new name is still held by another value's old name, LLVM appends a
/// number; those few values are named again once every old name is gone.
#[derive(Default)]
struct Renamer {
    retry: Vec<(Val, String)>,
}

impl Renamer {
    fn set(&mut self, v: Val, name: String) {
        v.set_name(&name);
        if v.name() != name {
            self.retry.push((v, name));
        }
    }

    fn finish(self) {
        // Clear the temporary names first: then every name still held
        // belongs to a value that already has its final (unique) name.
        for (v, _) in &self.retry {
            v.set_name("");
        }
        for (v, name) in self.retry {
            v.set_name(&name);
            debug_assert_eq!(v.name(), name);
        }
    }
}
