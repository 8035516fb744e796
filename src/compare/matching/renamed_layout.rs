//! The fast path of [`super::match_function`] for a side that kept
//! the base's layout but renamed values: an edited constant changes the
//! canonical name of the value it defines, and its users then name it anew.
//!
//! ```text
//! O:  %mul.2e9e = mul i32 %ld.cd9b, 394359     S:  %mul.08a4 = mul i32 %ld.cd9b, 394376
//!     store i32 %mul.2e9e, ptr %p, align 4         store i32 %mul.08a4, ptr %p, align 4
//! matching: mul.08a4 -> mul.2e9e, every other name itself
//! ```
//!
//! The values are paired by position. The conditions below make that
//! pairing what the full matching finds, step by step:
//! - every block is reached from the entry, so the CFG unification pairs
//!   each label with itself;
//! - a renamed name is new to the other side and has no collision suffix,
//!   and both sides have the same names with collision suffixes
//!   (`%ld.9af1`, `%ld.9af1.1`), so anchoring by equal names pairs exactly
//!   the other unrenamed values whose lines agree;
//! - with the renaming applied, a block differs from the base's in at most
//!   one line: no terminator, of the same opcode, naming the same values,
//!   [`similar`] to the base's. The line diff (which trims the common prefix
//!   and suffix) then pairs every other line by position and leaves that
//!   line a one-line gap, where the similar line matches;
//! - each name with a collision suffix is an operand of an agreeing line
//!   that defines a value without one (the def-use extension of the first
//!   round pairs it with itself), or unused on both sides (nothing pairs
//!   it: it stays unmatched).

use std::borrow::Cow;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{ambiguous_names, blank_numbering, mnemonic, similar, stem, successors, Matching};
use crate::compare::model::{local_refs, local_refs_str, BlockText, FuncText};
use crate::text::{def_name, opcode, rewrite_with, scan_refs, Ref};

/// The matching of `s` to `o` by position when `s` kept `o`'s layout up to
/// renamed values (see the module doc); `None` when it did not.
pub(crate) fn renamed_layout(o: &FuncText, s: &FuncText) -> Option<Matching> {
    if o.header != s.header || o.blocks.len() != s.blocks.len() {
        return None;
    }
    let renames = positional_renames(o, s)?;
    let ambiguous = ambiguous_names(o);
    let renamed_ambiguous = renames
        .iter()
        .any(|(side, base)| ambiguous.contains(*side) || ambiguous.contains(*base));
    // An argument's name is anchored whatever its suffix.
    let like_argument = ambiguous.iter().any(|n| n.starts_with("arg"));
    if renamed_ambiguous || like_argument || ambiguous != ambiguous_names(s) {
        return None;
    }
    let mut uncovered: HashSet<&str> = ambiguous.iter().map(String::as_str).collect();
    for (bo, bs) in o.blocks.iter().zip(&s.blocks) {
        if !block_agrees(bo, bs, &renames, (&ambiguous, &mut uncovered)) {
            return None;
        }
    }
    if !unused(o, &uncovered) || !unused(s, &uncovered) || !all_blocks_reached(o) {
        return None;
    }
    Some(positional_matching(o, s, &renames, &uncovered))
}

/// Whether no line of `f` uses a value of `names` (other than the line
/// defining it).
fn unused(f: &FuncText, names: &HashSet<&str>) -> bool {
    if names.is_empty() {
        return true;
    }
    f.blocks.iter().flat_map(|b| &b.lines).all(|l| {
        let defined = def_name(l);
        let mut used = false;
        scan_refs(l, |_, _, r| {
            used |= matches!(r, Ref::Local(n) if Some(n) != defined && names.contains(n));
        });
        !used
    })
}

/// Whether side block `bs` equals base block `bo` with the renaming
/// applied, but for at most one line that [`differs_in_constants`] and is
/// no terminator. Names of `ambiguous` used by an equal line defining a
/// value outside it are taken out of `uncovered`.
fn block_agrees(
    bo: &BlockText,
    bs: &BlockText,
    renames: &HashMap<&str, &str>,
    (ambiguous, uncovered): (&HashSet<String>, &mut HashSet<&str>),
) -> bool {
    let last = bo.lines.len().saturating_sub(1);
    let mut differing = 0;
    for (k, (lo, ls)) in bo.lines.iter().zip(&bs.lines).enumerate() {
        // An equal line names no renamed value: the base defines none of them.
        let ls = if lo == ls {
            Cow::Borrowed(ls.as_str())
        } else {
            renamed(ls, renames)
        };
        if *lo == *ls {
            if !uncovered.is_empty() && def_name(lo).is_some_and(|d| !ambiguous.contains(d)) {
                scan_refs(lo, |_, _, r| {
                    if let Ref::Local(n) = r {
                        uncovered.remove(n);
                    }
                });
            }
            continue;
        }
        differing += 1;
        if k == last || differing > 1 || !differs_in_constants(lo, &ls) {
            return false;
        }
    }
    true
}

