//! "Copied" means copied (issue 20): `irgit diff` claims code was copied
//! from `@f` to `@g` only when `@g` really holds `@f`'s code, not when the
//! two share an idiom (argument spills, an array walk, a null check).
//!
//! The measurement: every function `@g` of every corpus program, at -O0 and
//! -O2, is added to the module that lacks it (`llvm-extract --delete`
//! turns it into a declaration). Whatever `@g` contains was written in `@g`,
//! so a copy claim `@f -> @g` is false unless, at -O2, `@g` calls `@f`
//! (directly or not) in the program compiled with `-fno-inline`: then
//! `@f`'s code may really be in `@g`.
//!
//! ```text
//! old: declare i32 @op_add(i32, i32)       new: define i32 @op_add(i32 %0, i32 %1) { ... }
//!      define i32 @op_sub(...) { ... }          define i32 @op_sub(...) { ... }
//! false claim: "6 instructions copied from @op_sub to @op_add" (two spills, two loads)
//! ```

mod common;
mod summary_support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use irgit::summary::{MoveKind, Status};
use summary_support::*;

const EXTRACT: &str = "/usr/lib/llvm-22/bin/llvm-extract";

/// `text` with `@name`'s body deleted (a declaration), by LLVM itself.
fn without_body(text: &str, name: &str, dir: &Path) -> Option<String> {
    let input = dir.join(format!("in-{name}.ll"));
    let output = dir.join(format!("out-{name}.ll"));
    std::fs::write(&input, text).unwrap();
    let o = Command::new(EXTRACT)
        .args(["--delete", &format!("--func={name}"), "-S"])
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .expect("llvm-extract-22 is installed");
    o.status
        .success()
        .then(|| std::fs::read_to_string(&output).unwrap())
}

/// The functions each defined function calls (by name), from IR text.
fn call_graph(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for l in text.lines() {
        if l.starts_with("define ") {
            let at = l.find('@').unwrap();
            let name: String = l[at..].chars().take_while(|&c| c != '(').collect();
            graph.entry(name.clone()).or_default();
            current = Some(name);
        } else if l == "}" {
            current = None;
        } else if let Some(f) = &current {
            for (i, _) in l.match_indices(" @") {
                let callee: String = l[i + 1..]
                    .chars()
                    .take_while(|&c| c != '(' && c != ',' && c != ' ')
                    .collect();
                graph.get_mut(f).unwrap().insert(callee);
            }
        }
    }
    graph
}

/// Whether `to` reaches `from` in `graph`.
fn reaches(graph: &BTreeMap<String, BTreeSet<String>>, to: &str, from: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut work = vec![to.to_string()];
    while let Some(f) = work.pop() {
        for c in graph.get(&f).into_iter().flatten() {
            if c == from {
                return true;
            }
            if seen.insert(c.clone()) {
                work.push(c.clone());
            }
        }
    }
    false
}

fn defined(text: &str) -> Vec<String> {
    call_graph(text).into_keys().collect()
}

#[test]
fn no_copy_claims_between_functions_that_only_share_idioms() {
    let dir = tempfile::tempdir().unwrap();
    let (mut pairs, mut excused) = (0, 0);
    let mut false_claims = Vec::new();
    for file in corpus_files() {
        for opt in ["-O0", "-O2"] {
            let new = compile_corpus(&file, opt);
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/corpus")
                .join(&file);
            let source = std::fs::read_to_string(path).unwrap();
            let graph = call_graph(&compile(&source, opt, &["-fno-inline"]));
            for g in defined(&new) {
                let Some(old) = without_body(&new, &g[1..], dir.path()) else {
                    continue;
                };
                let r = diff(&old, &new);
                assert_eq!(function(&r, &g).status, Status::Added, "{file} {opt} {g}");
                pairs += 1;
                for m in r.moved.iter().filter(|m| m.kind == MoveKind::Copied) {
                    // -O0 inlines nothing: every claim there is false.
                    if opt != "-O0" && reaches(&graph, &m.to, &m.from) {
                        excused += 1;
                    } else {
                        false_claims.push(format!(
                            "{file} {opt}: {} instructions copied from {} to {}",
                            m.instructions, m.from, m.to
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "copy claims on {pairs} added functions: {} false, {excused} where the callee may be inlined",
        false_claims.len()
    );
    assert!(pairs >= 60, "only {pairs} functions measured");
    assert!(false_claims.is_empty(), "{false_claims:#?}");
}

/// A hand copy: `@g` gets `@f`'s loop pasted in (plus a line of its own).
/// That is copied code, at -O0 and -O2.
#[test]
fn a_pasted_loop_is_still_a_copy() {
    let f = r#"
unsigned checksum(const unsigned char *p, int n) {
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
        h = (h << 7) | (h >> 25);
    }
    return h ^ (h >> 16);
}
"#;
    let g_old = "int other(int x) { return x + 1; }\n";
    let g_new = r#"
int other(int x, const unsigned char *p, int n) {
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
        h = (h << 7) | (h >> 25);
    }
    return (int)(h ^ (h >> 16)) + x;
}
"#;
    for opt in ["-O0", "-O2"] {
        let old = compile(&format!("{f}{g_old}"), opt, &[]);
        let new = compile(&format!("{f}{g_new}"), opt, &[]);
        let r = diff(&old, &new);
        let m = r
            .moved
            .iter()
            .find(|m| m.from == "@checksum" && m.to == "@other")
            .unwrap_or_else(|| panic!("{opt}: no copy found: {r:#?}"));
        assert_eq!(m.kind, MoveKind::Copied, "{opt}");
    }
}
