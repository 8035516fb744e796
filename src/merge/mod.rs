//! The three-way structured IR merge: git's merge driver for LLVM IR.
//!
//! A line merge of IR fails because one inserted instruction renumbers every
//! later `%N`. This merge canonicalizes the three versions, matches each
//! side's values to the base's, expresses each side as an edit script over
//! the base's identities, unions the scripts under the spec's conflict rules
//! (`docs/ir-merge-theory.md`), verifies the result with LLVM and prints it
//! canonically.
//!
//! ```text
//! base:   %1 = add i32 %x, 1      ours:   %1 = add i32 %x, 1      theirs: %1 = add i32 %x, 5
//!         ret i32 %1                      %2 = mul i32 %1, 2              ret i32 %1
//!                                         ret i32 %2
//! merged: %add = add i32 %arg0, 5 / %mul = mul i32 %add, 2 / ret i32 %mul
//! ```
//!
//! Stages: [`model`] (parse canonical text), [`matching`] (A→O, B→O),
//! [`diff`] (block diffs as maximal intervals), [`conflict`] (rules and
//! union), [`apply`] (module-wide union over base identities), [`render`]
//! (markers), [`fallback`] (line merge), [`cli`] (the driver).

pub mod apply;
pub mod cli;
pub mod conflict;
pub mod diff;
pub mod fallback;
pub mod matching;
pub mod model;
pub mod rename;
pub mod render;

use crate::config::CanonOptions;
use crate::ir::{IrModule, Session};

pub use render::{Markers, Style};

/// The result of a structured merge.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The merged module: canonical IR when clean, text with markers otherwise.
    pub text: String,
    /// Number of conflicting regions (0 = clean).
    pub conflicts: usize,
}

/// Why the structured merge could not decide.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// An input is not valid IR (a line merge is the right tool).
    #[error("{0}")]
    Input(String),
    /// The structured merge itself failed (never a clean result).
    #[error("{0}")]
    Internal(String),
}

/// The canonical text of a parsed, verified module (verified again after
/// canonicalization: a merge never hands out IR LLVM would reject).
fn canonical_text(m: &IrModule<'_>, path: &str) -> Result<String, MergeError> {
    let opts = CanonOptions {
        keep_comments: false,
        ..CanonOptions::default()
    };
    crate::canon::canonical_text(m, &[], path, &opts)
        .map_err(|e| MergeError::Internal(e.to_string()))
}

/// Parses one input. Every side is parsed under the same `path`, because a
/// module without `source_filename` takes its name from it.
fn load(session: &Session, bytes: &[u8], path: &str, side: &str) -> Result<String, MergeError> {
    let m = session
        .parse(bytes, path)
        .map_err(|e| MergeError::Input(format!("{side} version: {e}")))?;
    m.verify()
        .map_err(|e| MergeError::Input(format!("{side} version: {path}: {e}")))?;
    canonical_text(&m, path)
}

/// Bytes to write for a merge result: bitcode when ours was bitcode and the
/// merge is clean, the text otherwise (a conflict can only be shown as text).
pub fn output_bytes(ours: &[u8], outcome: &Outcome, path: &str) -> Result<Vec<u8>, MergeError> {
    if outcome.conflicts > 0 || !crate::canon::is_bitcode(ours) {
        return Ok(outcome.text.clone().into_bytes());
    }
    let session = Session::new();
    let m = session
        .parse(outcome.text.as_bytes(), path)
        .map_err(|e| MergeError::Internal(format!("the merged module does not parse: {e}")))?;
    Ok(m.to_bitcode())
}

/// Three-way merge of `base`, `ours`, `theirs` (text IR or bitcode).
/// `path` names the file in messages.
pub fn merge_bytes(
    base: &[u8],
    ours: &[u8],
    theirs: &[u8],
    path: &str,
    markers: &Markers,
) -> Result<Outcome, MergeError> {
    // One LLVM context per input: named types are per context, and a second
    // module in the same context would see `%struct.rect` renamed `%struct.rect.0`.
    // The three are independent: canonicalize ours and theirs on other
    // threads (a panic there resumes here, where the caller catches it).
    let (to, ta, tb) = std::thread::scope(|scope| {
        let ha = scope.spawn(|| load(&Session::new(), ours, path, &markers.ours));
        let hb = scope.spawn(|| load(&Session::new(), theirs, path, &markers.theirs));
        let to = load(&Session::new(), base, path, &markers.base);
        let join = |h: std::thread::ScopedJoinHandle<'_, Result<String, MergeError>>| {
            h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
        };
        (to, join(ha), join(hb))
    });
    let (to, ta, tb) = (to?, ta?, tb?);
    // A module without `source_filename` gets one from its parse name; do
    // not add that line to files that never had it.
    let keep_header = !crate::ir::detect_format(base).eq(&crate::ir::Format::Text)
        || base.windows(15).any(|w| w == b"source_filename");
    let tidy = |text: String| {
        if keep_header {
            text
        } else {
            text.lines()
                .filter(|l| !l.starts_with("source_filename = ") && !l.starts_with("; ModuleID = "))
                .map(|l| format!("{l}\n"))
                .collect()
        }
    };
    let clean = |text: String| {
        Ok(Outcome {
            text: tidy(text),
            conflicts: 0,
        })
    };
    if ta == to {
        return clean(tb);
    }
    if tb == to || ta == tb {
        return clean(ta);
    }
    let internal = |e: String| MergeError::Internal(e);
    let mo = model::parse(&to, "base").map_err(internal)?;
    let mut ma = model::parse(&ta, &markers.ours).map_err(internal)?;
    let mut mb = model::parse(&tb, &markers.theirs).map_err(internal)?;
    // Renamed functions: undo each rename on its side (and canonicalize
    // again, so the callers' lines equal the base's), merge, redo.
    let plan = rename::plan(&mo, &ma, &mb);
    if !plan.undo_ours.is_empty() {
        let text = rename::replace_globals(&ta, &plan.undo_ours);
        let text = load(&Session::new(), text.as_bytes(), path, &markers.ours)?;
        ma = model::parse(&text, &markers.ours).map_err(internal)?;
    }
    if !plan.undo_theirs.is_empty() {
        let text = rename::replace_globals(&tb, &plan.undo_theirs);
        let text = load(&Session::new(), text.as_bytes(), path, &markers.theirs)?;
        mb = model::parse(&text, &markers.theirs).map_err(internal)?;
    }
    let merged = apply::merge_with(&mo, &ma, &mb, &plan.conflicts);
    let text = rename::replace_globals(&render::render(&merged.pieces, markers), &plan.redo);
    if merged.conflicts > 0 {
        return Ok(Outcome {
            text: tidy(text),
            conflicts: merged.conflicts,
        });
    }
    let session = Session::new();
    let m = session
        .parse(text.as_bytes(), path)
        .map_err(|e| MergeError::Internal(format!("the merged module does not parse: {e}")))?;
    m.verify()
        .map_err(|e| MergeError::Internal(format!("the merged module does not verify: {e}")))?;
    clean(canonical_text(&m, path)?)
}
