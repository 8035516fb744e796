//! The IR files a revision range changed, each compared: what
//! `irgit diff --markdown REV1 REV2 [-- PATH...]` reports, read from git
//! with git2 (no work tree needed).
//!
//! A file counts as IR when its path ends in `.ll` or `.bc`, or when its
//! `diff` attribute (`.gitattributes`, as `irgit install` writes it) is
//! `llvm-ir` or `llvm-bc`. Added and deleted files count; a file LLVM rejects
//! on either side is kept with git's own line counts, never an error.
//!
//! ```text
//! REV1..REV2 changed: a.ll (edited), b.bc (added), notes.txt, bad.ll (not IR LLVM reads)
//!   ─► a.ll  Compared { report (what --stat and --json show), each function's --matched diff }
//!      b.bc  Compared { ... }
//!      bad.ll Rejected { LLVM's first line, git's +3 -1 }
//! ```

use std::path::{Path, PathBuf};

use super::markdown::{shown, Compared, FileEntry, Outcome};
use super::{diff_bytes, Options};

/// `path` (relative to `cwd`) as a path relative to the work tree `top`.
pub(crate) fn repo_relative(top: &Path, cwd: &Path, path: &Path) -> Result<PathBuf, String> {
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let top = canon(top);
    let here = canon(cwd);
    let prefix = here
        .strip_prefix(&top)
        .map_err(|_| format!("{}: outside the work tree {}", cwd.display(), top.display()))?;
    let mut out = PathBuf::new();
    for part in prefix.join(path).components() {
        match part {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    return Err(format!("{}: outside the work tree", path.display()));
                }
            }
            std::path::Component::CurDir => {}
            std::path::Component::Normal(p) => out.push(p),
            _ => {
                return Err(format!(
                    "{}: give a path inside the work tree",
                    path.display()
                ))
            }
        }
    }
    Ok(out)
}

/// The repository the current directory is in, and that directory.
pub(crate) fn discover() -> Result<(git2::Repository, PathBuf), String> {
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    let repo = git2::Repository::discover(&cwd).map_err(|e| {
        format!(
            "{}: not in a git repository: {}",
            cwd.display(),
            e.message()
        )
    })?;
    Ok((repo, cwd))
}

/// The work tree of `repo`, where PATHs are resolved.
pub(crate) fn work_tree(repo: &git2::Repository) -> Result<&Path, String> {
    repo.workdir()
        .ok_or_else(|| "a bare repository has no work tree to resolve PATH in".to_string())
}

/// The tree of `rev`, or an error naming it.
pub(crate) fn tree_of<'r>(repo: &'r git2::Repository, rev: &str) -> Result<git2::Tree<'r>, String> {
    repo.revparse_single(rev)
        .and_then(|o| o.peel_to_tree())
        .map_err(|e| format!("{rev}: not a revision: {}", e.message()))
}

/// Whether git would show `path` with an IR driver.
fn is_ir(repo: &git2::Repository, path: &Path) -> bool {
    if path.extension().is_some_and(|x| x == "ll" || x == "bc") {
        return true;
    }
    let attr = repo.get_attr(path, "diff", git2::AttrCheckFlags::default());
    matches!(attr, Ok(Some("llvm-ir" | "llvm-bc")))
}

/// One changed path: its name, both sides' bytes, git's +/- line counts.
struct Changed {
    path: String,
    old: Option<Vec<u8>>,
    new: Option<Vec<u8>>,
    added: usize,
    removed: usize,
}

/// The IR files `rev1..rev2` changed, limited to `pathspecs` (relative to
/// the current directory; empty: every path), sorted by path.
fn changed(rev1: &str, rev2: &str, pathspecs: &[String]) -> Result<Vec<Changed>, String> {
    let (repo, cwd) = discover()?;
    let (t1, t2) = (tree_of(&repo, rev1)?, tree_of(&repo, rev2)?);
    let mut opts = git2::DiffOptions::new();
    if !pathspecs.is_empty() {
        let top = work_tree(&repo)?;
        for p in pathspecs {
            opts.pathspec(repo_relative(top, &cwd, Path::new(p))?);
        }
    }
    let diff = repo
        .diff_tree_to_tree(Some(&t1), Some(&t2), Some(&mut opts))
        .map_err(|e| format!("{rev1}..{rev2}: {}", e.message()))?;
    let blob = |id: git2::Oid, path: &Path, rev: &str| -> Result<Option<Vec<u8>>, String> {
        if id.is_zero() {
            return Ok(None);
        }
        let b = repo
            .find_blob(id)
            .map_err(|e| format!("{rev}:{}: {}", path.display(), e.message()))?;
        Ok(Some(b.content().to_vec()))
    };
    let mut out = Vec::new();
    for (i, delta) in diff.deltas().enumerate() {
        let (of, nf) = (delta.old_file(), delta.new_file());
        let Some(path) = nf.path().or(of.path()) else {
            continue;
        };
        if !is_ir(&repo, path) {
            continue;
        }
        let stats = git2::Patch::from_diff(&diff, i)
            .ok()
            .flatten()
            .and_then(|p| p.line_stats().ok())
            .unwrap_or_default();
        out.push(Changed {
            path: path.to_string_lossy().into_owned(),
            old: blob(of.id(), path, rev1)?,
            new: blob(nf.id(), path, rev2)?,
            added: stats.1,
            removed: stats.2,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Every IR file `rev1..rev2` changed, compared (sorted by path).
pub(crate) fn entries(
    rev1: &str,
    rev2: &str,
    pathspecs: &[String],
    opts: &Options,
) -> Result<Vec<FileEntry>, String> {
    let files = changed(rev1, rev2, pathspecs)?;
    Ok(files.iter().map(|c| entry(c, rev1, rev2, opts)).collect())
}

/// One file, compared; LLVM's complaint (its first line) when it cannot be.
fn entry(c: &Changed, rev1: &str, rev2: &str, opts: &Options) -> FileEntry {
    let labels = (format!("{rev1}:{}", c.path), format!("{rev2}:{}", c.path));
    let (old, new) = (c.old.as_deref(), c.new.as_deref());
    let compared = diff_bytes(old, new, &labels.0, &labels.1, opts)
        .map_err(|e| e.to_string())
        .and_then(|(report, _, _)| {
            let wanted: Vec<(Option<&str>, Option<&str>)> = shown(&report)
                .map(|f| {
                    let old_name = f.old_name.as_deref().unwrap_or(&f.name);
                    (
                        (f.status != super::Status::Added).then_some(old_name),
                        (f.status != super::Status::Removed).then_some(f.name.as_str()),
                    )
                })
                .collect();
            let diffs = super::matched::function_diffs(old, new, (&labels.0, &labels.1), &wanted)
                .map_err(|e| e.to_string())?;
            Ok(Compared {
                functions: diffs.functions,
                module: diffs.module,
                report,
            })
        });
    let outcome = match compared {
        Ok(c) => Outcome::Compared(Box::new(c)),
        Err(why) => Outcome::Rejected {
            why: why.lines().next().unwrap_or("").to_string(),
            added: c.added,
            removed: c.removed,
        },
    };
    FileEntry {
        path: c.path.clone(),
        outcome,
    }
}
