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
//! number comes from a hash of its content, a metadata node's from its
//! identity ([`super::metadata_identity`]: content for uniqued nodes, content
//! and first use for `distinct` ones), reduced into a fixed range; where two
//! reduce to one number, the one with the smaller identity keeps it and the
//! other takes the next free number (so only colliding nodes are affected by
//! an edit). LLVM's parser accepts any numbers, gaps included. The definition
//! lines are sorted by their new numbers, so a new node is one new line.
//! Nothing else of the text changes: strings and comments are copied as
//! they are.

use std::collections::HashMap;

use crate::hash::StableHasher;

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

/// Renumbers `#N` and `!N` in a module printed by LLVM: attribute groups by
/// content, metadata by `metadata` (old number -> identity). Metadata is left
/// as printed when some defined node has no identity.
pub fn renumber(printed: &str, metadata: &HashMap<u32, u64>) -> String {
    let attrs = assign(attribute_identities(printed), ATTRIBUTE_SPACE);
    let defined: Vec<u32> = printed
        .lines()
        .filter_map(|l| number_at(l.strip_prefix('!')?, 0).map(|(n, _)| n))
        .collect();
    let meta = if defined.iter().all(|n| metadata.contains_key(n)) {
        assign(
            defined.iter().map(|n| (metadata[n], *n)).collect(),
            METADATA_SPACE,
        )
    } else {
        HashMap::new()
    };
    let mut out = String::with_capacity(printed.len() + printed.len() / 8);
    let mut lines: Vec<String> = Vec::new();
    for line in printed.split_inclusive('\n') {
        lines.push(rewrite_line(line, &attrs, &meta));
    }
    sort_runs(&mut lines, "attributes #");
    sort_runs(&mut lines, "!");
    for l in lines {
        out.push_str(&l);
    }
    out
}

/// `line` with every `#N` and `!N` outside strings and comments mapped
/// (numbers without a mapping stay).
fn rewrite_line(line: &str, attrs: &HashMap<u32, u32>, meta: &HashMap<u32, u32>) -> String {
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len() + 8);
    let mut copied = 0;
    let mut i = 0;
    let mut quoted = false;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted && b == b';' {
            break;
        } else if !quoted && (b == b'#' || b == b'!') {
            let map = if b == b'#' { attrs } else { meta };
            if let Some((n, len)) = number_at(line, i + 1) {
                if let Some(new) = map.get(&n) {
                    out.push_str(&line[copied..=i]);
                    out.push_str(&new.to_string());
                    copied = i + 1 + len;
                }
                i += 1 + len;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&line[copied..]);
    out
}

/// Sorts each run of consecutive lines that start with `prefix` and a
/// number by that number.
fn sort_runs(lines: &mut [String], prefix: &str) {
    let key = |l: &String| {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_groups_are_numbered_by_content() {
        let a = "define void @f() #0 {\n  call void @g() #1\n  ret void\n}\n\n\
                 attributes #0 = { nounwind }\nattributes #1 = { cold }\n";
        let b = "define void @f() #1 {\n  call void @g() #0\n  ret void\n}\n\n\
                 attributes #0 = { cold }\nattributes #1 = { nounwind }\n";
        let ra = renumber(a, &HashMap::new());
        assert_eq!(ra, renumber(b, &HashMap::new()));
        assert!(!ra.contains("#0 "), "{ra}");
        assert_eq!(renumber(&ra, &HashMap::new()), ra);
    }

    #[test]
    fn strings_and_comments_keep_their_numbers() {
        let a = "@s = global [3 x i8] c\"#0!\\00\" #0 ; #0 stays\n\
                 attributes #0 = { nounwind }\n";
        let r = renumber(a, &HashMap::new());
        assert!(r.contains("c\"#0!\\00\""), "{r}");
        assert!(r.contains("; #0 stays"), "{r}");
        assert!(!r.contains("attributes #0 "), "{r}");
    }

    #[test]
    fn metadata_follows_the_identities_and_collisions_probe() {
        let text = "!llvm.x = !{!0, !1}\n\n!0 = !{!\"a\"}\n!1 = !{!0}\n";
        let ids = HashMap::from([(0, 5 + METADATA_SPACE), (1, 5)]);
        let r = renumber(text, &ids);
        assert_eq!(r, "!llvm.x = !{!6, !5}\n\n!5 = !{!6}\n!6 = !{!\"a\"}\n");
        // A node without identity: metadata stays as printed.
        let partial = HashMap::from([(0, 3)]);
        assert_eq!(renumber(text, &partial), text);
    }
}
