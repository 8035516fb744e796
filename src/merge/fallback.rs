//! The line merge used when the structured merge cannot run: an input that
//! is not IR, a merge that fails to verify, a timeout or a panic. It has
//! `git merge-file` semantics, because it is `git merge-file`:
//!
//! ```text
//! git merge-file -p --diff3 -L ours -L base -L theirs --marker-size 7 OURS BASE THEIRS
//! exit 0: clean, exit N > 0: N conflicts (markers in the output)
//! ```

use std::path::Path;
use std::process::Command;

use super::render::{Keep, Markers, Style};

/// A three-way line merge's result: the merged text, conflict markers
/// included, and how many conflicts it holds. `git merge-file` gives bytes
/// ([`line_merge`]); the merges of texts give strings
/// ([`super::git_merge::line_merge_texts`], [`super::ours_text::lines::merge3`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineMerge<T = String> {
    pub text: T,
    pub conflicts: usize,
}

impl<T> LineMerge<T> {
    /// Whether the merge has no conflict.
    pub(crate) fn is_clean(&self) -> bool {
        self.conflicts == 0
    }
}

/// Runs `git merge-file` on the three files.
pub(crate) fn line_merge(
    base: &Path,
    ours: &Path,
    theirs: &Path,
    m: &Markers,
) -> Result<LineMerge<Vec<u8>>, String> {
    line_merge_favoring(base, ours, theirs, m, None)
}

/// [`line_merge`], with each conflict resolved to `favor`'s side when it
/// is set (`git merge-file --ours` / `--theirs`, for `-X ours` / `-X theirs`).
pub(crate) fn line_merge_favoring(
    base: &Path,
    ours: &Path,
    theirs: &Path,
    m: &Markers,
    favor: Option<Keep>,
) -> Result<LineMerge<Vec<u8>>, String> {
    let mut cmd = Command::new("git");
    cmd.arg("merge-file").arg("-p");
    match favor {
        Some(Keep::Ours) => cmd.arg("--ours"),
        Some(Keep::Theirs) => cmd.arg("--theirs"),
        None => &mut cmd,
    };
    match m.style {
        Style::Diff3 => cmd.arg("--diff3"),
        Style::Zdiff3 => cmd.arg("--zdiff3"),
        Style::Merge => &mut cmd,
    };
    cmd.args(["-L", &m.ours, "-L", &m.base, "-L", &m.theirs])
        .arg(format!("--marker-size={}", m.size.max(1)))
        .arg(ours)
        .arg(base)
        .arg(theirs);
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run git merge-file: {e}"))?;
    match out.status.code() {
        Some(c @ 0..=127) => Ok(LineMerge {
            text: out.stdout,
            conflicts: c as usize,
        }),
        _ => Err(format!(
            "git merge-file failed: {}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        )),
    }
}
