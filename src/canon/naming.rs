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

use llvm_sys::LLVMOpcode;

use super::order::Positions;
use super::own_names::{InputName, Kept};
use super::signature::Signatures;
use crate::ir::{Func, Val};

/// The readable part of the name of an instruction with opcode `op`.
fn mnemonic_of(op: LLVMOpcode) -> &'static str {
    use LLVMOpcode::*;
    match op {
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
        _ => crate::ir::opcode_name(op),
    }
}

/// One named instruction: (mnemonic class, full hash, canonical position,
/// index in `sigs.insts`).
type Named = (u32, u64, u32, u32);

/// Names every argument and every non-void instruction of `func`, but for
/// those whose input names are `kept` (a test's names, a file's own names),
/// each by its hash in `hashes` (`sigs.full`, or the view's
/// [`super::roles`]; same indexing as `sigs.insts`). `input_names` are the
/// instructions' ([`super::own_names::input_names`]; empty where `kept`
/// is [`Kept::Nothing`]).
pub(crate) fn apply(
    func: Func,
    sigs: &Signatures,
    hashes: &[u64],
    positions: &Positions,
    (kept, input_names): (Kept, &[InputName]),
) {
    let mut renamer = Renamer { retry: Vec::new() };
    let mut name = String::new();
    for (k, p) in func.params().iter().enumerate() {
        if kept != Kept::Nothing && kept.keeps(&p.name()) {
            continue;
        }
        name.clear();
        name.push_str("arg");
        push_decimal(&mut name, k);
        renamer.set(*p, &name);
    }

    // Group by (mnemonic, full hash), members in canonical order (the index
    // in `sigs.insts` breaks ties between unplaced values): after sorting,
    // a group is a run, and so are the groups sharing a hash prefix. Each
    // group's name depends only on the groups, not on any visiting order.
    // A file's own names take no part (their values are not renamed).
    let keeps = |k: usize| kept != Kept::Nothing && kept.keeps_input(input_names[k]);
    let mut named: Vec<Named> = (0..sigs.insts.len())
        .filter(|&k| !sigs.voids[k] && (kept != Kept::Own || !keeps(k)))
        .map(|k| (mnemonic_class(sigs.opcodes[k]), hashes[k], 0, k as u32))
        .collect();
    named.sort_unstable();
    place_group_members(&mut named, positions);
    let stems = group_stems(&named);
    let mut rename = |k: usize, stem: (u32, u32)| {
        if keeps(k) {
            return;
        }
        write_name(&mut name, mnemonic_of(sigs.opcodes[k]), hashes[k], stem);
        renamer.set(sigs.insts[k].val(), &name);
    };
    if clashes_for_good(func, kept) {
        for (entry, &stem) in named.iter().zip(&stems) {
            rename(entry.3 as usize, stem);
        }
    } else {
        for (k, stem) in stems_by_index(&named, &stems, sigs.insts.len()) {
            rename(k, stem);
        }
    }
    renamer.finish();
}

/// Whether a new name could clash for good with a name that stays, where
/// LLVM's suffix for it would depend on the order of renaming: every
/// name a test has stays ([`Kept::Written`]); a file's own names
/// ([`Kept::Own`]) never look like the names given here (those end in
/// hex digits of a hash or in a member number), but a block that kept
/// some other name (block names not renamed) might.
fn clashes_for_good(func: Func, kept: Kept) -> bool {
    match kept {
        Kept::Nothing => false,
        Kept::Written => true,
        Kept::Own => func.blocks().into_iter().any(|b| {
            b.as_val().with_name(|name| {
                name.split_once('.')
                    .is_some_and(|(stem, _)| super::own_names::is_mnemonic(stem))
            })
        }),
    }
}

/// Sorts the members of each group (a run of equal mnemonic and hash) by
/// canonical position, then index: `named` is then in (mnemonic, hash,
/// position, index) order. Only members of a group need their position.
fn place_group_members(named: &mut [Named], positions: &Positions) {
    for run in named.chunk_by_mut(|a, b| a.0 == b.0 && a.1 == b.1) {
        if run.len() > 1 {
            for entry in run.iter_mut() {
                let pos = positions.of(entry.3 as usize).unwrap_or(usize::MAX);
                entry.2 = u32::try_from(pos).unwrap_or(u32::MAX);
            }
            run.sort_unstable();
        }
    }
}

/// `mnemonic.<hash digits>`, then `.member` after a group's first.
fn write_name(name: &mut String, mnemonic: &str, h: u64, (digits, member): (u32, u32)) {
    name.clear();
    name.push_str(mnemonic);
    name.push('.');
    push_hex(name, h >> (64 - 4 * digits), digits);
    if member > 0 {
        name.push('.');
        push_decimal(name, member as usize);
    }
}

/// The stems of the named instructions in instruction order (the canonical
/// block order): a canonical function is renamed in that order, so LLVM
/// allocates the names about in the order it prints them (the printer
/// reads them in sequence instead of all over memory). The names do not
/// depend on this order: every value gets a new name, each unique, and a
/// name still held by an old one is set again at the end ([`Renamer`]).
/// (Where a new name could clash with a name that stays for good, LLVM's
/// suffix for it would depend on the order: there the order stays that of
/// the groups, see [`clashes_for_good`].)
fn stems_by_index(
    named: &[Named],
    stems: &[(u32, u32)],
    len: usize,
) -> impl Iterator<Item = (usize, (u32, u32))> {
    // digits 0: not named
    let mut by_index = vec![(0, 0); len];
    for (entry, &stem) in named.iter().zip(stems) {
        by_index[entry.3 as usize] = stem;
    }
    by_index
        .into_iter()
        .enumerate()
        .filter(|(_, (digits, _))| *digits > 0)
}

