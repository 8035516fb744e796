//! Shared support of the `irgit diff` tests (`tests/summary_*.rs`): C
//! compiled with clang-22 (cached under target/), the library's diff, and a
//! canonical form split into functions with every `#N` / `!N` replaced by
//! what it points to (the test's own view of "the canonical forms differ").
//!
//! ```text
//! compile("int f(int x){...}", "-O1", &[]) ──clang-22──► target/.../irgit-summary/<hash>.ll
//! canonical_functions(text) ──► { "@f": "define ... #{ nounwind } { ... !{!\"int\", ...} }" }
//! ```
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use irgit::summary::{diff_bytes, Options, Report};

use super::common::fnv;
pub use super::common::CLANG;

pub fn cache_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("irgit-summary");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles C source text to textual IR with clang-22 (cached by content
/// and flags) and returns the IR text.
pub fn compile(source: &str, opt: &str, extra: &[&str]) -> String {
    let key = fnv(format!("{source}\u{0}{opt}\u{0}{extra:?}").as_bytes());
    let dir = cache_dir();
    let out = dir.join(format!("{key:016x}.ll"));
    if let Ok(text) = std::fs::read_to_string(&out) {
        return text;
    }
    // Test threads of one process may compile the same source at once.
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let unique = format!("{}-{n}", std::process::id());
    let src = dir.join(format!("{key:016x}.{unique}.c"));
    std::fs::write(&src, source).unwrap();
    let tmp = out.with_extension(format!("tmp{unique}.ll"));
    let o = Command::new(CLANG)
        .args([opt, "-S", "-emit-llvm", "-w"])
        .args(extra)
        .arg(&src)
        .arg("-o")
        .arg(&tmp)
        .output()
        .expect("clang-22 is installed");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::rename(&tmp, &out).unwrap();
    let _ = std::fs::remove_file(&src);
    std::fs::read_to_string(out).unwrap()
}

/// Compiles a file of the C corpus.
pub fn compile_corpus(name: &str, opt: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name);
    compile(&std::fs::read_to_string(path).unwrap(), opt, &[])
}

/// The C corpus file names.
pub fn corpus_files() -> Vec<String> {
    super::common::corpus_sources()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// `irgit diff` through the library.
pub fn diff(old: &str, new: &str) -> Report {
    diff_with(old, new, &Options::default())
}

pub fn diff_with(old: &str, new: &str, opts: &Options) -> Report {
    diff_bytes(
        Some(old.as_bytes()),
        Some(new.as_bytes()),
        "old.ll",
        "new.ll",
        opts,
    )
    .unwrap_or_else(|e| panic!("irgit diff failed: {e}"))
    .0
}

/// The report entry of a function by its (new) name.
pub fn function<'r>(r: &'r Report, name: &str) -> &'r irgit::summary::FunctionReport {
    r.functions
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("{name} not in the report: {:#?}", r.functions))
}

/// Replaces `#N` and `!N` (outside quotes) by what they point to,
/// recursively for metadata (a node met again inside itself reads `!up`).
fn expand(
    line: &str,
    attrs: &BTreeMap<u32, String>,
    meta: &BTreeMap<u32, String>,
    stack: &mut Vec<u32>,
) -> String {
    let b = line.as_bytes();
    let mut out: Vec<u8> = Vec::new();
    let mut i = 0;
    let mut quoted = false;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            quoted = !quoted;
        }
        if !quoted && (c == b'#' || c == b'!') && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let n: u32 = line[i + 1..j].parse().unwrap();
            if c == b'#' {
                out.extend(attrs.get(&n).map(|s| s.as_str()).unwrap_or("#?").bytes());
            } else if stack.contains(&n) {
                out.extend(b"!up");
            } else {
                stack.push(n);
                let body = meta.get(&n).cloned().unwrap_or_default();
                out.extend(expand(&body, attrs, meta, stack).bytes());
                stack.pop();
            }
            i = j;
            continue;
        }
        out.push(c);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The functions of a canonical text, by name, each with its attribute
/// and metadata references expanded and `;` comments dropped.
pub fn canonical_functions(text: &str) -> BTreeMap<String, String> {
    let mut attrs = BTreeMap::new();
    let mut meta = BTreeMap::new();
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("attributes #") {
            let (n, rhs) = rest.split_once(" = ").unwrap();
            attrs.insert(n.parse().unwrap(), rhs.to_string());
        } else if l.starts_with('!') && l[1..].starts_with(|c: char| c.is_ascii_digit()) {
            let (n, rhs) = l[1..].split_once(" = ").unwrap();
            meta.insert(n.parse().unwrap(), rhs.to_string());
        }
    }
    let mut out = BTreeMap::new();
    let mut cur: Option<(String, String)> = None;
    for l in text.lines() {
        if l.starts_with("define ") {
            let at = l.find('@').unwrap();
            let name: String = l[at..].chars().take_while(|&c| c != '(').collect();
            cur = Some((name, String::new()));
        }
        if let Some((_, body)) = cur.as_mut() {
            let l = match l.find("; ") {
                Some(p) if !l[..p].contains('"') => l[..p].trim_end(),
                _ => l,
            };
            if !l.trim().is_empty() {
                body.push_str(&expand(l, &attrs, &meta, &mut Vec::new()));
                body.push('\n');
            }
        }
        if l == "}" {
            if let Some((name, body)) = cur.take() {
                out.insert(name, body);
            }
        }
    }
    out
}

/// The canonical form with default settings.
pub fn canon(text: &str) -> String {
    irgit::canon::canonicalize_bytes(
        text.as_bytes(),
        "m.ll",
        &irgit::config::CanonOptions::default(),
    )
    .unwrap()
}

/// The `+` lines of a unified diff that equal a `-` line of the same hunk
/// and that `keep` selects (blank lines never count).
pub fn identical_pairs(p: &str, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    for hunk in p.split("\n@@ ").skip(1) {
        let minus: Vec<&str> = hunk
            .lines()
            .filter(|l| !l.starts_with("---"))
            .filter_map(|l| l.strip_prefix('-'))
            .collect();
        for plus in hunk.lines().filter_map(|l| l.strip_prefix('+')) {
            if !plus.trim().is_empty() && minus.contains(&plus) && keep(plus) {
                out.push(plus.to_string());
            }
        }
    }
    out
}
