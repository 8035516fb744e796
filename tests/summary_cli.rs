//! `irgit diff` as a user runs it: the summary, `--stat`, `-p`, `--json`
//! (checked against the schema documented in the README), colour, bitcode,
//! `/dev/null`, exit statuses and errors.
//!
//! ```text
//! irgit diff old.ll new.ll         -> "functions: 1 changed, 1 added, ..." exit 0
//! irgit diff --json old.ll new.ll  -> {"version": 1, ...}   (every key documented in README.md)
//! irgit diff old.ll junk.ll        -> "irgit diff: junk.ll: ..." exit 2
//! ```

mod common;
mod summary_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use summary_support::compile;

const OLD_C: &str = r#"
#include <stdio.h>
__attribute__((noinline)) static unsigned mix(unsigned x) {
    unsigned y = x * 2654435761u; y ^= y >> 13; y = y * 0x5bd1e995u + (x & 0xff);
    y ^= y >> 15; y += x << 3; return y ^ (y >> 7);
}
int sum(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i] * 3; return s; }
int gone(int a) { return a / 3 - 1; }
int main(int argc, char **argv) {
    int a[3] = {1, argc, 3};
    printf("%u %d\n", mix(argc), sum(a, 3));
    return gone(argc);
}
"#;

/// `sum` renamed `total` and edited, `gone` replaced by `fresh`, `mix`
/// inlined, `main` edited.
fn new_c() -> String {
    OLD_C
        .replace("__attribute__((noinline)) ", "")
        .replace("int sum(", "int total(")
        .replace("p[i] * 3", "p[i] * 5")
        .replace("sum(a, 3)", "total(a, 3)")
        .replace(
            "int gone(int a) { return a / 3 - 1; }",
            "int fresh(int a) { return a * 5 + 2; }",
        )
        .replace("return gone(argc);", "return fresh(argc) > 9;")
}

struct Files {
    _dir: tempfile::TempDir,
    dir: PathBuf,
}

