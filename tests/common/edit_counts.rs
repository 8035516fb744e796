//! What the real-edit benchmarks count for each tool, and how they print
//! it: the `+`/`-` lines of a patch, llvm-diff's differing lines, and
//! "median / p90" cells checked against a target.
//!
//! ```text
//! --- a/f.ll            plus_minus_lines: 2 (headers left out)
//! +++ b/f.ll
//! -  %1 = add i32 %0, 1
//! +  %1 = add i32 %0, 2
//! ```

use std::path::Path;
use std::process::Command;

pub const LLVM_DIFF: &str = "/usr/lib/llvm-22/bin/llvm-diff";

/// The irgit binary of this build, run from the temporary directory
/// (outside any repository, so without a cache or `.irgit.yaml`).
pub fn irgit() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_irgit"));
    c.current_dir(std::env::temp_dir());
    c
}

pub fn stdout_of(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `+`/`-` lines of a patch, not its `---`/`+++` headers.
pub fn plus_minus_lines(patch: &str) -> usize {
    patch
        .lines()
        .filter(|l| {
            (l.starts_with('+') && !l.starts_with("+++ "))
                || (l.starts_with('-') && !l.starts_with("--- "))
        })
        .count()
}

/// The lines llvm-diff-22 reports as differing: its `<`/`>` lines and one
/// per "exists only in" line.
pub fn llvm_diff_count(a: &Path, b: &Path) -> usize {
    let out = Command::new(LLVM_DIFF)
        .arg(a)
        .arg(b)
        .output()
        .expect("run llvm-diff-22");
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('<') || l.starts_with('>') || l.contains("exists only in"))
        .count()
}

/// Median and 90th percentile of one tool's counts.
pub fn stat(v: &mut [usize]) -> (usize, usize) {
    v.sort_unstable();
    (super::median(v), super::percentile(v, 90.0))
}

pub fn cell((m, p): (usize, usize)) -> String {
    format!("{m} / {p}")
}

pub fn yes_no(ok: bool) -> &'static str {
    if ok {
        "yes"
    } else {
        "**no**"
    }
}

/// Removed + added lines of a line diff.
pub fn changed_lines(a: &str, b: &str) -> usize {
    let (removed, added) = super::diff_size(a, b);
    removed + added
}

/// The number `var` holds, or `default`.
pub fn count_from_env(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}
