//! The debug-info nodes of one printed module as the rebasing sees them:
//! where each node sits in its source file, which function's scope holds
//! it, and a key that finds the same node in another version whatever the
//! line shifts around it.
//!
//! ```text
//! !1  = !DIFile(filename: "a.c", directory: "/s", checksumkind: CSK_MD5, checksum: "…")
//! !10 = distinct !DISubprogram(name: "f", file: !1, line: 40, scopeLine: 40, unit: !0)
//! !12 = !DILocation(line: 43, column: 7, scope: !10)
//! position of !12: ("a.c" in "/s", line 43), domain: f
//! key text of !12: !DILocation(line: sp+3, column: 7, scope: <key of !10>)
//! key text of !10: distinct !DISubprogram(name: "f", file: <key of !1>, line: _, scopeLine: sp+0, unit: !cu)
//! key text of !1:  !DIFile(filename: "a.c", directory: "/s")
//! ```
//!
//! Inside a function, lines count from the function's own line, so a node
//! keeps its key when lines are inserted above the function; lines outside
//! functions (a function's own line, a global's, a type's) are left out of
//! keys. References to the compile unit are left out too: a global added
//! anywhere changes the unit's list of globals, not the other nodes.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use crate::canon::debug_lines::{field, with_field};
use crate::canon::metadata::{content_keys, numbered_definition};
use crate::text::{rewrite, Ref};

/// One numbered node that has a source line.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// Its `line:` (never 0: a node without a line is not listed).
    pub line: u32,
    /// The source file its line counts in (filename and directory).
    pub file: String,
    /// The function (subprogram identity, [`Nodes::domain_id`]) whose scope
    /// holds it, or that it is; `None` outside functions.
    pub domain: Option<String>,
    /// Whether it is a `DISubprogram` (its `scopeLine:` follows its line).
    pub subprogram: bool,
}

/// The nodes of one module.
pub(crate) struct Nodes<'a> {
    /// `N` → right-hand side of `!N = ...`.
    pub defs: BTreeMap<u32, &'a str>,
    /// The nodes with a source line.
    pub lined: BTreeMap<u32, Node>,
    /// Every node's key: equal across versions for the same node at the
    /// same place in its function.
    pub key: HashMap<u32, u64>,
    /// Every node's looser keys, with no line inside functions: first
    /// with what a location's line holds, then without: the same node
    /// after lines moved inside its function (a `return 0;` below an
    /// inserted line); last without columns either: the same node after
    /// a column changed in it or in a scope it is in (`i < 5` edited to
    /// `i <= 5` moves the loop body's block one column, and so re-keys
    /// every location in the body and every call inlined there).
    pub looser: [HashMap<u32, u64>; 3],
    /// What each line of each function holds: (domain, file, line) → the
    /// kinds and columns of its nodes, so that two lines at the same
    /// distance from their functions' starts are told apart by content.
    line_content: HashMap<(String, String, u32), String>,
}

/// `distinct !DIFoo(...)` → `DIFoo`.
pub(crate) fn kind(rhs: &str) -> &str {
    let body = rhs.strip_prefix("distinct ").unwrap_or(rhs);
    let body = body.strip_prefix('!').unwrap_or(body);
    &body[..body.find('(').unwrap_or(0)]
}

/// The quoted value of field `name` (`filename: "a.c"` → `a.c`).
pub(crate) fn string_field<'a>(rhs: &'a str, name: &str) -> Option<&'a str> {
    let (start, _) = field(rhs, name)?;
    let rest = rhs[start..].strip_prefix('"')?;
    Some(&rest[..rest.find('"')?])
}

/// The node a field refers to (`scope: !7` → 7).
fn ref_field(rhs: &str, name: &str) -> Option<u32> {
    field(rhs, name)?.1.strip_prefix('!')?.parse().ok()
}

fn line_field(rhs: &str, name: &str) -> Option<u32> {
    field(rhs, name)?.1.parse().ok()
}

/// A `DIFile` without its checksum: what says which file it is.
pub(crate) fn file_identity(rhs: &str) -> String {
    format!(
        "{}\u{0}{}",
        string_field(rhs, "filename").unwrap_or(""),
        string_field(rhs, "directory").unwrap_or("")
    )
}

/// How much of a line inside a function a key holds.
#[derive(Clone, Copy)]
enum Keying {
    /// The distance from the function's start, and what the line holds.
    Strict,
    /// What the line holds.
    Content,
    /// Nothing.
    Loose,
    /// Nothing, and no column of any node: where a node sits in the tree
    /// of scopes, and what kind of node it is.
    Shape,
}

/// `rhs` without the fields `names` (each with its value and separator).
fn without_fields(rhs: &str, names: &[&str]) -> String {
    let mut out = rhs.to_string();
    for name in names {
        let Some((start, value)) = field(&out, name) else {
            continue;
        };
        let at = start - name.len() - 2;
        let end = start + value.len();
        if out[..at].ends_with(", ") {
            out.replace_range(at - 2..end, "");
        } else {
            let end = if out[end..].starts_with(", ") {
                end + 2
            } else {
                end
            };
            out.replace_range(at..end, "");
        }
    }
    out
}