/// For each entry of the sorted `named`: how many hex digits of its hash
/// its name shows (4, or 8 or 16 where groups of its mnemonic share the
/// shorter prefix), and its rank in its group (`.1`, `.2`... after the first).
fn group_stems(named: &[Named]) -> Vec<(u32, u32)> {
    // (mnemonic, hash, first member, end of members) per group
    let groups: Vec<(u32, u64, usize, usize)> = named
        .chunk_by(|a, b| a.0 == b.0 && a.1 == b.1)
        .scan(0, |start, run| {
            let g = (run[0].0, run[0].1, *start, *start + run.len());
            *start += run.len();
            Some(g)
        })
        .collect();
    // How many groups share a group's 16-bit and 32-bit hash prefixes.
    let sharing = |shift: u32| -> Vec<usize> {
        let mut counts = Vec::with_capacity(groups.len());
        for run in groups.chunk_by(|a, b| a.0 == b.0 && a.1 >> shift == b.1 >> shift) {
            counts.extend(std::iter::repeat_n(run.len(), run.len()));
        }
        counts
    };
    let short = sharing(48);
    let long = sharing(32);
    let mut stems = Vec::with_capacity(named.len());
    for (g, &(_, _, start, end)) in groups.iter().enumerate() {
        let digits = if short[g] == 1 {
            4
        } else if long[g] == 1 {
            8
        } else {
            16
        };
        stems.extend((0..(end - start) as u32).map(|member| (digits, member)));
    }
    stems
}

/// A number per mnemonic: equal numbers are equal [`mnemonic`]s (the
/// opcodes that share one map to one of them), cheaper to sort than strings.
fn mnemonic_class(op: LLVMOpcode) -> u32 {
    use LLVMOpcode::*;
    (match op {
        LLVMFCmp => LLVMICmp,
        LLVMInvoke | LLVMCallBr => LLVMCall,
        op => op,
    }) as u32
}

/// Appends the low `digits` hex digits of `v` (lower case, zero padded).
fn push_hex(out: &mut String, v: u64, digits: u32) {
    for d in (0..digits).rev() {
        let nibble = ((v >> (4 * d)) & 0xf) as u32;
        out.push(char::from_digit(nibble, 16).expect("a nibble is a hex digit"));
    }
}

/// Appends `v` in decimal.
fn push_decimal(out: &mut String, v: usize) {
    if v >= 10 {
        push_decimal(out, v / 10);
    }
    out.push(char::from_digit((v % 10) as u32, 10).expect("a decimal digit"));
}

/// Gives values their new names without first clearing the old ones: when
/// a new name is still held by another value's old name, LLVM appends a
/// number; those few values are named again once every old name is gone.
struct Renamer {
    retry: Vec<(Val, String)>,
}

impl Renamer {
    fn set(&mut self, v: Val, name: &str) {
        v.set_name(name);
        if !v.has_name(name) {
            self.retry.push((v, name.to_string()));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::own_names::is_mnemonic;

    /// Every opcode that can have a result has its mnemonic in the list
    /// that tells the view's own names apart from a file's.
    #[test]
    fn every_mnemonic_is_listed() {
        use LLVMOpcode::*;
        let with_result = [
            LLVMInvoke,
            LLVMCallBr,
            LLVMFNeg,
            LLVMAdd,
            LLVMFAdd,
            LLVMSub,
            LLVMFSub,
            LLVMMul,
            LLVMFMul,
            LLVMUDiv,
            LLVMSDiv,
            LLVMFDiv,
            LLVMURem,
            LLVMSRem,
            LLVMFRem,
            LLVMShl,
            LLVMLShr,
            LLVMAShr,
            LLVMAnd,
            LLVMOr,
            LLVMXor,
            LLVMAlloca,
            LLVMLoad,
            LLVMGetElementPtr,
            LLVMTrunc,
            LLVMZExt,
            LLVMSExt,
            LLVMFPToUI,
            LLVMFPToSI,
            LLVMUIToFP,
            LLVMSIToFP,
            LLVMFPTrunc,
            LLVMFPExt,
            LLVMPtrToInt,
            LLVMPtrToAddr,
            LLVMIntToPtr,
            LLVMBitCast,
            LLVMAddrSpaceCast,
            LLVMICmp,
            LLVMFCmp,
            LLVMPHI,
            LLVMCall,
            LLVMSelect,
            LLVMVAArg,
            LLVMExtractElement,
            LLVMInsertElement,
            LLVMShuffleVector,
            LLVMExtractValue,
            LLVMInsertValue,
            LLVMFreeze,
            LLVMAtomicCmpXchg,
            LLVMAtomicRMW,
            LLVMLandingPad,
            LLVMCatchPad,
            LLVMCleanupPad,
            LLVMCatchSwitch,
        ];
        for op in with_result {
            assert!(is_mnemonic(mnemonic_of(op)), "{op:?}");
        }
    }
}
