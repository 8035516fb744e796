//! LLVM's view of the merge's texts: parsing and verifying the inputs,
//! their canonical forms (without comments: comments merge as lines), and
//! the checks every written result passes.
//!
//! ```text
//! ours.ll (%5 = add i32 %4, 1  ; note)  ->  canonical: %add.1f2e = add i32 %arg0, 1
//! a candidate result                    ->  canonical_of(..) == the structured merge's?
//! ```

use crate::canon::source_map::SourceNames;
use crate::config::CanonOptions;
use crate::ir::{IrModule, Session};

use super::outcome::MergeError;

/// The canonical options the merge decides on: no comments.
pub(crate) fn comment_free() -> CanonOptions {
    CanonOptions {
        keep_comments: false,
        ..CanonOptions::default()
    }
}

/// The canonical text of a parsed, verified module, and where its names
/// came from when `source_names` is set. The module is not verified
/// again after canonicalization: these texts are only compared and merged,
/// and every result the merge hands out is verified itself.
pub(crate) fn canonical(
    module: &IrModule<'_>,
    path: &str,
    source_names: bool,
) -> Result<(String, Option<SourceNames>), MergeError> {
    let extras = crate::canon::Extras {
        source_names,
        verify_after: false,
    };
    crate::canon::canonical_text_for(module, &[], path, &comment_free(), extras)
        .map_err(|e| MergeError::Internal(e.to_string()))
}

/// How messages name one version: `base version`, or `base version
/// (85dd238)` when git's label for it says more than its role.
pub(crate) fn version_name(role: &str, label: &str) -> String {
    match label {
        "" => format!("{role} version"),
        same if same == role => format!("{role} version"),
        other => format!("{role} version ({other})"),
    }
}

/// Parses one input (`side` names it in errors: [`version_name`]) and returns its canonical text, and where its names
/// came from when `names_wanted(input size)` says so once the input is
/// parsed and verified. Every side is parsed under the same `path`, because a module
/// without `source_filename` takes its name from it.
pub(crate) fn load(
    session: &Session,
    bytes: &[u8],
    path: &str,
    side: &str,
    names_wanted: &dyn Fn(usize) -> bool,
) -> Result<(String, Option<SourceNames>), MergeError> {
    let _slot = LoadSlot::take();
    let mut timer = crate::canon::PhaseTimer::new();
    let module = session
        .parse(bytes, path)
        .map_err(|e| MergeError::Input(format!("{side}: {e}")))?;
    module
        .verify_as_parsed()
        .map_err(|e| MergeError::Input(format!("{side}: {path}: {e}")))?;
    if let Some(why) = debug_info_rejected(bytes, &module) {
        return Err(MergeError::Input(format!("{side}: {path}: {why}")));
    }
    timer.lap(&format!("merge: {side} parsed and verified"));
    let loaded = canonical(&module, path, names_wanted(bytes.len()));
    timer.lap(&format!("merge: {side} canonical"));
    loaded
}

/// The canonical form of `text` when it parses and verifies.
pub(crate) fn canonical_of(text: &str, path: &str) -> Option<String> {
    let _slot = LoadSlot::take();
    let session = Session::new();
    let module = session.parse(text.as_bytes(), path).ok()?;
    module.verify_as_parsed().ok()?;
    canonical(&module, path, false).ok().map(|(text, _)| text)
}

/// Whether LLVM parses and verifies `bytes`.
pub(crate) fn verifies(bytes: &[u8], path: &str) -> bool {
    let session = Session::new();
    session
        .parse(bytes, path)
        .is_ok_and(|module| module.verify_as_parsed().is_ok())
}

/// Whether LLVM parses and verifies `text` as it is, keeping its debug
/// info (a result the merge writes without a canonical form to compare).
pub(crate) fn valid_as_written(text: &str, path: &str) -> bool {
    let _slot = LoadSlot::take();
    let session = Session::new();
    let Ok(module) = session.parse(text.as_bytes(), path) else {
        return false;
    };
    module.verify_as_parsed().is_ok() && !debug_info_dropped(text, &module)
}

/// Whether LLVM dropped the debug info of `text` (parsed as `module`): the
/// parser strips debug info that does not verify (a compile unit missing
/// from `!llvm.dbg.cu`), with only a warning.
pub(crate) fn debug_info_dropped(text: &str, module: &IrModule<'_>) -> bool {
    text.contains("\n!llvm.dbg.cu = ") && !module.has_named_metadata("llvm.dbg.cu")
}

/// Why LLVM does not read an input's debug info, when it dropped it: the
/// merge treats that input as rejected, as no result can keep debug info
/// that LLVM drops (and git's line merge is then the answer).
///
/// ```text
/// ours.ll: ... !dbg !24   (a location in another function's scope)
///   -> "LLVM drops its debug info as invalid: !dbg attachment points at wrong subprogram for function"
/// ```
fn debug_info_rejected(bytes: &[u8], module: &IrModule<'_>) -> Option<String> {
    if let Some(complaint) = module.dropped_debug_info() {
        let first = complaint.lines().next().unwrap_or_default();
        return Some(format!("LLVM drops its debug info as invalid: {first}"));
    }
    let text = std::str::from_utf8(bytes).ok()?;
    debug_info_dropped(text, module)
        .then(|| "LLVM drops its debug info (not of LLVM 22's debug-info version)".to_string())
}

/// A turn to hold an LLVM module: at most one per core at a time. A large
/// module takes tens of megabytes while it is parsed and canonicalized, and
/// the merge loads four (base, ours, theirs, git's result); more loads than
/// cores at once finish no sooner, but each holds its memory meanwhile.
/// (A load that waits for git's verdict holds its turn: git's thread takes
/// one only after giving its verdict.)
struct LoadSlot;

/// The turns taken, and the signal that one was given back.
static SLOTS_TAKEN: std::sync::Mutex<usize> = std::sync::Mutex::new(0);
static SLOT_FREED: std::sync::Condvar = std::sync::Condvar::new();

impl LoadSlot {
    /// Waits for a turn.
    fn take() -> LoadSlot {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let mut taken = SLOTS_TAKEN.lock().unwrap_or_else(|p| p.into_inner());
        while *taken >= cores.max(2) {
            taken = SLOT_FREED.wait(taken).unwrap_or_else(|p| p.into_inner());
        }
        *taken += 1;
        LoadSlot
    }
}

impl Drop for LoadSlot {
    fn drop(&mut self) {
        let mut taken = SLOTS_TAKEN.lock().unwrap_or_else(|p| p.into_inner());
        *taken -= 1;
        SLOT_FREED.notify_one();
    }
}
