//! Key-instruction groups (`atomGroup:`) in the diff view: each group
//! named by its key instruction, not by codegen's count.
//!
//! ```text
//! printed by LLVM (true groups)                     view
//!   %a = add i32 %x, 1, !dbg !20   ; atomGroup: 7      ..., atomGroup: 5127, atomRank: 2)
//!   store i32 %a, ptr %p, !dbg !21 ; atomGroup: 7      ..., atomGroup: 5127, atomRank: 1)
//!   br label %next, !dbg !22       ; atomGroup: 8      ..., atomGroup: 840, atomRank: 1)
//! ```
//!
//! clang numbers a function's source atoms in codegen order, and the
//! inliner gives each inlined copy's atoms fresh numbers from a counter of
//! the whole module. One statement more, or one call inlined more, shifts
//! the numbers of every group after it, in this function and in the
//! inlined copies of others. A group's number only says which
//! instructions belong together, so the view numbers each group by a hash
//! of its key instruction (lowest `atomRank:`, first in print order): its
//! opcode and callee; where two groups of a function share those, its
//! column too; where they share that as well, its code. Groups an edit
//! does not touch keep their numbers, and an edit of a statement's
//! operands mostly keeps its group's. Groups whose key instructions read
//! alike take the next free number in print order. Numbers start at 1 (0
//! is "no group"). The numbering is a relabelling, so the view of a view
//! is the view.

use std::collections::HashMap;

use super::debug_lines::field;
use crate::hash::StableHasher;
use crate::text::Ref;

/// Group numbers of the view are below this (in a function of fewer than
/// a thousand groups).
const GROUP_SPACE: u64 = 10_000;

/// A group of one function: its true `atomGroup:` and the `inlinedAt:`
/// node of its locations (0 when not inlined).
type Group = (u64, u32);

/// The view's group number of every body line whose inline-able location
/// has an `atomGroup:`, by line index. `location_of` gives a body line's
/// location text (a uniqued `!DILocation(...)`) and where its reference
/// starts in the line.
pub(super) fn view_groups<'a>(
    lines: &[&'a str],
    location_of: impl Fn(&'a str) -> Option<(usize, &'a str)>,
) -> HashMap<usize, u64> {
    let mut out = HashMap::new();
    let mut body: Vec<usize> = Vec::new();
    let mut in_function = false;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("define ") {
            in_function = true;
            body.clear();
        } else if line.starts_with('}') && in_function {
            in_function = false;
            number_function(lines, &body, &location_of, &mut out);
        } else if in_function && line.starts_with(' ') {
            body.push(i);
        }
    }
    out
}

/// Numbers the groups of one function's body lines into `out`.
fn number_function<'a>(
    lines: &[&'a str],
    body: &[usize],
    location_of: &impl Fn(&'a str) -> Option<(usize, &'a str)>,
    out: &mut HashMap<usize, u64>,
) {
    let mut members: Vec<(usize, Group)> = Vec::new();
    // Per group: its key instruction's rank, code and location.
    let mut keys: HashMap<Group, (u64, KeyInstruction<'a>)> = HashMap::new();
    for &i in body {
        let Some((start, location)) = location_of(lines[i]) else {
            continue;
        };
        let Some(group) = group_of(location) else {
            continue;
        };
        let rank = field(location, "atomRank")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(u64::MAX);
        members.push((i, group));
        let here = KeyInstruction {
            line: i,
            code: lines[i][..start].trim(),
            location,
        };
        let key = keys.entry(group).or_insert((rank, here));
        if rank < key.0 {
            *key = (rank, here);
        }
    }
    let identities = identities(keys.into_iter().map(|(g, (_, key))| (g, key)).collect());
    let space = group_space(identities.len());
    let mut taken = std::collections::HashSet::with_capacity(identities.len());
    let mut number: HashMap<Group, u64> = HashMap::with_capacity(identities.len());
    for (identity, _, group) in identities {
        let mut n = 1 + identity % (space - 1);
        while !taken.insert(n) {
            n = 1 + n % (space - 1);
        }
        number.insert(group, n);
    }
    for (i, group) in members {
        out.insert(i, number[&group]);
    }
}

/// The instruction a group is known by: its line index, its code (the
/// text before its location) and its location.
#[derive(Clone, Copy)]
struct KeyInstruction<'a> {
    line: usize,
    code: &'a str,
    location: &'a str,
}

