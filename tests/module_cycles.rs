//! No import cycles between the files of `src/`: a file that uses another
//! (through a `crate::`, `super::` or `self::` path) never is used by it
//! back, directly or through others. A parent module naming one of its own
//! submodules (`render::Piece` in `merge/mod.rs`) owns it, and imports
//! nothing. A cycle
//! makes two stages one in all but name; break it by moving the shared type
//! to where both can use it (docs/architecture.md).
//!
//! ```text
//! merge/render.rs -> merge/apply.rs (Piece) -> merge/locations.rs -> ... -> merge/render.rs
//! fixed: Piece lives in render.rs
//! ```

use std::collections::{BTreeMap, BTreeSet};
mod src_files;

/// The module path of a file: `merge/mod.rs` → `["merge"]`, `lib.rs` → `[]`.
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code of a file without comments and without its test module.
fn code_of(text: &str) -> String {
    let before_tests = text.split("#[cfg(test)]").next().unwrap_or_default();
    before_tests
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Identifier paths in `code`: `crate::a::b`, `super::x`, `child::f`.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let starts_word = is_ident(bytes[at]) && (at == 0 || !is_ident(bytes[at - 1]));
        let after_colons = at >= 2 && &bytes[at - 2..at] == b"::";
        if !starts_word || after_colons {
            at += 1;
            continue;
        }
        let mut segments = Vec::new();
        let mut end = at;
        loop {
            let start = end;
            while end < bytes.len() && is_ident(bytes[end]) {
                end += 1;
            }
            segments.push(code[start..end].to_string());
            if code[end..].starts_with("::")
                && code[end + 2..].starts_with(|c: char| is_ident(c as u8))
            {
                end += 2;
            } else {
                break;
            }
        }
        if segments.len() > 1 {
            out.push(segments);
        }
        at = end.max(at + 1);
    }
    out
}

/// The paths of `use` groups: `super::{a, b::C}` → `super::a`, `super::b`.
fn grouped_paths(code: &str) -> Vec<Vec<String>> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    let mut out = Vec::new();
    for (open, _) in code.match_indices("::{") {
        let prefix_start = code[..open]
            .rfind(|c: char| !is_path_char(c))
            .map_or(0, |i| i + 1);
        let prefix: Vec<String> = code[prefix_start..open]
            .split("::")
            .map(str::to_string)
            .collect();
        let items = code[open + 3..].split('}').next().unwrap_or_default();
        for item in items.split(',') {
            let first = item
                .trim()
                .split([' ', ':', '{'])
                .next()
                .unwrap_or_default();
            if !first.is_empty() && first != "self" && !prefix[0].is_empty() {
                let mut path = prefix.clone();
                path.push(first.to_string());
                out.push(path);
            }
        }
    }
    out
}

/// The file a path names, if it names a module of the crate.
fn target(
    current: &[String],
    path: &[String],
    modules: &BTreeMap<Vec<String>, String>,
) -> Option<String> {
    let (mut base, rest): (Vec<String>, &[String]) = match path[0].as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (current.to_vec(), &path[1..]),
        "super" => {
            let mut base = current.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            (base, rest)
        }
        _ => return None,
    };
    let base_len = base.len();
    base.extend(rest.iter().cloned());
    (base_len..=base.len())
        .rev()
        .find_map(|k| modules.get(&base[..k]))
        .cloned()
}

/// Each file's imports of other files.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = src_files::all();
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|(f, _)| (module_of(f), f.clone()))
        .collect();
    let mut graph = BTreeMap::new();
    for (file, text) in &files {
        let current = module_of(file);
        let code = code_of(text);
        let mut edges = BTreeSet::new();
        for path in paths(&code).into_iter().chain(grouped_paths(&code)) {
            if let Some(to) = target(&current, &path, &modules).filter(|to| to != file) {
                edges.insert(to);
            }
        }
        graph.insert(file.clone(), edges);
    }
    graph
}

/// The strongly connected groups of more than one file (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(w: &mut Walk<'g>, node: &'g str) {
        let next = w.index.len();
        w.index.insert(node, next);
        w.low.insert(node, next);
        w.stack.push(node);
        for to in w.graph.get(node).into_iter().flatten() {
            if !w.index.contains_key(to.as_str()) {
                visit(w, to);
                let low = w.low[node].min(w.low[to.as_str()]);
                w.low.insert(node, low);
            } else if w.stack.contains(&to.as_str()) {
                let low = w.low[node].min(w.index[to.as_str()]);
                w.low.insert(node, low);
            }
        }
        if w.low[node] == w.index[node] {
            let mut group = Vec::new();
            while let Some(top) = w.stack.pop() {
                group.push(top.to_string());
                if top == node {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                w.found.push(group);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node.as_str()) {
            visit(&mut walk, node);
        }
    }
    walk.found
}

#[test]
fn no_file_of_src_imports_one_that_imports_it_back() {
    let found = cycles(&import_graph());
    assert!(
        found.is_empty(),
        "import cycles between files of src/ (move the shared item to where both can use it):\n{}",
        found
            .iter()
            .map(|c| format!("  {}", c.join(" <-> ")))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_check_finds_a_cycle_and_a_child_importing_its_parent() {
    let edge = |a: &str, b: &str| (a.to_string(), BTreeSet::from([b.to_string()]));
    let graph = BTreeMap::from([
        edge("a.rs", "b.rs"),
        edge("b.rs", "a.rs"),
        edge("c.rs", "a.rs"),
    ]);
    assert_eq!(
        cycles(&graph),
        vec![vec!["a.rs".to_string(), "b.rs".to_string()]]
    );
    let modules = BTreeMap::from([
        (vec!["merge".to_string()], "merge/mod.rs".to_string()),
        (
            vec!["merge".to_string(), "render".to_string()],
            "merge/render.rs".to_string(),
        ),
    ]);
    let from_parent = ["render".to_string(), "Piece".to_string()];
    let parent = vec!["merge".to_string()];
    assert_eq!(target(&parent, &from_parent, &modules), None);
    let by_crate_path = [
        "crate".to_string(),
        "merge".to_string(),
        "render".to_string(),
    ];
    assert_eq!(
        target(&parent, &by_crate_path, &modules).as_deref(),
        Some("merge/render.rs")
    );
    let from_child = ["super".to_string(), "Outcome".to_string()];
    let child = vec!["merge".to_string(), "render".to_string()];
    assert_eq!(
        target(&child, &from_child, &modules).as_deref(),
        Some("merge/mod.rs")
    );
}