/// `rhs` without the `checksumkind:` and `checksum:` fields.
pub(crate) fn without_checksum(rhs: &str) -> String {
    without_fields(rhs, &["checksumkind", "checksum"])
}

/// `rhs` without `atomGroup:` and `atomRank:`: the optimizer numbers the
/// source atoms of a function in order, so one statement added renumbers
/// the others; a location is where it is whatever its atom.
fn without_atoms(rhs: &str) -> String {
    without_fields(rhs, &["atomGroup", "atomRank"])
}

impl<'a> Nodes<'a> {
    /// The numbered nodes of a module printed by LLVM.
    pub(crate) fn parse(text: &'a str) -> Nodes<'a> {
        let defs: BTreeMap<u32, &str> = text.lines().filter_map(numbered_definition).collect();
        let mut nodes = Nodes {
            defs,
            lined: BTreeMap::new(),
            key: HashMap::default(),
            looser: Default::default(),
            line_content: HashMap::default(),
        };
        let lined: BTreeMap<u32, Node> = nodes
            .defs
            .iter()
            .filter_map(|(&n, rhs)| {
                let line = line_field(rhs, "line").filter(|&l| l != 0)?;
                Some((
                    n,
                    Node {
                        line,
                        file: nodes.file_of(n),
                        domain: nodes.domain_of(n).map(|sp| nodes.domain_id(sp)),
                        subprogram: kind(rhs) == "DISubprogram",
                    },
                ))
            })
            .collect();
        nodes.lined = lined;
        nodes.line_content = nodes.line_contents();
        nodes.key = nodes.keys(Keying::Strict);
        nodes.looser = [
            nodes.keys(Keying::Content),
            nodes.keys(Keying::Loose),
            nodes.keys(Keying::Shape),
        ];
        nodes
    }

    /// See [`Nodes::line_content`].
    fn line_contents(&self) -> HashMap<(String, String, u32), String> {
        let mut parts: HashMap<(String, String, u32), Vec<String>> = HashMap::default();
        for (n, node) in &self.lined {
            let Some(d) = node.domain.clone().filter(|_| !node.subprogram) else {
                continue;
            };
            let rhs = self.defs[n];
            let column = field(rhs, "column").map_or("", |(_, v)| v);
            parts
                .entry((d, node.file.clone(), node.line))
                .or_default()
                .push(format!("{}:{column}", kind(rhs)));
        }
        parts
            .into_iter()
            .map(|(k, mut v)| {
                v.sort_unstable();
                v.dedup();
                (k, v.join(","))
            })
            .collect()
    }

    /// The scope chain of `n`, `n` first (bounded: a malformed cycle ends it).
    fn scope_chain(&self, n: u32) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(Some(n), |&x| ref_field(self.defs.get(&x)?, "scope")).take(64)
    }

    /// The subprogram whose scope holds `n` (`n` itself for a subprogram).
    fn domain_of(&self, n: u32) -> Option<u32> {
        self.scope_chain(n)
            .find(|x| self.defs.get(x).is_some_and(|r| kind(r) == "DISubprogram"))
    }

    /// A subprogram's identity across versions: its names, file and
    /// whether it is a definition.
    pub(crate) fn domain_id(&self, sp: u32) -> String {
        let rhs = self.defs.get(&sp).copied().unwrap_or("");
        format!(
            "{}\u{0}{}\u{0}{}\u{0}{}",
            string_field(rhs, "name").unwrap_or(""),
            string_field(rhs, "linkageName").unwrap_or(""),
            self.file_of(sp),
            rhs.contains("DISPFlagDefinition")
        )
    }

    /// The source file `n`'s line counts in: its own `file:`, else its
    /// scope's (a location's file is its scope's).
    fn file_of(&self, n: u32) -> String {
        self.scope_chain(n)
            .find_map(|x| {
                let f = ref_field(self.defs.get(&x)?, "file")?;
                Some(file_identity(self.defs.get(&f)?))
            })
            .unwrap_or_default()
    }

    /// Every node's key (see the module doc), or a looser one.
    fn keys(&self, keying: Keying) -> HashMap<u32, u64> {
        let units: Vec<u32> = self
            .defs
            .iter()
            .filter(|(_, r)| kind(r) == "DICompileUnit")
            .map(|(&n, _)| n)
            .collect();
        let texts: BTreeMap<u32, String> = self
            .defs
            .iter()
            .map(|(&n, rhs)| {
                let own = self.key_text(n, rhs, keying);
                let text = rewrite(&own, |r| match r {
                    Ref::Meta(x) if units.contains(&x) => Some("!cu".into()),
                    _ => None,
                });
                (n, text)
            })
            .collect();
        content_keys(&texts)
    }

