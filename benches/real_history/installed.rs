//! `git diff` as a user sees it after `irgit install` (the defaults), on
//! one real change, against git alone on the same two versions.
//!
//! ```text
//! temp repo (one per lane) ── irgit install
//! each change old → new of PATH:
//!   write old, git add PATH, write new
//!   git diff -- PATH                               installed: what git prints with irgit's drivers
//!   git diff --no-ext-diff --no-textconv -- PATH   alone: git's own diff
//!   git rm --cached PATH, remove it
//! ```
//!
//! Both are real `git diff` runs in one repository, so whatever `irgit
//! install` configures for `*.ll` (a textconv, an external diff command)
//! is what runs. The count is the `+`/`-` lines of the hunks, read by the
//! hunks' own line counts (file headers and any note outside a hunk are
//! not counted). The resident textconv servers the drivers start live in
//! the repository's own directory and end with it.

use std::path::Path;

use crate::git_support::Repo;

/// What `git diff` printed for one change, both ways.
#[derive(Debug, Clone, Default)]
pub struct GitDiffs {
    /// `+`/`-` lines of `git diff` with irgit installed.
    pub installed: usize,
    /// `+`/`-` lines of `git diff --no-ext-diff --no-textconv`.
    pub alone: usize,
    /// The installed `git diff` failed (its stderr, first lines).
    pub failed: Option<String>,
    pub installed_text: String,
    pub alone_text: String,
}

/// A temporary repository with irgit installed by `irgit install`.
pub struct Installed {
    repo: Repo,
}

impl Installed {
    pub fn new() -> Installed {
        let repo = Repo::new();
        repo.irgit_ok(&["install"]);
        Installed { repo }
    }

    /// The two diffs of `old` → `new` written at `path`.
    pub fn diff(&self, path: &str, old: &str, new: &str) -> GitDiffs {
        let file = self.repo.root.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).expect("create the file's folder");
        std::fs::write(&file, old).expect("write the old version");
        self.repo.git(&["add", "-f", "--", path]);
        std::fs::write(&file, new).expect("write the new version");
        let installed = self.git_diff(&["diff", "--", path]);
        let alone = self.git_diff(&["diff", "--no-ext-diff", "--no-textconv", "--", path]);
        self.repo.git(&["rm", "-q", "-f", "--cached", "--", path]);
        remove(&file);
        let failed = (!installed.status.success()).then(|| {
            let err = String::from_utf8_lossy(&installed.stderr);
            err.lines().take(2).collect::<Vec<_>>().join(" / ")
        });
        let installed_text = String::from_utf8_lossy(&installed.stdout).into_owned();
        let alone_text = String::from_utf8_lossy(&alone.stdout).into_owned();
        GitDiffs {
            installed: hunk_lines(&without_colour(&installed_text)),
            alone: hunk_lines(&without_colour(&alone_text)),
            failed,
            installed_text,
            alone_text,
        }
    }

    fn git_diff(&self, args: &[&str]) -> std::process::Output {
        self.repo
            .command("git")
            .env("GIT_PAGER", "cat")
            .args(["-c", "color.ui=never"])
            .args(args)
            .output()
            .expect("run git diff")
    }
}

fn remove(file: &Path) {
    let _ = std::fs::remove_file(file);
}

/// `text` without ANSI colour sequences (`ESC [ … m`), should an external
/// diff colour its output although git's does not.
fn without_colour(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        rest = after.find('m').map_or("", |end| &after[end + 1..]);
    }
    out.push_str(rest);
    out
}

/// The `+`/`-` lines of the hunks of a unified diff: after each
/// `@@ -a,b +c,d @@` header, exactly `b` old and `d` new lines.
pub fn hunk_lines(diff: &str) -> usize {
    let mut changed = 0;
    let (mut old_left, mut new_left) = (0usize, 0usize);
    for line in diff.lines() {
        if old_left > 0 || new_left > 0 {
            match line.as_bytes().first() {
                Some(b' ') | None => {
                    old_left = old_left.saturating_sub(1);
                    new_left = new_left.saturating_sub(1);
                }
                Some(b'-') => {
                    old_left = old_left.saturating_sub(1);
                    changed += 1;
                }
                Some(b'+') => {
                    new_left = new_left.saturating_sub(1);
                    changed += 1;
                }
                Some(b'\\') => {}
                _ => (old_left, new_left) = (0, 0),
            }
            continue;
        }
        if let Some((old, new)) = hunk_header(line) {
            (old_left, new_left) = (old, new);
        }
    }
    changed
}

/// The line counts of `@@ -a[,b] +c[,d] @@ …` (a count left out is 1).
fn hunk_header(line: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let count = |range: &str| -> Option<usize> {
        match range.split_once(',') {
            Some((_, n)) => n.parse().ok(),
            None => range.parse::<usize>().ok().map(|_| 1),
        }
    };
    Some((count(old)?, count(new)?))
}
