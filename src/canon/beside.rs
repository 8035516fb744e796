//! LLVM's verification of a large canonical module, run beside its
//! printing rather than before it (see [`crate::forked`]): the verifier
//! reads the module for about as long as printing it takes.
//!
//! ```text
//! sequential:  parse ─► verify input ─► canonicalize ─► verify output ─► print ─► text
//! beside:      parse ─► verify input ─► canonicalize ─┬► print ─► text ─► wait ─► text
//!                                                     └► (copy) verify output ┘
//! ```
//!
//! The result is the same either way, byte for byte and error for error:
//! a canonical module LLVM rejects is an internal error. Small modules, and
//! processes that may not fork, take the sequential path.
//!
//! The input is verified in the process that canonicalizes it, before any
//! stage reads it. Verifying it in a forked copy instead (beside the
//! canonicalization) was measured slower: the copy that canonicalized then
//! paid for a private copy of every page it wrote, and for sending the
//! canonical text back through a pipe.

use super::{verify_output, CanonError};
use crate::forked::{self, Failure, Forked};
use crate::ir::IrModule;

/// Inputs from this size on are verified beside their printing: below it,
/// a fork costs about what it saves.
const FROM_BYTES: usize = 1 << 20;

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
