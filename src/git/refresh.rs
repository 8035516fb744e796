//! `irgit refresh`: clear the changes only git's size check sees.
//!
//! git decides a file is modified without reading it when its size differs
//! from the size recorded in the index. After git writes the work tree
//! (checkout, merge, stash pop), the file holds the canonical text; a
//! compiler run that regenerates the same IR writes its own text, of
//! another size, so `git status` shows ` M a.ll` while `git diff` is empty
//! and `git commit -a` has nothing to commit:
//!
//! ```text
//! index: a.ll  blob 5e1c (canonical), size 1480     work tree: clang's text, 1312 bytes
//! git status   ─►  M a.ll          (1312 != 1480: modified, content never read)
//! irgit refresh ─► a.ll: unchanged (git's size check only)   git status ─► clean
//! ```
//!
//! Refresh forgets the recorded stat data of the IR files git lists as
//! modified (the same blob, stat data zero: git then compares contents,
//! through the clean filter) and lets `git update-index --refresh` record
//! the files whose cleaned content is the staged blob. It never stages a
//! change: a file really modified stays modified.

use std::io::Write;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};

use super::cmd;
use super::drivers;

/// Arguments of `irgit refresh`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    irgit refresh        # after a checkout, merge or stash pop, then regenerating the same IR\n  \
    irgit doctor         # says when files need it\n\n\
    Only files with the llvm-ir clean filter (`irgit install --hook`) are looked at; nothing is \
    staged.")]
pub struct RefreshArgs {}

/// Runs `irgit refresh` in the current directory's work tree.
pub fn run(_args: RefreshArgs) -> ExitCode {
    match refresh() {
        Ok((cleared, modified)) => {
            for path in &cleared {
                println!("irgit refresh: {path}: unchanged (only git's size check saw a change)");
            }
            for path in &modified {
                println!("irgit refresh: {path}: modified (`git diff {path}` shows how)");
            }
            if cleared.is_empty() && modified.is_empty() {
                println!("irgit refresh: no IR file looks modified; nothing to do");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("irgit refresh: {e}");
            ExitCode::from(2)
        }
    }
}

/// The IR files that looked modified: those found unchanged, and those
/// that really are modified.
fn refresh() -> Result<(Vec<String>, Vec<String>), String> {
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    let top = cmd::worktree_top(&cwd)
        .ok_or_else(|| format!("{}: not inside a git work tree", cwd.display()))?;
    let candidates = filtered_modified(&top)?;
    if candidates.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    forget_stat_data(&top, &candidates)?;
    // Exit 1 just means some files are modified.
    let _ = Command::new("git")
        .args(["update-index", "-q", "--refresh"])
        .current_dir(&top)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status();
    let still = modified_files(&top)?;
    Ok(candidates.into_iter().partition(|p| !still.contains(p)))
}

/// Tracked files git's stat check lists as modified (`git ls-files -m`),
/// relative to the top of the work tree.
fn modified_files(top: &Path) -> Result<Vec<String>, String> {
    let list = cmd::git(top, &["ls-files", "-m", "-z"])?;
    Ok(list
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect())
}

/// The modified files that git cleans with irgit's filter: only their
/// content can be the staged blob while their size is not.
pub(crate) fn filtered_modified(top: &Path) -> Result<Vec<String>, String> {
    let modified = modified_files(top)?;
    if modified.is_empty() {
        return Ok(modified);
    }
    let refs: Vec<&str> = modified.iter().map(String::as_str).collect();
    let filters = cmd::check_attr(top, "filter", &refs, false)?;
    Ok(modified
        .into_iter()
        .zip(filters)
        .filter(|(_, f)| f == drivers::FILTER)
        .map(|(p, _)| p)
        .collect())
}

/// Re-enters each path's index entry with the same mode and blob and no
/// stat data (`git update-index --index-info`), so git reads it next time.
fn forget_stat_data(top: &Path, paths: &[String]) -> Result<(), String> {
    let mut args = vec!["ls-files", "-s", "-z", "--"];
    args.extend(paths.iter().map(String::as_str));
    let entries = cmd::git(top, &args)?;
    let mut info = String::new();
    for entry in entries.split('\0').filter(|e| !e.is_empty()) {
        // `MODE BLOB STAGE\tPATH`; only stage 0 (no conflict) is refreshed.
        if entry
            .split('\t')
            .next()
            .is_some_and(|head| head.ends_with(" 0"))
        {
            info.push_str(entry);
            info.push('\0');
        }
    }
    let mut child = Command::new("git")
        .args(["update-index", "-z", "--index-info"])
        .current_dir(top)
        .stdin(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(info.as_bytes())
            .map_err(|e| format!("git update-index: {e}"))?;
    }
    let status = child.wait().map_err(|e| format!("git update-index: {e}"))?;
    if !status.success() {
        return Err(format!("`git update-index --index-info` failed ({status})"));
    }
    Ok(())
}

/// The IR files `git status` shows as modified whose cleaned content is the
/// staged blob: what `irgit refresh` would clear (read only).
pub(crate) fn phantoms(top: &Path) -> Result<Vec<String>, String> {
    let candidates = filtered_modified(top)?;
    if candidates.is_empty() {
        return Ok(candidates);
    }
    let mut args = vec!["hash-object", "--"];
    args.extend(candidates.iter().map(String::as_str));
    let cleaned = cmd::git(top, &args)?;
    let mut args = vec!["ls-files", "-s", "-z", "--"];
    args.extend(candidates.iter().map(String::as_str));
    let staged = cmd::git(top, &args)?;
    let staged_blob = |path: &str| {
        staged.split('\0').find_map(|entry| {
            let (head, p) = entry.split_once('\t')?;
            (p == path).then(|| head.split(' ').nth(1).unwrap_or("").to_string())
        })
    };
    Ok(candidates
        .iter()
        .zip(cleaned.lines())
        .filter(|(path, blob)| staged_blob(path).as_deref() == Some(*blob))
        .map(|(path, _)| path.clone())
        .collect())
}