/// Whether two lines have one opcode, name the same local values in the
/// same order and are [`similar`] once metadata and attribute-group numbers
/// are blanked (a changed constant).
fn differs_in_constants(base: &str, side: &str) -> bool {
    let blank = |l: &str| rewrite_with(l, blank_numbering);
    opcode(base) == opcode(side)
        && local_refs_str(base) == local_refs_str(side)
        && similar(&blank(base), &blank(side))
}

/// Side name -> base name for the values defined at the same place under
/// another name, when the two sides define values at the same places and
/// each renamed value keeps its mnemonic, has no collision suffix and has
/// a name the other side does not define (its own name there is
/// renamed too). `None` otherwise.
fn positional_renames<'a>(o: &'a FuncText, s: &'a FuncText) -> Option<HashMap<&'a str, &'a str>> {
    let mut renames: HashMap<&str, &str> = HashMap::default();
    for (bo, bs) in o.blocks.iter().zip(&s.blocks) {
        if bo.label != bs.label || bo.lines.len() != bs.lines.len() {
            return None;
        }
        for (lo, ls) in bo.lines.iter().zip(&bs.lines) {
            match (def_name(lo), def_name(ls)) {
                (None, None) => {}
                (Some(d_o), Some(d_s)) => {
                    if d_o != d_s {
                        let suffixed = stem(d_o) != d_o || stem(d_s) != d_s;
                        if suffixed || mnemonic(d_o) != mnemonic(d_s) {
                            return None;
                        }
                        renames.insert(d_s, d_o);
                    }
                }
                _ => return None,
            }
        }
    }
    // A renamed name the other side defines is itself renamed there.
    let names_taken: HashSet<&str> = renames.values().copied().collect();
    if renames.keys().any(|side| names_taken.contains(side)) {
        return None;
    }
    Some(renames)
}

/// `line` with the renamed values in the base's names.
fn renamed<'l>(line: &'l str, renames: &HashMap<&str, &str>) -> Cow<'l, str> {
    if renames.is_empty() {
        return Cow::Borrowed(line);
    }
    Cow::Owned(rewrite_with(line, |r, out| match r {
        Ref::Local(n) => match renames.get(n) {
            Some(base) => {
                out.push('%');
                out.push_str(base);
                true
            }
            None => false,
        },
        _ => false,
    }))
}

/// Whether every block of `f` is reached from its entry along successor
/// edges (the edges the CFG unification follows).
fn all_blocks_reached(f: &FuncText) -> bool {
    let labels: HashSet<&str> = f.blocks.iter().map(|b| b.label.as_str()).collect();
    let index: HashMap<&str, usize> = f
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label.as_str(), i))
        .collect();
    let mut reached = vec![false; f.blocks.len()];
    let mut stack = vec![0usize];
    while let Some(bi) = stack.pop() {
        if std::mem::replace(&mut reached[bi], true) {
            continue;
        }
        for (_, label) in successors(f, &labels, bi) {
            stack.push(index[label.as_str()]);
        }
    }
    f.blocks.is_empty() || reached.iter().all(|&r| r)
}

