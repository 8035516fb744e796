//! The diff view's attribute group numbers: by the kinds of attributes a
//! group has, not by their values or by who uses the group.
//!
//! ```text
//! attributes #1721 = { nounwind "target-features"="+bulk-memory" }
//!             -> { nounwind "target-features"="+bulk-memory,+mutable-globals" }   still #1721
//! attributes #4127 = { nounwind }                                                  always #4127
//! ```
//!
//! A group's number is a hash of its attributes' kinds: a string
//! attribute's key (`"target-features"`), any other attribute whole
//! (`nounwind`, `memory(read)`). So a target feature more keeps the
//! group's number, and its
//! `attributes` line is the one line that changes, not every `define` that
//! names it. Nor does a function added, deleted or moved renumber anything
//! (numbered by the first place that used it, `{ nounwind }` took a new
//! number whenever a function that sorts first began to use it: every line
//! naming it changed). Groups with the same kinds (`"target-cpu"="a"`
//! and `"target-cpu"="b"`) are told apart by the attributes whose values
//! differ among them, not by the values they share: a target feature added
//! to every group of a module (tinygo's golden files) renumbers none.
//!
//! A group that one function alone uses (its `define` or `declare`, no
//! call), and that has a value of its own (a string attribute whose value
//! another group's differs from: `"wasm-export-name"="extern_func"`), is
//! that function's attributes, and is numbered by the function's name,
//! which its one user shows anyway:
//!
//! ```text
//! define void @extern_func() #8916                          (both sides)
//! attributes #8916 = { nounwind "wasm-export-name"="extern_func" "wasm-import-name"="extern_func" }
//!                 -> { nounwind "wasm-export-name"="extern_func" }
//! ```
//!
//! Numbered by its kinds, the group took a new number when it lost an
//! attribute, and so did a group of the same kinds when its twin left or
//! came (the values that told them apart changed): the `define` of each
//! changed with it. A group with no value of its own (`{ nounwind }`, one
//! `"target-features"` for the whole module) goes by its kinds, used by one
//! function or many: a second user renumbers nothing.

use std::collections::HashMap;

use crate::hash::StableHasher;

/// The view's identity of every attribute group of the printed module
/// `text`, as (identity, old number): a group of one function with a
/// value of its own by the function's name, the others by their kinds
/// ([`by_kinds`]).
pub(super) fn identities(text: &str) -> Vec<(u64, u32)> {
    let owners = sole_functions(text);
    let groups = attribute_groups(text);
    let own_values = with_own_values(&groups);
    let (owned, shared): (Vec<_>, Vec<_>) = groups
        .into_iter()
        .partition(|(n, _)| owners.contains_key(n) && own_values.contains(n));
    let by_owner = owned.into_iter().map(|(n, _)| {
        let identity = StableHasher::new().str("function").str(owners[&n]);
        (identity.finish(), n)
    });
    by_owner.chain(by_kinds(&shared)).collect()
}

/// For each attribute group that exactly one function uses, and nothing
/// else (no call), that function's name (`@f`), from the printed module
/// `text`: a `define` or `declare` line names its function's group.
fn sole_functions(text: &str) -> HashMap<u32, &str> {
    let mut functions: HashMap<u32, Option<&str>> = HashMap::new();
    for line in crate::text::lines_with(text, b'#') {
        if line.starts_with("attributes #") {
            continue;
        }
        let header = line.starts_with("define ") || line.starts_with("declare ");
        let function = header.then(|| crate::text::function_name(line)).flatten();
        crate::text::scan_numbered(line, b'#', |_, _, n| {
            let sole = match functions.get(&n) {
                None => function,
                Some(_) => None,
            };
            functions.insert(n, sole);
        });
    }
    functions
        .into_iter()
        .filter_map(|(n, function)| Some((n, function?)))
        .collect()
}

/// The numbers of the `groups` (number, body) with a value of their own: a
/// string attribute whose key another group has with another value.
fn with_own_values(groups: &[(u32, &str)]) -> std::collections::HashSet<u32> {
    let mut values: HashMap<&str, std::collections::HashSet<&str>> = HashMap::new();
    let strings = |body| split(body).into_iter().filter(|a| a.starts_with('"'));
    for &(_, body) in groups {
        for attribute in strings(body) {
            values.entry(kind(attribute)).or_default().insert(attribute);
        }
    }
    groups
        .iter()
        .filter(|&&(_, body)| strings(body).any(|a| values[kind(a)].len() > 1))
        .map(|&(n, _)| n)
        .collect()
}

