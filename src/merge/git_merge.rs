//! git's own line merge (`git merge-file` semantics), run beside the
//! structured merge: when it is clean and means what the structured merge
//! means, its bytes are the result. It also tells the structured merge
//! early whether ours' source names will be needed ([`GitVerdict`]).
//!
//! ```text
//! base: %3 = add i32 %2, 1   ours: %3 = add i32 %2, 2   theirs: (an edit 40 lines below)
//! git merge-file: clean  ->  canonical form checked against the structured merge's
//! ```

use super::fallback::{self, LineMerge};
use super::loading::canonical_of;
use super::outcome::MergeError;
use super::render::Markers;
use crate::three::Three;

/// git's line merge and, when it is clean and valid IR, its canonical form.
pub(crate) struct GitMerge {
    pub(crate) merged: LineMerge,
    pub(crate) canonical: Option<String>,
}

impl GitMerge {
    /// git's line merge of the three texts (none for bitcode or other
    /// bytes; `known` when it was run already), with the canonical form of
    /// a clean result; tells `verdict` as soon as cleanliness is known.
    pub(crate) fn run(
        texts: Option<Three<&str>>,
        known: Option<LineMerge>,
        path: &str,
        markers: &Markers,
        verdict: &GitVerdict,
    ) -> Option<GitMerge> {
        let _on_exit = VerdictOnExit(verdict);
        let Three { base, ours, theirs } = texts?;
        let mut timer = crate::canon::PhaseTimer::new();
        let merged = match known {
            Some(merged) => merged,
            None => line_merge_texts(base, ours, theirs, markers).ok()?,
        };
        verdict.set(merged.conflicts == 0);
        timer.lap("merge: git merge-file");
        let canonical = (merged.conflicts == 0)
            .then(|| canonical_of(&merged.text, path))
            .flatten();
        timer.lap("merge: git's result canonical");
        Some(GitMerge { merged, canonical })
    }

    /// The canonical form of a clean result that parses and verifies.
    pub(crate) fn clean_canonical(&self) -> Option<&str> {
        self.canonical.as_deref()
    }
}

/// Whether git's line merge is clean, once it is known. Only a merge that
/// cannot take git's result needs the inputs' source names (to write ours'
/// text), and recording them costs a fair part of a canonicalization: an
/// input canonicalized after git's line merge was found clean skips them.
#[derive(Default)]
pub(crate) struct GitVerdict {
    clean: std::sync::Mutex<Option<bool>>,
    known: std::sync::Condvar,
}

/// From this size on an input waits for git's verdict before it is
/// canonicalized: parsing it took longer than `git merge-file` takes, and
/// recording its names would cost more than the wait. A smaller input
/// records its names unless the verdict is already in.
const WAIT_FOR_GIT_FROM_BYTES: usize = 256 << 10;

impl GitVerdict {
    fn set(&self, clean: bool) {
        let mut verdict = self.clean.lock().unwrap_or_else(|p| p.into_inner());
        verdict.get_or_insert(clean);
        self.known.notify_all();
    }

    /// Whether an input of `size` bytes should record its source names.
    pub(crate) fn names_wanted(&self, size: usize) -> bool {
        let mut verdict = self.clean.lock().unwrap_or_else(|p| p.into_inner());
        while verdict.is_none() && size >= WAIT_FOR_GIT_FROM_BYTES {
            verdict = self.known.wait(verdict).unwrap_or_else(|p| p.into_inner());
        }
        *verdict != Some(true)
    }
}

/// Says "not clean" when git's thread ends (or panics) without a verdict,
/// so that no input waits forever.
struct VerdictOnExit<'a>(&'a GitVerdict);

impl Drop for VerdictOnExit<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

/// `git merge-file` on three texts written to a temporary directory.
pub(crate) fn line_merge_texts(
    base: &str,
    ours: &str,
    theirs: &str,
    markers: &Markers,
) -> Result<LineMerge, MergeError> {
    let dir = tempfile::tempdir().map_err(|e| MergeError::Internal(e.to_string()))?;
    let write = |name: &str, text: &str| {
        let file = dir.path().join(name);
        std::fs::write(&file, text).map_err(|e| MergeError::Internal(e.to_string()))?;
        Ok::<_, MergeError>(file)
    };
    let (base, ours, theirs) = (
        write("base", base)?,
        write("ours", ours)?,
        write("theirs", theirs)?,
    );
    let merged =
        fallback::line_merge(&base, &ours, &theirs, markers).map_err(MergeError::Internal)?;
    let clean = merged.is_clean();
    let text = String::from_utf8(merged.text)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    let open = "<".repeat(markers.size.max(1));
    let conflicts = if clean {
        0
    } else {
        text.lines()
            .filter(|l| l.starts_with(&open) && l[open.len()..].starts_with(' '))
            .count()
            .max(1)
    };
    Ok(LineMerge { text, conflicts })
}
