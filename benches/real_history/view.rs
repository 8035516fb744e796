//! The view on one real change (old → new version of a file): how many
//! lines each way of showing it changes.
//!
//! ```text
//! raw        diff of the two blobs (what git shows without irgit)
//! view       diff of `irgit textconv` of each (what git shows with irgit)
//! matched    +/- lines of `irgit diff --matched OLD NEW`
//! llvm-diff  its `<`/`>` lines and "exists only in" lines
//! fallback   `irgit textconv` showed a version as written (it failed)
//! hidden     LLVM prints the two versions differently (`opt -S`, top-level
//!            entities in sorted order), the view shows no diff, and
//!            llvm-diff reports a difference
//! names or   the same, but llvm-diff reports none either: a change of value
//! layout     or block names, or of block order (the view's canonical names
//!            and order leave it out)
//! ```
//!
//! A change where LLVM 22 rejects either version is counted apart
//! (`rejected`): only its raw and view lines are measured (the view then
//! shows whatever `irgit textconv` prints of it, the bytes as written where
//! irgit cannot read it), for the measures over every change.
//!
//! Every change, rejected versions included, is also shown by real `git
//! diff` in a repository where `irgit install` ran, against git alone
//! (`real_history/installed.rs`).

use crate::history::Version;
use crate::installed::{GitDiffs, Installed};
use crate::tools::{changed_lines, llvm_diff_lines, matched_lines, Blobs};

/// One change and what each tool showed of it.
#[derive(Debug, Clone)]
pub struct ViewChange {
    pub commit: String,
    pub path: String,
    pub raw: usize,
    pub view: usize,
    pub matched: usize,
    pub llvm_diff: usize,
    pub rejected: bool,
    pub hidden: bool,
    pub names_or_layout: bool,
    /// `irgit textconv` showed a version unchanged (a version LLVM accepts).
    pub view_fell_back: bool,
    /// `+`/`-` lines of `git diff` with irgit installed.
    pub git_installed: usize,
    /// `+`/`-` lines of `git diff --no-ext-diff --no-textconv`.
    pub git_alone: usize,
    /// The installed `git diff` failed: its stderr.
    pub git_failed: Option<String>,
}

impl ViewChange {
    /// The view is noisier than max(raw + 4, 1.25 × raw) (issue 28).
    pub fn noisier(&self) -> bool {
        let allowed = (self.raw + 4).max((self.raw as f64 * 1.25).floor() as usize);
        self.view > allowed
    }

    /// How far past that bound the view is (for ranking the worst).
    pub fn excess(&self) -> isize {
        let allowed = (self.raw + 4).max((self.raw as f64 * 1.25).floor() as usize);
        self.view as isize - allowed as isize
    }

    /// `git diff` with irgit installed printed more `+`/`-` lines than git
    /// alone.
    pub fn git_noisier(&self) -> bool {
        self.git_installed > self.git_alone
    }
}

/// Measures one change (`old` → `new`, consecutive versions of one file).
pub fn measure(blobs: &Blobs, git: &Installed, old: &Version, new: &Version) -> ViewChange {
    let (a, b) = (blobs.text(&old.blob), blobs.text(&new.blob));
    let diffs = git.diff(&new.path, a, b);
    let mut change = ViewChange {
        commit: new.commit[..12].to_string(),
        path: new.path.clone(),
        raw: changed_lines(a, b),
        view: 0,
        matched: 0,
        llvm_diff: 0,
        rejected: !(blobs.accepted(&old.blob) && blobs.accepted(&new.blob)),
        hidden: false,
        names_or_layout: false,
        view_fell_back: false,
        git_installed: diffs.installed,
        git_alone: diffs.alone,
        git_failed: diffs.failed.clone(),
    };
    change.view = changed_lines(&blobs.view(&old.blob), &blobs.view(&new.blob));
    if change.git_noisier() || change.git_failed.is_some() {
        keep_git_diffs(blobs, old, new, &change, &diffs);
    }
    if change.rejected {
        if change.noisier() {
            keep(blobs, old, new, &change);
        }
        return change;
    }
    let (pa, pb) = (blobs.path(&old.blob), blobs.path(&new.blob));
    change.view_fell_back = blobs.view_fell_back(&old.blob) || blobs.view_fell_back(&new.blob);
    change.matched = matched_lines(&pa, &pb);
    change.llvm_diff = llvm_diff_lines(&pa, &pb);
    let unseen = change.view == 0 && blobs.llvm_print(&old.blob) != blobs.llvm_print(&new.blob);
    change.hidden = unseen && change.llvm_diff > 0;
    change.names_or_layout = unseen && change.llvm_diff == 0;
    if unseen || change.noisier() {
        keep(blobs, old, new, &change);
    }
    change
}

/// With `IRGIT_HISTORY_KEEP=DIR`, a change whose view is noisier than
/// allowed or leaves it out leaves `DIR/view-<commit>-<file>/` with
/// `old.ll`, `new.ll` and their views `old.view.ll`, `new.view.ll`.
fn keep(blobs: &Blobs, old: &Version, new: &Version, change: &ViewChange) {
    let name = format!("view-{}-{}", change.commit, change.path.replace('/', "_"));
    let (old_view, new_view) = (blobs.view(&old.blob), blobs.view(&new.blob));
    let files = [
        ("old.ll", blobs.text(&old.blob)),
        ("new.ll", blobs.text(&new.blob)),
        ("old.view.ll", old_view.as_str()),
        ("new.view.ll", new_view.as_str()),
    ];
    crate::common::keep_files("IRGIT_HISTORY_KEEP", &name, &files);
}

/// With `IRGIT_HISTORY_KEEP=DIR`, a change whose installed `git diff` is
/// noisier than git's own (or failed) leaves `DIR/gitdiff-<commit>-<file>/`
/// with `old.ll`, `new.ll`, `installed.diff` (what `git diff` printed with
/// irgit installed) and `git.diff` (`git diff --no-ext-diff --no-textconv`).
fn keep_git_diffs(blobs: &Blobs, old: &Version, new: &Version, change: &ViewChange, d: &GitDiffs) {
    let name = format!(
        "gitdiff-{}-{}",
        change.commit,
        change.path.replace('/', "_")
    );
    let files = [
        ("old.ll", blobs.text(&old.blob)),
        ("new.ll", blobs.text(&new.blob)),
        ("installed.diff", d.installed_text.as_str()),
        ("git.diff", d.alone_text.as_str()),
    ];
    crate::common::keep_files("IRGIT_HISTORY_KEEP", &name, &files);
}