/// Every label to itself, the arguments to themselves, each value to the
/// base's value at its place, but for the `unmatched` ones (names with a
/// collision suffix that nothing uses: the full matching has nothing to
/// tell them apart by).
fn positional_matching(
    o: &FuncText,
    s: &FuncText,
    renames: &HashMap<&str, &str>,
    unmatched: &HashSet<&str>,
) -> Matching {
    let mut m = Matching {
        identity: renames.is_empty() && unmatched.is_empty(),
        ..Matching::default()
    };
    for bs in &s.blocks {
        for d in bs.lines.iter().filter_map(|l| def_name(l)) {
            if !unmatched.contains(d) {
                let base = renames.get(d).copied().unwrap_or(d);
                m.values.insert(d.to_string(), base.to_string());
            }
        }
        m.blocks.insert(bs.label.clone(), bs.label.clone());
    }
    for r in local_refs(&o.header) {
        if r.starts_with("arg") {
            m.values.insert(r.clone(), r);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::matching::match_full;
    use crate::compare::model;

    /// The canonical model of `ir`.
    fn canonical(ir: &str) -> model::ModuleText {
        let options = crate::config::CanonOptions {
            keep_comments: false,
            ..Default::default()
        };
        let text = crate::canon::canonicalize_bytes(ir.as_bytes(), "t.ll", &options).unwrap();
        model::parse(&text, "t").unwrap()
    }

    fn sorted(m: &HashMap<String, String>) -> Vec<(&String, &String)> {
        let mut pairs: Vec<_> = m.iter().collect();
        pairs.sort();
        pairs
    }

    /// `ir` with the integer constant ending line `at` changed.
    fn with_constant_changed(ir: &str, at: usize) -> String {
        let mut lines: Vec<String> = ir.lines().map(str::to_string).collect();
        let (head, constant) = lines[at].rsplit_once(", ").unwrap();
        let changed = constant.parse::<i64>().unwrap().wrapping_add(17);
        lines[at] = format!("{head}, {changed}");
        lines.join("\n") + "\n"
    }

    /// Lines of `ir` ending in an integer constant of a binary operation.
    fn constant_sites(ir: &str) -> Vec<usize> {
        let ops = [
            " = add ", " = sub ", " = mul ", " = xor ", " = or ", " = and ",
        ];
        ir.lines()
            .enumerate()
            .filter(|(_, l)| ops.iter().any(|op| l.contains(op)))
            .filter(|(_, l)| {
                l.rsplit_once(", ")
                    .is_some_and(|(_, c)| c.parse::<i64>().is_ok())
            })
            .map(|(i, _)| i)
            .collect()
    }

    const BASE: &str = "define i32 @f(i32 %x, ptr %p, ptr %q) {
entry:
  %dead1 = load i32, ptr %q
  %dead2 = load i32, ptr %q
  %a = add i32 %x, 1
  %b = add i32 %x, 2
  store i32 %a, ptr %p
  %c = mul i32 %b, %a
  ret i32 %c
}
";

    /// A changed constant renames `%a` (`%add.8e19` becomes `%add.d51e`:
    /// the constant tells it from `%b`) and its users name it anew; the
    /// two dead loads differ only by a collision suffix. The fast path
    /// pairs `%a` across the rename, leaves the loads unmatched, and finds
    /// exactly what the full matching finds.
    #[test]
    fn a_renamed_value_is_paired_by_its_place() {
        let (o, s) = (
            canonical(BASE),
            canonical(&BASE.replace("%x, 1\n", "%x, 5\n")),
        );
        let (o, s) = (&o.funcs[0], &s.funcs[0]);
        assert!(
            same_layout_fails(o, s),
            "the rename defeats the identity fast path"
        );
        let fast = renamed_layout(o, s).expect("the side kept the layout up to a rename");
        let full = match_full(o, s);
        assert_eq!(sorted(&fast.values), sorted(&full.values));
        assert_eq!(sorted(&fast.blocks), sorted(&full.blocks));
        let renamed: Vec<_> = fast.values.iter().filter(|(a, b)| a != b).collect();
        assert_eq!(renamed.len(), 1, "{renamed:?}");
        assert!(renamed[0].0.starts_with("add.") && !fast.identity);
        let loads = fast.values.keys().filter(|n| n.starts_with("ld.")).count();
        assert_eq!(loads, 0, "the dead loads stay unmatched");
    }

    /// Whether the side's lines differ from the base's beyond constants.
    fn same_layout_fails(o: &FuncText, s: &FuncText) -> bool {
        let lines = |f: &FuncText| -> Vec<String> {
            f.blocks.iter().flat_map(|b| b.lines.clone()).collect()
        };
        lines(o)
            .iter()
            .zip(lines(s))
            .any(|(a, b)| def_name(a) != def_name(&b))
    }

    /// On random modules with one constant changed at a time, wherever the
    /// fast path applies it finds exactly what the full matching finds.
    #[test]
    fn renamed_layout_finds_what_the_full_matching_finds() {
        let mut applied = 0;
        for seed in 1..=8 {
            let out = std::process::Command::new("/usr/lib/llvm-22/bin/llvm-stress")
                .args([format!("-seed={seed}"), "-size=5000".to_string()])
                .output()
                .expect("run llvm-stress");
            let ir = String::from_utf8(out.stdout).unwrap();
            let base = canonical(&ir);
            let sites = constant_sites(&ir);
            for &at in &sites {
                let side = canonical(&with_constant_changed(&ir, at));
                for (o, s) in base.funcs.iter().zip(&side.funcs) {
                    let Some(fast) = renamed_layout(o, s) else {
                        continue;
                    };
                    let full = match_full(o, s);
                    assert_eq!(
                        sorted(&fast.values),
                        sorted(&full.values),
                        "seed {seed}, line {at}"
                    );
                    assert_eq!(
                        sorted(&fast.blocks),
                        sorted(&full.blocks),
                        "seed {seed}, line {at}"
                    );
                    applied += 1;
                }
            }
        }
        assert!(applied >= 10, "the fast path applied {applied} times");
    }
}