/// The identities of `groups` (number, body) by their kinds: groups of
/// the same kinds told apart by the attributes whose values differ among
/// them.
fn by_kinds(groups: &[(u32, &str)]) -> Vec<(u64, u32)> {
    let lists: Vec<Vec<&str>> = groups.iter().map(|&(_, body)| split(body)).collect();
    let kinds: Vec<u64> = lists.iter().map(|list| kinds_hash_of(list)).collect();
    let mut alike: HashMap<u64, Vec<usize>> = HashMap::with_capacity(kinds.len());
    for (g, &k) in kinds.iter().enumerate() {
        alike.entry(k).or_default().push(g);
    }
    groups
        .iter()
        .enumerate()
        .map(|(g, &(n, _))| {
            let mut identity = StableHasher::new().str("kinds").u64(kinds[g]);
            let set = &alike[&kinds[g]];
            if set.len() > 1 {
                for attribute in distinguishing(&lists, set, g) {
                    identity = identity.str(attribute);
                }
            }
            (identity.finish(), n)
        })
        .collect()
}

/// The attributes of group `g` that tell it apart from the others of `set`
/// (groups of the same kinds): those whose value is not the same in every
/// group of the set. A value every group of the set shares (one
/// `"target-features"` for the whole module) enters no identity, so a
/// target feature added to every group renumbers none of them.
fn distinguishing<'t>(lists: &[Vec<&'t str>], set: &[usize], g: usize) -> Vec<&'t str> {
    let differs = |at: usize| {
        set.iter()
            .any(|&other| lists[other].get(at) != lists[g].get(at))
    };
    let found: Vec<&str> = (0..lists[g].len())
        .filter(|&at| differs(at))
        .map(|at| lists[g][at])
        .collect();
    match found.is_empty() {
        // Kinds alike by a hash collision: the whole group.
        true => lists[g].clone(),
        false => found,
    }
}

/// The attributes of a group's `body` (`{ nounwind "a"="b" }`).
fn split(body: &str) -> Vec<&str> {
    attributes(body.trim().trim_start_matches('{').trim_end_matches('}')).collect()
}

/// The attribute groups of a printed module: number and body (`{ ... }`).
pub(super) fn attribute_groups(text: &str) -> Vec<(u32, &str)> {
    crate::text::lines_starting_with(text, "attributes #")
        .filter_map(|l| {
            let rest = l.strip_prefix("attributes #")?;
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let number = rest[..digits].parse().ok()?;
            Some((
                number,
                rest[digits..].trim_start().strip_prefix('=')?.trim(),
            ))
        })
        .collect()
}

/// A hash of the kinds of the attributes in a group's `body`
/// (`{ nounwind "target-cpu"="generic" allocsize(0) }`), in their order.
#[cfg(test)]
fn kinds_hash(body: &str) -> u64 {
    kinds_hash_of(&split(body))
}

/// A hash of the kinds of `attributes`, in their order.
fn kinds_hash_of(attributes: &[&str]) -> u64 {
    let mut hasher = StableHasher::new();
    for attribute in attributes {
        hasher = hasher.str(kind(attribute));
    }
    hasher.finish()
}

/// The attributes of a group's body, split at spaces outside quotes and
/// parentheses.
fn attributes(inner: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0i32;
    let mut quoted = false;
    inner
        .split(move |c: char| {
            match c {
                '"' => quoted = !quoted,
                '(' if !quoted => depth += 1,
                ')' if !quoted => depth -= 1,
                _ => {}
            }
            c == ' ' && !quoted && depth == 0
        })
        .filter(|a| !a.is_empty())
}

