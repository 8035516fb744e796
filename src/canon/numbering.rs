//! Attribute groups (`#N`) and metadata nodes (`!N`) numbered by what they
//! are, not by where LLVM's printer first meets them.
//!
//! ```text
//! printed by LLVM                        canonical
//! define void @f() #0 !dbg !7 {          define void @f() #4127 !dbg !310552 {
//! attributes #0 = { nounwind }           attributes #4127 = { nounwind }
//! !7 = distinct !DISubprogram(...)       !310552 = distinct !DISubprogram(...)
//! ```
//!
//! LLVM numbers both in print order, so one global added near the top of a
//! module renumbers every `!dbg !N` below it. Here an attribute group's
//! number comes from a hash of its content, a metadata node's from a local
//! key ([`metadata_keys`]), reduced into a fixed range; where two reduce to
//! one number, the smaller key keeps it and the other takes the next free
//! number (so only colliding nodes are affected by an edit). LLVM's parser
//! accepts any numbers, gaps included. The definition lines are sorted by
//! their new numbers, so a new node is one new line. Nothing else of the
//! text changes: strings are copied as they are.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::hash::StableHasher;
use crate::text::Ref;

/// Attribute group numbers are below this.
const ATTRIBUTE_SPACE: u64 = 10_000;
/// Metadata numbers are below this.
const METADATA_SPACE: u64 = 1_000_000;

/// New numbers for `ids` (old number, identity): `identity % space`, the
/// next free one on a collision, taken in order of identity (then old number)
/// so the result depends only on the set.
fn assign(mut ids: Vec<(u64, u32)>, space: u64) -> HashMap<u32, u32> {
    ids.sort_unstable();
    let mut taken = std::collections::HashSet::with_capacity(ids.len());
    let mut out = HashMap::with_capacity(ids.len());
    for (identity, old) in ids {
        let mut n = identity % space;
        while !taken.insert(n) {
            n = (n + 1) % space;
        }
        out.insert(old, n as u32);
    }
    out
}

/// The number after `#`/`!` at `at` in `line`, when one starts there.
fn number_at(line: &str, at: usize) -> Option<(u32, usize)> {
    let digits = line.as_bytes()[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (digits > 0)
        .then(|| line[at..at + digits].parse().ok().map(|n| (n, digits)))
        .flatten()
}

/// The attribute groups of a printed module: old number and content hash.
fn attribute_identities(text: &str) -> Vec<(u64, u32)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("attributes #")?;
            let (n, len) = number_at(rest, 0)?;
            let body = rest[len..].trim_start().strip_prefix('=')?.trim();
            Some((StableHasher::new().str(body).finish(), n))
        })
        .collect()
}

/// Renumbers `#N` and `!N` in a module printed by LLVM (no user comments
/// yet): attribute groups by content, metadata by `metadata` (old number ->
/// identity). Metadata is left as printed when some defined node has no
/// identity.
pub fn renumber(printed: &str, metadata: &rustc_hash::FxHashMap<u32, u64>) -> String {
    let attrs = assign(attribute_identities(printed), ATTRIBUTE_SPACE);
    let defined: Vec<u32> = printed
        .lines()
        .filter_map(|l| number_at(l.strip_prefix('!')?, 0).map(|(n, _)| n))
        .collect();
    if attrs.is_empty() && defined.is_empty() {
        return printed.to_string();
    }
    let meta = if defined.iter().all(|n| metadata.contains_key(n)) {
        assign(
            defined.iter().map(|n| (metadata[n], *n)).collect(),
            METADATA_SPACE,
        )
    } else {
        HashMap::new()
    };
    let mut out = String::with_capacity(printed.len() + printed.len() / 8);
    let mut lines: Vec<Cow<str>> = Vec::new();
    for line in printed.split_inclusive('\n') {
        if line.contains(['#', '!']) {
            lines.push(Cow::Owned(rewrite_line(line, &attrs, &meta)));
        } else {
            lines.push(Cow::Borrowed(line));
        }
    }
    sort_runs(&mut lines, "attributes #");
    sort_runs(&mut lines, "!");
    for l in lines {
        out.push_str(&l);
    }
    out
}

/// `line` with every `#N` and `!N` outside strings mapped (numbers without
/// a mapping stay).
fn rewrite_line(line: &str, attrs: &HashMap<u32, u32>, meta: &HashMap<u32, u32>) -> String {
    crate::text::rewrite(line, |r| match r {
        Ref::Attr(n) => attrs.get(&n).map(|m| format!("#{m}")),
        Ref::Meta(n) => meta.get(&n).map(|m| format!("!{m}")),
        Ref::Local(_) => None,
    })
}

