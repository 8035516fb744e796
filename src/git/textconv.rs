//! `irgit textconv FILE`: what git's diff driver runs on each side of a diff.
//!
//! ```text
//! %3 = add i32 %1, %2   ─►   %add.5e1c = add i32 %ld.90af, %ld.1c2d
//! <garbage>             ─►   <garbage>          (stderr: "irgit textconv: FILE: not valid LLVM IR: ...")
//! ```
//!
//! It must never fail: git cannot show any diff at all when textconv exits
//! non-zero. The canonicalization runs in a child process (`irgit canon`), so
//! even an abort inside LLVM leaves us able to print the input unchanged.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs textconv on `file`, writing to stdout. Never panics on bad input and
/// always returns normally; problems go to stderr as one line.
pub fn run(file: &Path, config: Option<&Path>) {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("irgit textconv: {}: {e}", file.display());
            return;
        }
    };
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        // LLVM would read this as an empty module and print a header; an
        // empty side of a diff must stay empty.
        let _ = std::io::stdout().write_all(&bytes);
        return;
    }
    match canonicalize_in_child(file, config) {
        Ok(text) => {
            let _ = std::io::stdout().write_all(&text);
        }
        Err(why) => {
            // `why` comes from `irgit canon`, whose messages name the file.
            eprintln!(
                "irgit textconv: {why}; showing {} unchanged",
                file.display()
            );
            let _ = std::io::stdout().write_all(&bytes);
        }
    }
}

fn canonicalize_in_child(file: &Path, config: Option<&Path>) -> Result<Vec<u8>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find own executable: {e}"))?;
    let mut cmd = Command::new(exe);
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    cmd.arg("canon")
        .arg("--view")
        .arg("--")
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run irgit canon: {e}"))?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("canonicalization failed")
        .trim_start_matches("irgit: ")
        .to_string();
    Err(match out.status.code() {
        Some(_) => first,
        None => format!("canonicalization crashed ({})", out.status),
    })
}
