//! Module-level changes: globals, declarations, aliases, named types,
//! comdats, named metadata and the module header, compared by what they
//! define; and the attribute groups instructions use.
//!
//! ```text
//! old                                          new
//! @count = global i32 0                        @count = global i32 1          changed  global @count
//! declare i32 @puts(ptr)                                                      removed  declaration @puts
//!                                              declare i32 @printf(ptr, ...)  added    declaration @printf
//! @.str.3c81e2aa = private constant [3 x i8] c"hi\00"
//!                                              @.str.9d04f1b7 = private constant [4 x i8] c"bye\00"
//!                                                                             changed  global @.str (content)
//! call void @f() #3   (#3 = { nounwind })      call void @f() #5 (#5 = { nounwind cold })
//!                                                   attributes used: + { nounwind cold }  - { nounwind }
//! ```
//!
//! Private constants are named by content in the canonical form, so a
//! changed string shows as one name going and another coming; when exactly
//! one such pair shares a stem (`.str`), it is reported as one change.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::side::Side;
use crate::text::{rewrite_with, Ref};

/// What kind of module-level entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Global,
    Declaration,
    Alias,
    Ifunc,
    Type,
    Comdat,
    Metadata,
    Module,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Global => "global",
            Kind::Declaration => "declaration",
            Kind::Alias => "alias",
            Kind::Ifunc => "ifunc",
            Kind::Type => "type",
            Kind::Comdat => "comdat",
            Kind::Metadata => "metadata",
            Kind::Module => "module",
        }
    }
}

/// How an entity changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Added,
    Removed,
    Changed,
}

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
        }
    }
}

/// One module-level change.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct GlobalChange {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_name: Option<String>,
    pub kind: Kind,
    pub status: Change,
}

/// Attribute groups used by instructions (call sites), by content.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AttributeChanges {
    pub added: Vec<String>,
    pub removed: Vec<String>,
}

fn kind_of(key: &str, line: &str) -> Kind {
    if line.starts_with("declare ") {
        return Kind::Declaration;
    }
    match key.as_bytes().first() {
        Some(b'@') => {
            let rhs = line.split_once(" = ").map(|x| x.1).unwrap_or("");
            let words: Vec<&str> = rhs.split_whitespace().collect();
            if words.contains(&"alias") {
                Kind::Alias
            } else if words.contains(&"ifunc") {
                Kind::Ifunc
            } else {
                Kind::Global
            }
        }
        Some(b'%') => Kind::Type,
        Some(b'$') => Kind::Comdat,
        Some(b'!') => Kind::Metadata,
        _ => Kind::Module,
    }
}

/// The stem of a content-named private global: `@.str.9d04f1b7.1` -> `@.str`.
fn private_stem(name: &str) -> Option<&str> {
    let mut rest = name;
    if let Some((head, tail)) = rest.rsplit_once('.') {
        if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) {
            rest = head;
        }
    }
    let (head, tail) = rest.rsplit_once('.')?;
    (tail.len() == 8 && tail.bytes().all(|b| b.is_ascii_hexdigit())).then_some(head)
}

/// Module-level entities of a side: key -> (kind, comparison key of the line).
fn entities(side: &Side, renames: &BTreeMap<String, String>) -> BTreeMap<String, (Kind, String)> {
    let mut out = BTreeMap::new();
    for (key, line) in &side.module.entities {
        if key == "source_filename" {
            // Names the input file; not a change of the code.
            continue;
        }
        let kind = kind_of(key, line);
        let mut k = side.key(line, None);
        if !renames.is_empty() {
            k = crate::compare::rename::replace_globals(&k, renames);
        }
        out.insert(key.clone(), (kind, k));
    }
    out
}