/// Sorts each run of consecutive lines that start with `prefix` and a
/// number by that number.
fn sort_runs(lines: &mut [Cow<str>], prefix: &str) {
    let key = |l: &Cow<str>| {
        l.strip_prefix(prefix)
            .and_then(|r| number_at(r, 0))
            .map(|(n, _)| n)
    };
    let mut i = 0;
    while i < lines.len() {
        if key(&lines[i]).is_none() {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && key(&lines[i]).is_some() {
            i += 1;
        }
        lines[start..i].sort_by_key(|l| key(l));
    }
}

/// Rounds in which colliding metadata keys absorb the keys of the nodes
/// they reference, then of the nodes and entities that reference them.
const METADATA_ROUNDS: usize = 3;

/// One metadata definition as the keys see it.
struct MetaDef {
    number: u32,
    /// Own text, references blanked (`!_`), checksum left out.
    own: u64,
    /// The `scope:` node, if any (index into the definitions).
    scope: Option<usize>,
    /// Referenced nodes, in text order.
    refs: Vec<usize>,
}

/// A number key for every metadata node of `printed`, local so that an
/// edit renumbers only what it touches: a node's own text with references
/// blanked (a file's `checksum:`, which changes with every edit of the
/// source, left out), its `scope:` read as that node's own text; where nodes
/// collide, first the keys of the nodes they reference, then of the nodes
/// and entities (functions, globals) that reference them, for a few rounds
/// each; what still collides goes by [`super::metadata`]'s identity. A
/// Merkle hash of the whole graph would not do: every node reaches the
/// compile unit and the file, so one new global would renumber every node.
/// `key_text` may blank more of a definition (the view leaves lines out).
pub fn metadata_keys(
    printed: &str,
    key_text: impl Fn(&str) -> String,
) -> rustc_hash::FxHashMap<u32, u64> {
    let (defs, users) = metadata_graph(printed, &key_text);
    let mut keys: Vec<u64> = defs
        .iter()
        .map(|d| {
            let scope = d.scope.map_or(0, |j| defs[j].own);
            StableHasher::new().u64(d.own).u64(scope).finish()
        })
        .collect();
    let all: Vec<usize> = (0..defs.len()).collect();
    let mut colliding = colliding_among(&keys, &all);
    for round in 0..2 * METADATA_ROUNDS {
        if colliding.is_empty() {
            break;
        }
        let mut next = keys.clone();
        for &i in &colliding {
            let mut h = StableHasher::new().u64(keys[i]);
            if round < METADATA_ROUNDS {
                for &j in &defs[i].refs {
                    h = h.u64(keys[j]);
                }
            } else {
                let mut up: Vec<u64> = users[i]
                    .iter()
                    .map(|u| match u {
                        Ok(j) => keys[*j],
                        Err(entity) => *entity,
                    })
                    .collect();
                up.sort_unstable();
                for k in up {
                    h = h.u64(k);
                }
            }
            next[i] = h.finish();
        }
        keys = next;
        colliding = colliding_among(&keys, &colliding);
    }
    if !colliding.is_empty() {
        let identities = super::metadata::identities_in_text(printed);
        for &i in &colliding {
            let id = identities.get(&defs[i].number).copied().unwrap_or(0);
            keys[i] = StableHasher::new().u64(keys[i]).u64(id).finish();
        }
    }
    defs.iter().map(|d| d.number).zip(keys).collect()
}

/// The metadata definitions of `printed` and, for each, who references it:
/// `Ok(definition)` or `Err(hash of an entity's name)` (a function or global
/// whose line names the node).
type Users = Vec<Vec<Result<usize, u64>>>;

fn metadata_graph(printed: &str, key_text: &impl Fn(&str) -> String) -> (Vec<MetaDef>, Users) {
    let definition = |l: &str| -> Option<(u32, usize)> {
        let rest = l.strip_prefix('!')?;
        let (n, _) = rest.split_once(" = ")?;
        Some((n.parse().ok()?, n.len() + 4))
    };
    let index: HashMap<u32, usize> = printed
        .lines()
        .filter_map(|l| definition(l).map(|(n, _)| n))
        .enumerate()
        .map(|(i, n)| (n, i))
        .collect();
    let mut defs = Vec::with_capacity(index.len());
    let mut users: Users = vec![Vec::new(); index.len()];
    let mut entity = 0u64;
    for line in printed.lines() {
        if let Some((number, at)) = definition(line) {
            let rhs = &line[at..];
            let mut refs = Vec::new();
            let mut scope = None;
            let scope_at = rhs.find("scope: !").map(|k| k + "scope: ".len());
            let text = key_text(rhs);
            crate::text::scan_refs(rhs, |start, _, r| {
                if let Ref::Meta(m) = r {
                    if let Some(&j) = index.get(&m) {
                        refs.push(j);
                        users[j].push(Ok(defs.len()));
                        if Some(start) == scope_at {
                            scope = Some(j);
                        }
                    }
                }
            });
            let blanked = crate::text::rewrite(&text, |r| {
                matches!(r, Ref::Meta(_)).then(|| "!_".to_string())
            });
            defs.push(MetaDef {
                number,
                own: StableHasher::new()
                    .str(&without_checksum(&blanked))
                    .finish(),
                scope,
                refs,
            });
            continue;
        }
        if line.starts_with("define ") || !line.starts_with([' ', '}', ';']) && !is_label(line) {
            let name = crate::text::function_name(line)
                .filter(|_| line.starts_with("define "))
                .or_else(|| line.split_once(" = ").map(|(e, _)| e))
                .unwrap_or(line);
            entity = StableHasher::new().str(name).finish();
        }
        crate::text::scan_refs(line, |_, _, r| {
            if let Ref::Meta(m) = r {
                if let Some(&j) = index.get(&m) {
                    users[j].push(Err(entity));
                }
            }
        });
    }
    (defs, users)
}

/// Whether `line` is a block label (`bb.1:`, `"a b":`), which belongs to
/// the function it is in: not an entity of its own.
fn is_label(line: &str) -> bool {
    let head = line.split(" ;").next().unwrap_or(line).trim_end();
    head.ends_with(':') && !head.contains(" = ")
}

/// `text` without its `checksum: "..."` field.
fn without_checksum(text: &str) -> std::borrow::Cow<'_, str> {
    let Some(at) = text.find(", checksum: \"") else {
        return text.into();
    };
    let value = at + ", checksum: \"".len();
    let end = text[value..]
        .find('"')
        .map_or(text.len(), |e| value + e + 1);
    format!("{}{}", &text[..at], &text[end..]).into()
}

