//! irgit's own textconv cache: the canonical text of each input, kept in
//! the git directory under the form it was printed in.
//!
//! ```text
//! .git/irgit/textconv-cache/2+9c41d2e0/5e/1c2d...   (form id / BLAKE3 hash of the input)
//!     define i32 @f(i32 %arg0) { ...                (exactly what textconv printed)
//! ```
//!
//! The key is the BLAKE3 hash of the input's bytes and the canonical form's
//! id (the form version and a hash of the `canon:` settings), so a change to
//! `.irgit.yaml` that changes the form finds no entry and the next diff shows
//! the new form. Only successful canonicalizations are stored: a fallback
//! (bad settings, time limit, crash, unparseable input) is shown once and
//! computed again next time, so it never outlives its cause. git's own cache
//! (`cachetextconv`) is off, because it stores whatever textconv printed
//! and is keyed on the command string alone. (The key was git's blob id
//! until its collision-detecting SHA-1 was measured at 12 ms of each
//! textconv of a 5.7 MB input; BLAKE3 is as safe against a crafted
//! collision, which would show one input's view for another's.)

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::config::CanonOptions;

/// Where the canonical text of one input is (or will be) kept.
#[derive(Debug)]
pub(crate) struct Entry {
    path: PathBuf,
}

impl Entry {
    /// The entry for `input` printed in the form `opts` choose, inside the
    /// repository git runs textconv in; `None` outside a repository.
    pub(crate) fn find(input: &[u8], opts: &CanonOptions) -> Option<Entry> {
        // Outside a repository there is no cache: the input is not hashed.
        let dir = cache_dir()?;
        let key = blake3::hash(input).to_hex();
        let form = super::drivers::canon_form_id(opts);
        let path = dir.join(form).join(&key[..2]).join(&key[2..]);
        Some(Entry { path })
    }

    /// The stored canonical text, if any.
    pub(crate) fn get(&self) -> Option<Vec<u8>> {
        std::fs::read(&self.path).ok()
    }

    /// Stores `text`; written whole (temporary file, then rename) so a
    /// reader never sees half an entry. A read-only repository simply gets
    /// no entry.
    pub(crate) fn put(&self, text: &[u8]) {
        let Some(dir) = self.path.parent() else {
            return;
        };
        let _ = std::fs::create_dir_all(dir);
        if let Ok(mut tmp) = tempfile::NamedTempFile::new_in(dir) {
            if tmp.write_all(text).is_ok() {
                let _ = tmp.persist(&self.path);
            }
        }
    }
}

/// The directory that holds the cache: in the common git directory, so
/// every worktree of a repository shares it.
pub(crate) fn cache_dir() -> Option<PathBuf> {
    Some(common_git_dir()?.join("irgit").join("textconv-cache"))
}

/// `$GIT_DIR` (git sets it for the programs it runs), else the `.git` found
/// from the current directory upwards; a worktree's git directory leads to
/// the common one through its `commondir` file.
fn common_git_dir() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    let git_dir = match std::env::var_os("GIT_DIR").filter(|d| !d.is_empty()) {
        Some(d) => cwd.join(d),
        None => cwd.ancestors().find_map(|d| dot_git(&d.join(".git")))?,
    };
    let common = match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(rel) => git_dir.join(rel.trim_end()),
        Err(_) => git_dir,
    };
    common.is_dir().then_some(common)
}

/// The git directory a `.git` entry stands for: the directory itself, or
/// the one a `gitdir: PATH` file points to.
fn dot_git(dot_git: &Path) -> Option<PathBuf> {
    let meta = std::fs::metadata(dot_git).ok()?;
    if meta.is_dir() {
        return Some(dot_git.to_path_buf());
    }
    let text = std::fs::read_to_string(dot_git).ok()?;
    let target = text.strip_prefix("gitdir:")?.trim();
    Some(dot_git.parent()?.join(target))
}