    /// `rhs` with its lines as keys see them: relative to the function
    /// inside one (same file; see [`Keying`]), left out outside; a file
    /// without checksum.
    fn key_text(&self, n: u32, rhs: &str, keying: Keying) -> String {
        if kind(rhs) == "DIFile" {
            return without_checksum(rhs);
        }
        let rhs = &match keying {
            Keying::Shape => without_fields(&without_atoms(rhs), &["column"]),
            _ => without_atoms(rhs),
        };
        let Some(node) = self.lined.get(&n) else {
            return rhs.to_string();
        };
        let relative = |d: i64| {
            if d < 0 {
                format!("sp{d}")
            } else {
                format!("sp+{d}")
            }
        };
        if node.subprogram {
            // Its variables do not make a function another one.
            let text = with_field(rhs, "line", "_").unwrap_or_else(|| rhs.to_string());
            let text = with_field(&text, "retainedNodes", "_").unwrap_or(text);
            return match line_field(rhs, "scopeLine") {
                Some(s) => with_field(&text, "scopeLine", &relative(s as i64 - node.line as i64))
                    .unwrap_or(text),
                None => text,
            };
        }
        let sp = self
            .domain_of(n)
            .and_then(|sp| Some((sp, self.lined.get(&sp)?)));
        match sp {
            Some((_, s)) if s.file == node.file => {
                let d = node.line as i64 - s.line as i64;
                // A location is also known by what its line holds; a scope
                // or a variable by its own fields (they are what other
                // nodes' keys build on).
                let content = node
                    .domain
                    .clone()
                    .filter(|_| kind(rhs) == "DILocation")
                    .and_then(|dom| self.line_content.get(&(dom, node.file.clone(), node.line)))
                    .map_or("", String::as_str);
                let line = match keying {
                    Keying::Strict => format!("{}[{content}]", relative(d)),
                    Keying::Content => format!("_[{content}]"),
                    Keying::Loose | Keying::Shape => "_".to_string(),
                };
                with_field(rhs, "line", &line).unwrap_or_else(|| rhs.to_string())
            }
            // Another file's lines (code included from a header) do not
            // move with the function.
            Some(_) => rhs.to_string(),
            None => with_field(rhs, "line", "_").unwrap_or_else(|| rhs.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, globals: !3)
!1 = !DIFile(filename: \"a.c\", directory: \"/s\", checksumkind: CSK_MD5, checksum: \"00\")
!3 = !{}
!10 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 40, scopeLine: 41, spFlags: DISPFlagDefinition, unit: !0)
!11 = distinct !DILexicalBlock(scope: !10, file: !1, line: 42, column: 3)
!12 = !DILocation(line: 43, column: 7, scope: !11)
!13 = !DIGlobalVariable(name: \"g\", scope: !0, file: !1, line: 5, type: !14)
!14 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)
";

    #[test]
    fn positions_domains_and_files() {
        let n = Nodes::parse(TEXT);
        assert_eq!(n.lined[&12].line, 43);
        assert_eq!(n.lined[&12].file, "a.c\u{0}/s");
        assert_eq!(n.lined[&12].domain, n.lined[&10].domain);
        assert!(n.lined[&10]
            .domain
            .as_deref()
            .unwrap()
            .starts_with("f\u{0}"));
        assert_eq!(n.lined[&13].domain, None);
        assert!(!n.lined.contains_key(&14));
    }

    #[test]
    fn keys_ignore_shifts_of_the_function_the_checksum_and_the_unit() {
        let n = Nodes::parse(TEXT);
        let shifted = TEXT
            .replace("line: 40, scopeLine: 41", "line: 50, scopeLine: 51")
            .replace("line: 42", "line: 52")
            .replace("line: 43", "line: 53")
            .replace("line: 5,", "line: 6,")
            .replace("checksum: \"00\"", "checksum: \"11\"")
            .replace("globals: !3", "globals: !4");
        let m = Nodes::parse(&shifted);
        for k in [1, 10, 11, 12, 13] {
            assert_eq!(n.key[&k], m.key[&k], "!{k}");
        }
        // A location that moved inside its function is another node.
        let moved = TEXT.replace("line: 43", "line: 44");
        assert_ne!(Nodes::parse(&moved).key[&12], n.key[&12]);
    }

    #[test]
    fn checksum_fields_come_out_whole() {
        let f = "!DIFile(filename: \"a.c\", directory: \"/s\", checksumkind: CSK_MD5, checksum: \"00\")";
        assert_eq!(
            without_checksum(f),
            "!DIFile(filename: \"a.c\", directory: \"/s\")"
        );
        let first = "!DIFile(checksumkind: CSK_MD5, checksum: \"00\", filename: \"a.c\")";
        assert_eq!(without_checksum(first), "!DIFile(filename: \"a.c\")");
    }
}
