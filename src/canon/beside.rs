//! LLVM's verifications of a large module, run beside the work that needs
//! them rather than before it (see [`crate::forked`]): the verifier reads
//! the module for about as long as printing it takes, and the view of a
//! large file would otherwise spend a third of its time in the two runs.
//!
//! ```text
//! sequential:  parse ─► verify input ─► canonicalize ─► verify output ─► print
//! beside:      parse ─┬► verify input ─────────────────────────────────────────► wait ─► text
//!                     └► (copy) canonicalize ─┬► print ─► wait ─► text ─┘
//!                                             └► (copy) verify output ┘
//! ```
//!
//! The result is the same either way, byte for byte and error for error:
//! an input LLVM rejects is reported as such (the copy that was
//! canonicalizing it is killed), and a canonical module LLVM rejects is an
//! internal error. Small modules, and processes that may not fork, take the
//! sequential path.

use super::{canonical_text, verify_output, CanonError};
use crate::config::CanonOptions;
use crate::forked::{self, Failure, Forked};
use crate::ir::IrModule;

/// Inputs from this size on are canonicalized beside their verification:
/// below it, a fork costs about what it saves.
const FROM_BYTES: usize = 1 << 20;

/// The canonical text of `module`, computed in a forked copy while this
/// process verifies the input; `None` (nothing done) for a small input or
/// where no copy could be forked.
pub(crate) fn text_beside_input_check(
    module: &IrModule<'_>,
    input: &[u8],
    name: &str,
    opts: &CanonOptions,
) -> Option<Result<String, CanonError>> {
    // The parse already reached LLVM's verdict on some modules.
    if input.len() < FROM_BYTES || module.verified_as_parsed() {
        return None;
    }
    let copy = forked::spawn(|| {
        canonical_text(module, input, name, opts)
            .map(String::into_bytes)
            .map_err(internal_message)
    })?;
    let mut timer = super::PhaseTimer::new();
    if let Err(source) = module.verify() {
        copy.cancel();
        return Some(Err(CanonError::Ir {
            name: name.to_string(),
            source,
        }));
    }
    timer.lap("verify input (beside canonicalization)");
    let text = collect(copy, name).and_then(|bytes| {
        String::from_utf8(bytes).map_err(|_| internal(name, "the canonical text is not UTF-8"))
    });
    timer.lap("wait for the canonical text");
    Some(text)
}

/// LLVM's verdict on a canonicalized module: computed beside the printing
/// when the module is large and a copy could be forked, else at once.
pub(crate) enum OutputCheck {
    Beside(Forked),
    Done(Result<(), CanonError>),
}

impl OutputCheck {
    /// Starts the check of `module` as it is now (later changes to it, such
    /// as its identifier, are not seen by a forked check).
    pub(crate) fn start(module: &IrModule<'_>, name: &str, input_len: usize) -> OutputCheck {
        if input_len >= FROM_BYTES {
            let verdict = || {
                module
                    .verify()
                    .map(|()| Vec::new())
                    .map_err(|e| e.to_string())
            };
            if let Some(copy) = forked::spawn(verdict) {
                return OutputCheck::Beside(copy);
            }
        }
        let mut timer = super::PhaseTimer::new();
        let done = verify_output(module, name);
        timer.lap("verify output");
        OutputCheck::Done(done)
    }

    /// The verdict, waiting for it if it is computed beside.
    pub(crate) fn finish(self, name: &str) -> Result<(), CanonError> {
        match self {
            OutputCheck::Done(done) => done,
            OutputCheck::Beside(copy) => {
                let mut timer = super::PhaseTimer::new();
                let verdict = collect(copy, name).map(|_| ());
                timer.lap("wait for the output verification");
                verdict
            }
        }
    }
}

/// A copy's result, with its failure in the words of [`CanonError`].
fn collect(copy: Forked, name: &str) -> Result<Vec<u8>, CanonError> {
    copy.finish().map_err(|failure| match failure {
        Failure::Refused(message) => internal(name, &message),
        Failure::Crashed(how) => CanonError::Crashed {
            name: name.to_string(),
            how,
        },
    })
}

fn internal(name: &str, message: &str) -> CanonError {
    CanonError::Internal {
        name: name.to_string(),
        message: message.to_string(),
    }
}

/// What a copy sends back for an error of [`canonical_text`] (which only
/// fails with [`CanonError::Internal`]): its message, without the name.
fn internal_message(error: CanonError) -> String {
    match error {
        CanonError::Internal { message, .. } => message,
        other => other.to_string(),
    }
}