impl Files {
    fn new() -> Files {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().to_path_buf();
        let f = Files { _dir: d, dir };
        f.write("old.ll", compile(OLD_C, "-O2", &[]).as_bytes());
        f.write("new.ll", compile(&new_c(), "-O2", &[]).as_bytes());
        f
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    fn irgit(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_irgit"))
            .args(args)
            .current_dir(&self.dir)
            .env_remove("NO_COLOR")
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let o = self.irgit(args);
        assert!(
            o.status.success(),
            "irgit {args:?}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }
}

fn readme_schema() -> (Value, Vec<String>) {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find("<!-- irgit-diff-json-schema -->")
        .expect("README documents the JSON schema");
    let end = readme.find("<!-- /irgit-diff-json-schema -->").unwrap();
    let block = &readme[start..end];
    let json = &block[block.find("```json").unwrap() + 7..block.rfind("```").unwrap()];
    let schema: Value = serde_json::from_str(json).expect("the README's JSON example parses");
    let optional = readme
        .lines()
        .find_map(|l| l.split("Optional keys: ").nth(1))
        .expect("README lists the optional keys")
        .trim_end_matches('.')
        .split(", ")
        .map(|s| s.trim().to_string())
        .collect();
    (schema, optional)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Every key of `actual` is documented in `doc` with the same type, and
/// every documented key is present unless optional.
fn conforms(
    actual: &Value,
    doc: &Value,
    optional: &[String],
    path: &str,
    errors: &mut Vec<String>,
) {
    let (ka, kd) = (kind(actual), kind(doc));
    let numeric = |k: &str| k == "number" || k == "integer";
    if ka != kd && !(numeric(ka) && kd == "number") {
        errors.push(format!("{path}: {ka}, documented as {kd}"));
        return;
    }
    match (actual, doc) {
        (Value::Object(a), Value::Object(d)) => {
            for (k, v) in a {
                match d.get(k) {
                    Some(dv) => conforms(v, dv, optional, &format!("{path}.{k}"), errors),
                    None => errors.push(format!("{path}.{k}: not documented")),
                }
            }
            for k in d.keys() {
                if !a.contains_key(k) && !optional.contains(k) {
                    errors.push(format!("{path}.{k}: documented but missing"));
                }
            }
        }
        (Value::Array(a), Value::Array(d)) => {
            let Some(d0) = d.first() else { return };
            for (i, v) in a.iter().enumerate() {
                conforms(v, d0, optional, &format!("{path}[{i}]"), errors);
            }
        }
        _ => {}
    }
}

#[test]
fn json_output_follows_the_schema_in_the_readme() {
    let f = Files::new();
    let (schema, optional) = readme_schema();
    assert_eq!(schema["version"], 1);
    assert_eq!(optional, vec!["old_name", "similarity"]);
    let out = f.ok(&["diff", "--json", "old.ll", "new.ll"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let mut errors = Vec::new();
    conforms(&v, &schema, &optional, "$", &mut errors);
    assert!(errors.is_empty(), "{errors:#?}\n{out}");
    assert_eq!(v["version"], irgit::summary::JSON_VERSION);
    // The content, not only the shape.
    let funcs = v["functions"].as_array().unwrap();
    let by_name = |n: &str| funcs.iter().find(|x| x["name"] == n).unwrap().clone();
    assert_eq!(by_name("@total")["status"], "renamed");
    assert_eq!(by_name("@total")["old_name"], "@sum");
    assert_eq!(by_name("@total")["changed"], true);
    assert_eq!(by_name("@fresh")["status"], "added");
    assert_eq!(by_name("@gone")["status"], "removed");
    assert_eq!(by_name("@main")["status"], "changed");
    let names: Vec<&str> = funcs.iter().map(|x| x["name"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "functions are sorted by name");
    let moved = v["moved"].as_array().unwrap();
    assert!(
        moved
            .iter()
            .any(|m| m["from"] == "@mix" && m["to"] == "@main" && m["kind"] == "moved"),
        "{out}"
    );
    // Every status and kind value is one the README names.
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for x in funcs {
        let s = x["status"].as_str().unwrap();
        assert!(
            readme.contains(&format!("`{s}`")),
            "status {s} undocumented"
        );
    }
    for g in v["globals"].as_array().unwrap() {
        let k = g["kind"].as_str().unwrap();
        assert!(readme.contains(&format!("`{k}`")), "kind {k} undocumented");
    }
}

#[test]
fn summary_stat_and_patch() {
    let f = Files::new();
    let s = f.ok(&["diff", "old.ll", "new.ll"]);
    assert!(
        s.starts_with("functions: 1 changed, 1 added, 2 removed, 1 renamed"),
        "{s}"
    );
    assert!(s.contains("renamed   @sum -> @total"), "{s}");
    assert!(s.contains("instructions moved from @mix to @main"), "{s}");
    assert!(!s.contains('\x1b'), "no colour into a pipe: {s}");

    let stat = f.ok(&["diff", "--stat", "old.ll", "new.ll"]);
    let lines: Vec<&str> = stat.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(" @fresh (new)") && l.contains(" | ") && l.ends_with('+')),
        "{stat}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(" @gone (gone)") && l.ends_with('-')),
        "{stat}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with(" @sum => @total")),
        "{stat}"
    );
    let last = lines.last().unwrap();
    assert!(last.starts_with(" 5 functions changed, "), "{stat}");
    // Bars count instructions: `@gone` lost all of its instructions.
    let gone = lines.iter().find(|l| l.starts_with(" @gone")).unwrap();
    let n: usize = gone
        .split('|')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(gone.matches('-').count(), n, "{gone}");
    // Narrow terminals scale the bars.
    let narrow = Command::new(env!("CARGO_BIN_EXE_irgit"))
        .args(["diff", "--stat", "old.ll", "new.ll"])
        .current_dir(&f.dir)
        .env("COLUMNS", "40")
        .output()
        .unwrap();
    let narrow = String::from_utf8(narrow.stdout).unwrap();
    assert!(narrow.lines().all(|l| l.len() <= 60), "{narrow}");

    let p = f.ok(&["diff", "-p", "old.ll", "new.ll"]);
    assert!(p.starts_with("--- a/old.ll\n+++ b/new.ll\n"), "{p}");
    let hunks: Vec<&str> = p.lines().filter(|l| l.starts_with("@@ ")).collect();
    // One function per hunk header, only changed functions.
    assert!(hunks.iter().any(|h| h.contains("@main(")), "{p}");
    assert!(hunks.iter().any(|h| h.contains("@total(")), "{p}");
    assert!(
        hunks
            .iter()
            .any(|h| h.contains("@fresh(") && h.starts_with("@@ -0,0 +1,")),
        "{p}"
    );
    assert!(!hunks.iter().any(|h| h.contains("declare ")), "{p}");
    // The renamed and edited function shows its edit (3 -> 5) and its
    // header as context: the rename itself is no line change.
    let total = &p[p.find("@total(").unwrap()..];
    let total = &total[..total[1..].find("\n@@ ").map_or(total.len(), |x| x + 1)];
    assert!(total.lines().any(|l| l.starts_with('-')), "{total}");
    assert!(total.lines().any(|l| l.starts_with('+')), "{total}");
    assert!(
        !p.lines()
            .any(|l| l.starts_with(['-', '+']) && l.contains("@total(")),
        "{p}"
    );

    // Both.
    let both = f.ok(&["diff", "--stat", "-p", "old.ll", "new.ll"]);
    assert!(both.starts_with(&stat) && both.ends_with(&p), "{both}");
}

#[test]
fn colour_follows_the_option() {
    let f = Files::new();
    let on = f.ok(&["diff", "--color=always", "old.ll", "new.ll"]);
    assert!(on.contains("\x1b[32madded"), "{on}");
    assert!(on.contains("\x1b[31mremoved"), "{on}");
    let p = f.ok(&["diff", "--color", "-p", "old.ll", "new.ll"]);
    assert!(p.contains("\x1b[36m@@ "), "{p}");
    let off = f.ok(&["diff", "--color=never", "old.ll", "new.ll"]);
    assert!(!off.contains('\x1b'));
    let plain = f.ok(&["diff", "old.ll", "new.ll"]);
    assert_eq!(off, plain);
    let bad = f.irgit(&["diff", "--color=sometimes", "old.ll", "new.ll"]);
    assert!(!bad.status.success());
}

#[test]
fn bitcode_null_device_exit_codes_and_errors() {
    let f = Files::new();
    let bc = f.dir.join("new.bc");
    let o = Command::new("/usr/lib/llvm-22/bin/llvm-as")
        .arg(f.dir.join("new.ll"))
        .arg("-o")
        .arg(&bc)
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = f.ok(&["diff", "--json", "old.ll", "new.ll"]);
    let bitcode = f.ok(&["diff", "--json", "old.ll", "new.bc"]);
    assert_eq!(text.replace("new.ll", "new.bc"), bitcode);

    // /dev/null: everything added.
    let added = f.ok(&["diff", "--json", "/dev/null", "new.ll"]);
    let v: Value = serde_json::from_str(&added).unwrap();
    assert!(v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x["status"] == "added"));
    assert!(v["summary"]["added"].as_u64().unwrap() >= 3);

    // --exit-code.
    let same = f.irgit(&["diff", "--exit-code", "old.ll", "old.ll"]);
    assert_eq!(same.status.code(), Some(0));
    let same_out = String::from_utf8_lossy(&same.stdout);
    assert_eq!(
        same_out, "functions: 4 unchanged\n",
        "one line, nothing else"
    );
    let differ = f.irgit(&["diff", "--exit-code", "old.ll", "new.ll"]);
    assert_eq!(differ.status.code(), Some(1));
    assert_eq!(
        f.irgit(&["diff", "old.ll", "new.ll"]).status.code(),
        Some(0)
    );

    // Errors name the file and exit 2.
    f.write("junk.ll", b"define i32 @f( {\n");
    let e = f.irgit(&["diff", "old.ll", "junk.ll"]);
    assert_eq!(e.status.code(), Some(2));
    let err = String::from_utf8_lossy(&e.stderr);
    assert!(err.starts_with("irgit diff: junk.ll:"), "{err}");
    assert!(e.stdout.is_empty());
    let e = f.irgit(&["diff", "old.ll", "missing.ll"]);
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("missing.ll"));
    let e = f.irgit(&["diff", "old.ll"]);
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("expected OLD NEW"));
    let e = f.irgit(&["diff", "--rename-threshold=1.5", "old.ll", "new.ll"]);
    assert_eq!(e.status.code(), Some(2));
    // --json excludes --stat.
    assert!(!f
        .irgit(&["diff", "--json", "--stat", "old.ll", "new.ll"])
        .status
        .success());
}

#[test]
fn options_change_what_is_reported() {
    let f = Files::new();
    let strict = f.ok(&["diff", "--rename-threshold=1", "old.ll", "new.ll"]);
    assert!(strict.contains("removed   @sum"), "{strict}");
    assert!(strict.contains("added     @total"), "{strict}");
    let none = f.ok(&["diff", "--min-moved=0", "old.ll", "new.ll"]);
    assert!(!none.contains("instructions moved"), "{none}");
    assert!(f
        .ok(&["diff", "old.ll", "new.ll"])
        .contains("instructions moved"));
    let help = f.ok(&["diff", "--help"]);
    for word in [
        "--stat",
        "--json",
        "--rename-threshold",
        "--min-moved",
        "-- PATH",
        "Examples",
    ] {
        assert!(help.contains(word), "help lacks {word}");
    }
}