/// The numbers a function of `groups` groups takes its group numbers
/// below: [`GROUP_SPACE`], or a power of ten at least ten times `groups`
/// for a function with more groups (so there is always a free number).
fn group_space(groups: usize) -> u64 {
    crate::hash::number_space(GROUP_SPACE, groups)
}

/// `(atomGroup, inlinedAt)` of a location with a group.
fn group_of(location: &str) -> Option<Group> {
    let group: u64 = field(location, "atomGroup")?.1.parse().ok()?;
    let inlined = field(location, "inlinedAt")
        .and_then(|(_, v)| v.strip_prefix('!')?.parse().ok())
        .unwrap_or(0);
    (group != 0).then_some((group, inlined))
}

/// How a group's key instruction is told apart, coarse to fine: where
/// groups of a function tie at one tier, the next one refines them.
#[derive(Clone, Copy)]
enum Tier {
    /// Opcode and callee.
    Kind,
    /// Its location's column.
    Column,
    /// Its code.
    Code,
}

/// `(identity, key line, group)` of each group, sorted: a group is known by
/// the kind of its key instruction (opcode, callee); where groups share
/// that, by its column as well; where they share that too, by its code.
fn identities(keys: Vec<(Group, KeyInstruction)>) -> Vec<(u64, usize, Group)> {
    let mut ids = vec![0u64; keys.len()];
    let mut tied: Vec<usize> = (0..keys.len()).collect();
    for tier in [Tier::Kind, Tier::Column, Tier::Code] {
        for &k in &tied {
            ids[k] = refined(ids[k], tier, &keys[k].1);
        }
        let mut count: HashMap<u64, usize> = HashMap::new();
        for &k in &tied {
            *count.entry(ids[k]).or_insert(0) += 1;
        }
        tied.retain(|&k| count[&ids[k]] > 1);
    }
    let mut out: Vec<(u64, usize, Group)> = keys
        .iter()
        .zip(ids)
        .map(|((group, key), id)| (id, key.line, *group))
        .collect();
    out.sort_unstable();
    out
}

/// `id` refined by what `tier` reads of a key instruction.
fn refined(id: u64, tier: Tier, key: &KeyInstruction) -> u64 {
    let hasher = StableHasher::new().u64(id);
    match tier {
        Tier::Kind => hasher.str(&kind(key.code)),
        Tier::Column => hasher.str(field(key.location, "column").map_or("0", |(_, c)| c)),
        Tier::Code => hasher.str(&blanked(key.code)),
    }
    .finish()
}

/// A key instruction's kind: its opcode and the function a call calls.
/// Value names and constants are left out, so an edit of the statement's
/// operands keeps its group's number.
fn kind(code: &str) -> String {
    let instruction = code.split_once(" = ").map_or(code, |(_, rhs)| rhs);
    let opcode = instruction
        .split_whitespace()
        .find(|w| !matches!(*w, "tail" | "musttail" | "notail"))
        .unwrap_or("");
    let callee = match opcode {
        "call" | "invoke" | "callbr" => instruction
            .split_whitespace()
            .find(|w| w.starts_with('@'))
            .map_or("", |w| w.split('(').next().unwrap_or(w)),
        _ => "",
    };
    format!("{opcode} {callee}")
}

