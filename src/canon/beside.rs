//! LLVM's verifications of a large module, run beside the work that needs
//! them rather than before it (see [`crate::forked`]): the verifier reads
//! the module for about as long as printing it takes.
//!
//! ```text
//! sequential:  parse ─► verify input ─► canonicalize ─► verify output ─► print ─► text
//! beside:      parse ─┬► canonicalize ─┬► print ─► text passes ─► wait for both ─► text
//!                     │                └► (copy) verify output ┘          │
//!                     └► (copy) verify input ─────────────────────────────┘
//! ```
//!
//! The result is the same either way, byte for byte and error for error:
//! an input LLVM rejects is reported as such, whatever the canonicalization
//! made of it, and a canonical module LLVM rejects is an internal error.
//! Small modules, and processes that may not fork, take the sequential path.
//!
//! The input's verification runs beside only where the caller asks for it
//! ([`super::InputCheck::Beside`]): a stage may crash on IR that LLVM rejects, so
//! it is for a process whose crash is contained and retried with the input
//! checked first (the textconv server's child). The copy that verifies the
//! input only reads it and ends after a few tens of milliseconds; from then
//! on the pages the process writes are its own again. (The other way round,
//! a copy that canonicalized while the process verified, was measured
//! slower: the copy paid for a private copy of every page it wrote until
//! the end, and sent its text back through a pipe.)

use super::{canonical_text, verify_input, verify_output, CanonError};
use crate::config::CanonOptions;
use crate::forked::{self, Failure, Forked};
use crate::ir::{IrError, IrModule};

/// Inputs from this size on are verified beside the work: below it, a fork
/// costs about what it saves.
const FROM_BYTES: usize = 1 << 20;

/// The canonical text of `module` ([`canonical_text`]), canonicalized while
/// a forked copy verifies the input ([`super::InputCheck::Beside`]). A small
/// input, one the parse already verified, or no copy: verified first.
pub(crate) fn text_while_verifying_input(
    module: &IrModule<'_>,
    input: &[u8],
    name: &str,
    opts: &CanonOptions,
) -> Result<String, CanonError> {
    let Some(copy) = input_check_beside(module, input) else {
        verify_input(module, name)?;
        return canonical_text(module, input, name, opts);
    };
    let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        canonical_text(module, input, name, opts)
    }));
    // An input LLVM rejects is reported as such, whatever its
    // canonicalization made of it.
    input_verdict(copy, name)?;
    made.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// A forked copy that verifies `module` as parsed; `None` for a small input,
/// one the parse already verified, or where no copy could be forked.
fn input_check_beside(module: &IrModule<'_>, input: &[u8]) -> Option<Forked> {
    if input.len() < FROM_BYTES || module.verified_as_parsed() {
        return None;
    }
    forked::spawn(|| {
        module
            .verify_as_parsed()
            .map(|()| Vec::new())
            .map_err(complaint)
    })
}

/// The copy's verdict on the input, in the words of [`verify_input`].
fn input_verdict(copy: Forked, name: &str) -> Result<(), CanonError> {
    let mut timer = super::PhaseTimer::new();
    let verdict = copy.finish();
    timer.lap("wait for the input verification");
    verdict.map(|_| ()).map_err(|failure| match failure {
        Failure::Refused(complaint) => CanonError::Ir {
            name: name.to_string(),
            source: IrError::Verify(complaint),
        },
        Failure::Crashed(how) => CanonError::Crashed {
            name: name.to_string(),
            how,
        },
    })
}

/// LLVM's complaint about an input, as the copy sends it back.
fn complaint(error: IrError) -> String {
    match error {
        IrError::Verify(complaint) => complaint,
        other => other.to_string(),
    }
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