/// Compares the module-level entities. `renames` maps new function names to
/// old ones (applied to the new side's lines, so a function-pointer table
/// that follows a rename is unchanged).
pub(crate) fn compare(
    old: &Side,
    new: &Side,
    renames: &BTreeMap<String, String>,
) -> Vec<GlobalChange> {
    let a = entities(old, &BTreeMap::new());
    let b = entities(new, renames);
    let mut out = Vec::new();
    let mut removed = Vec::new();
    let mut added = Vec::new();
    for (name, (kind, line)) in &a {
        match b.get(name) {
            Some((_, l)) if l == line => {}
            Some((k, _)) => out.push(GlobalChange {
                name: name.clone(),
                old_name: None,
                kind: *k,
                status: Change::Changed,
            }),
            // A declaration that became a definition is a function change.
            None if *kind == Kind::Declaration && new.index.contains_key(name) => {}
            None => removed.push((name.clone(), *kind)),
        }
    }
    for (name, (kind, _)) in &b {
        if a.contains_key(name) || renames.contains_key(name) {
            continue;
        }
        if *kind == Kind::Declaration && old.index.contains_key(name) {
            continue;
        }
        added.push((name.clone(), *kind));
    }
    // One removed and one added content-named private global of one stem:
    // the same constant with a new content.
    let stems = |v: &[(String, Kind)]| {
        let mut m: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, (n, k)) in v.iter().enumerate() {
            if let (Kind::Global, Some(s)) = (k, private_stem(n)) {
                m.entry(s.to_string()).or_default().push(i);
            }
        }
        m
    };
    let (sr, sa) = (stems(&removed), stems(&added));
    let mut paired_r = BTreeSet::new();
    let mut paired_a = BTreeSet::new();
    for (stem, r) in &sr {
        if let Some(a) = sa.get(stem) {
            if r.len() == 1 && a.len() == 1 {
                paired_r.insert(r[0]);
                paired_a.insert(a[0]);
                out.push(GlobalChange {
                    name: added[a[0]].0.clone(),
                    old_name: Some(removed[r[0]].0.clone()),
                    kind: Kind::Global,
                    status: Change::Changed,
                });
            }
        }
    }
    for (list, paired, status) in [
        (removed, paired_r, Change::Removed),
        (added, paired_a, Change::Added),
    ] {
        out.extend(
            list.into_iter()
                .enumerate()
                .filter(|(i, _)| !paired.contains(i))
                .map(|(_, (name, kind))| GlobalChange {
                    name,
                    old_name: None,
                    kind,
                    status,
                }),
        );
    }
    out.sort_by(|x, y| (x.kind, &x.name).cmp(&(y.kind, &y.name)));
    out
}

/// The attribute groups (by content) that instructions of `side` name.
fn used_by_instructions(side: &Side) -> BTreeSet<String> {
    let mut out = side.unchanged_attributes.clone();
    for f in &side.module.funcs {
        for b in &f.blocks {
            for l in &b.lines {
                if !l.contains('#') {
                    continue;
                }
                rewrite_with(l, |r, _| {
                    if let Ref::Attr(n) = r {
                        if let Some(text) = side.attribute_group(n) {
                            out.insert(text.to_string());
                        }
                    }
                    false
                });
            }
        }
    }
    out
}

/// Attribute groups that instructions use on one side only.
pub(crate) fn attributes(old: &Side, new: &Side) -> AttributeChanges {
    let a = used_by_instructions(old);
    let b = used_by_instructions(new);
    AttributeChanges {
        added: b.difference(&a).cloned().collect(),
        removed: a.difference(&b).cloned().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_stems_come_from_content_names() {
        assert_eq!(private_stem("@.str.9d04f1b7"), Some("@.str"));
        assert_eq!(private_stem("@.str.9d04f1b7.2"), Some("@.str"));
        assert_eq!(private_stem("@counter"), None);
        assert_eq!(private_stem("@x.12"), None);
    }

    #[test]
    fn kinds_follow_the_line() {
        assert_eq!(kind_of("@f", "declare i32 @f(i32)"), Kind::Declaration);
        assert_eq!(kind_of("@a", "@a = alias i32, ptr @g"), Kind::Alias);
        assert_eq!(kind_of("@g", "@g = global i32 0"), Kind::Global);
        assert_eq!(kind_of("%struct.S", "%struct.S = type { i32 }"), Kind::Type);
        assert_eq!(
            kind_of("target triple", "target triple = \"x\""),
            Kind::Module
        );
    }
}