/// `code` with metadata and attribute group numbers (print order, which
/// any edit may shift) blanked.
fn blanked(code: &str) -> String {
    crate::text::rewrite(code, |r| match r {
        Ref::Meta(_) => Some("!_".to_string()),
        Ref::Attr(_) => Some("#_".to_string()),
        Ref::Local(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use crate::canon::debug_locations::{absolute, inline};

    /// `@g`'s body: stores with the given `(value, atomGroup)`, each at its
    /// own source line; the ones after `inlined_from` are inlined.
    fn body(stores: &[(u32, u32)], inlined_from: usize) -> String {
        let mut code = String::new();
        let mut defs = String::new();
        for (k, &(value, group)) in stores.iter().enumerate() {
            let n = 20 + k;
            code.push_str(&format!("  store i32 {value}, ptr null, !dbg !{n}\n"));
            let inlined = if k >= inlined_from {
                ", inlinedAt: !9"
            } else {
                ""
            };
            defs.push_str(&format!(
                "!{n} = !DILocation(line: {}, column: 3, scope: !7{inlined}, atomGroup: {group}, atomRank: 1)\n",
                41 + k
            ));
        }
        format!(
            "define void @g() !dbg !7 {{\nentry:\n{code}  ret void\n}}\n\
             !7 = distinct !DISubprogram(name: \"g\", line: 40, scopeLine: 41)\n\
             !9 = distinct !DILocation(line: 50, column: 3, scope: !7)\n{defs}"
        )
    }

    /// The view's group number of each store, by the value it stores.
    fn groups_by_value(view: &str) -> Vec<(String, String)> {
        view.lines()
            .filter_map(|l| {
                let value = l.strip_prefix("  store i32 ")?.split(',').next()?;
                Some((
                    value.to_string(),
                    super::field(l, "atomGroup")?.1.to_string(),
                ))
            })
            .collect()
    }

    /// A statement inserted before others shifts codegen's numbers of the
    /// groups after it, and the inliner's numbers of inlined copies by
    /// other amounts: in the view, the other groups keep their numbers.
    #[test]
    fn a_statement_inserted_leaves_the_other_groups_their_numbers() {
        let old = groups_by_value(&inline(&body(&[(0, 3), (1, 4), (7, 9), (8, 10)], 2)));
        let new = groups_by_value(&inline(&body(
            &[(0, 3), (5, 4), (1, 5), (7, 12), (8, 13)],
            3,
        )));
        assert_eq!(new.len(), 5);
        for store in &old {
            assert!(new.contains(store), "{store:?} not in {new:?}");
        }
    }

    /// A function of more groups than the usual numbers has room for
    /// them all.
    #[test]
    fn a_function_of_many_groups_has_room_for_them() {
        assert_eq!(super::group_space(3), super::GROUP_SPACE);
        assert_eq!(super::group_space(1_000), super::GROUP_SPACE);
        assert_eq!(super::group_space(1_001), 10 * super::GROUP_SPACE);
        let stores: Vec<(u32, u32)> = (0..12_000).map(|k| (k, k + 1)).collect();
        let groups = groups_by_value(&inline(&body(&stores, stores.len())));
        let distinct: std::collections::HashSet<&String> = groups.iter().map(|(_, g)| g).collect();
        assert_eq!(distinct.len(), 12_000);
    }

    /// Groups are told apart even when their key instructions read alike,
    /// and instructions of one group keep one number, also when the view's
    /// steps are undone.
    #[test]
    fn groups_stay_apart_and_together() {
        let v = inline(&body(&[(0, 3), (0, 4), (1, 4)], 9));
        let groups: Vec<String> = groups_by_value(&v).into_iter().map(|(_, g)| g).collect();
        assert_ne!(groups[0], groups[1], "{v}");
        assert_eq!(groups[1], groups[2], "{v}");
        assert!(!groups.contains(&"0".to_string()), "{v}");
        assert_eq!(groups_by_value(&absolute(&v)), groups_by_value(&v));
    }
}