/// Those of `among` whose key occurs more than once among them.
fn colliding_among(keys: &[u64], among: &[usize]) -> Vec<usize> {
    let mut count: HashMap<u64, u32> = HashMap::with_capacity(among.len());
    for &i in among {
        *count.entry(keys[i]).or_insert(0) += 1;
    }
    among
        .iter()
        .copied()
        .filter(|&i| count[&keys[i]] > 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_groups_are_numbered_by_content() {
        let a = "define void @f() #0 {\n  call void @g() #1\n  ret void\n}\n\n\
                 attributes #0 = { nounwind }\nattributes #1 = { cold }\n";
        let b = "define void @f() #1 {\n  call void @g() #0\n  ret void\n}\n\n\
                 attributes #0 = { cold }\nattributes #1 = { nounwind }\n";
        let ra = renumber(a, &Default::default());
        assert_eq!(ra, renumber(b, &Default::default()));
        assert!(!ra.contains("#0 "), "{ra}");
        assert_eq!(renumber(&ra, &Default::default()), ra);
    }

    #[test]
    fn strings_keep_their_numbers() {
        let a = "@s = global [3 x i8] c\"#0!\\00\" #0\n\
                 attributes #0 = { nounwind }\n";
        let r = renumber(a, &Default::default());
        assert!(r.contains("c\"#0!\\00\""), "{r}");
        assert!(!r.contains("attributes #0 "), "{r}");
    }

    #[test]
    fn metadata_follows_the_identities_and_collisions_probe() {
        let text = "!llvm.x = !{!0, !1}\n\n!0 = !{!\"a\"}\n!1 = !{!0}\n";
        let ids = rustc_hash::FxHashMap::from_iter([(0, 5 + METADATA_SPACE), (1, 5)]);
        let r = renumber(text, &ids);
        assert_eq!(r, "!llvm.x = !{!6, !5}\n\n!5 = !{!6}\n!6 = !{!\"a\"}\n");
        // A node without identity: metadata stays as printed.
        let partial = rustc_hash::FxHashMap::from_iter([(0, 3)]);
        assert_eq!(renumber(text, &partial), text);
    }
}