/// An attribute's kind: a string attribute's key (`"target-cpu"` of
/// `"target-cpu"="generic"`), any other attribute whole (`nounwind`,
/// `memory(read)`: LLVM prints those on the `; Function Attrs:` line above
/// every function of the group, so a change to them shows there anyway).
fn kind(attribute: &str) -> &str {
    if !attribute.starts_with('"') {
        return attribute;
    }
    match attribute[1..].find('"') {
        Some(close) => &attribute[..close + 2],
        None => attribute,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_leave_string_values_out() {
        let body =
            r#"{ nounwind memory(none) "target-features"="+a,+b" "x y"="(" allocsize(0,1) }"#;
        let kinds: Vec<&str> = attributes(&body[1..body.len() - 1]).map(kind).collect();
        assert_eq!(
            kinds,
            [
                "nounwind",
                "memory(none)",
                "\"target-features\"",
                "\"x y\"",
                "allocsize(0,1)"
            ]
        );
        assert_eq!(
            kinds_hash(r#"{ nounwind "target-features"="+bulk-memory" }"#),
            kinds_hash(r#"{ nounwind "target-features"="+bulk-memory,+mutable-globals" }"#)
        );
        assert_ne!(
            kinds_hash("{ nounwind }"),
            kinds_hash("{ noinline nounwind }")
        );
    }

    #[test]
    fn a_function_that_sorts_first_renumbers_nothing() {
        let old = "define void @b() #0 {\n  ret void\n}\nattributes #0 = { nounwind }\n";
        let new = "define void @a() #0 {\n  ret void\n}\ndefine void @b() #0 {\n  ret void\n}\n\
                   attributes #0 = { nounwind }\n";
        assert_eq!(identities(old), identities(new));
    }

    /// A group one function alone uses, with a value of its own, goes by
    /// that function: it loses an attribute, and neither it nor its former
    /// twin (same kinds, used by another function) is renumbered. A group
    /// a call uses too is no function's own, nor one without a value of
    /// its own.
    #[test]
    fn a_group_of_one_function_goes_by_its_name() {
        let module = |f_group: &str| {
            format!(
                "define void @f() #0 {{\n  call void @g() #2\n  ret void\n}}\n\
                 declare void @g() #1\ndeclare void @h() #2\ndeclare void @k() #3\n\
                 attributes #0 = {{ {f_group} }}\n\
                 attributes #1 = {{ \"export\"=\"g\" \"import\"=\"g\" }}\n\
                 attributes #2 = {{ nounwind }}\n\
                 attributes #3 = {{ cold }}\n"
            )
        };
        let old = identities(&module("\"export\"=\"f\" \"import\"=\"f\""));
        let new = identities(&module("\"export\"=\"f\""));
        assert_eq!(old, new);
        let owned = |name: &str| StableHasher::new().str("function").str(name).finish();
        let by_number: HashMap<u32, u64> = new.iter().map(|&(i, n)| (n, i)).collect();
        assert_eq!((by_number[&0], by_number[&1]), (owned("@f"), owned("@g")));
        assert_ne!(by_number[&2], owned("@h"));
        assert_ne!(by_number[&3], owned("@k"));
    }

    #[test]
    fn groups_of_the_same_kinds_go_by_content() {
        let group = |cpu: &str| format!("attributes #{cpu} = {{ \"target-cpu\"=\"{cpu}\" }}\n");
        let text = |cpus: &[&str]| -> HashMap<u32, u64> {
            let all: String = cpus.iter().map(|c| group(c)).collect();
            identities(&all).into_iter().map(|(i, n)| (n, i)).collect()
        };
        let (both, more) = (text(&["1", "2"]), text(&["1", "2", "3"]));
        assert_ne!(both[&1], both[&2]);
        assert_eq!((both[&1], both[&2]), (more[&1], more[&2]));
    }

    /// Two groups of the same kinds that share a target-features value:
    /// a feature added to both renumbers neither.
    #[test]
    fn a_value_the_groups_share_numbers_nothing() {
        let module = |features: &str| {
            format!(
                "attributes #1 = {{ \"target-features\"=\"{features}\" \"m\"=\"a()\" }}\n\
                 attributes #2 = {{ \"target-features\"=\"{features}\" \"m\"=\"b()\" }}\n"
            )
        };
        let (old, new) = (identities(&module("+x")), identities(&module("+x,+y")));
        assert_eq!(old, new);
        assert_ne!(old[0].0, old[1].0);
    }
}
