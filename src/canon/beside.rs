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
//! A text input of moderate size that does not declare a debug-info version
//! is parsed twice instead, by two processes from the start: the copy,
//! forked before any parse, has a module of its own, so its writes to it
//! (every name set, every instruction moved) do not each copy a page the
//! caller still shares (at 80k instructions, about 60 ms of a 1.1 s view).
//!
//! ```text
//! two parses:  parse ─► verify input ─────────────────────────────► wait ─► text
//!              (copy) parse ─► canonicalize ─┬► print ─► wait ─► text ─┘
//!                                            └► (copy) verify output ┘
//! ```
//!
//! The result is the same either way, byte for byte and error for error:
//! an input LLVM rejects is reported as such (the copy that was
//! canonicalizing it is killed), and a canonical module LLVM rejects is an
//! internal error. Small modules, and processes that may not fork, take the
//! sequential path.

use super::{canonical_text, parse, verify_input, verify_output, CanonError, Cleanup};
use crate::config::CanonOptions;
use crate::forked::{self, Failure, Forked};
use crate::ir::{detect_format, Format, IrModule, Session};

/// Inputs from this size on are canonicalized beside their verification:
/// below it, a fork costs about what it saves.
const FROM_BYTES: usize = 1 << 20;

/// Inputs up to this size may be parsed twice: a parsed module takes about
/// 17 times its text in memory, and two of them must fit.
const TWO_PARSES_UP_TO_BYTES: usize = 64 << 20;

/// The canonical text of `input`, from a copy forked before the parse that
/// parses and canonicalizes the input on its own while this process parses
/// and verifies it; `None` (nothing done) where the input is bitcode, small,
/// too large to hold twice, declares a debug-info version (its parse runs
/// the verifier already, see [`IrModule::verified_as_parsed`]), or no copy
/// could be forked.
pub(crate) fn text_from_two_parses(
    input: &[u8],
    name: &str,
    opts: &CanonOptions,
    cleanup: Cleanup,
) -> Option<Result<String, CanonError>> {
    let size_fits = (FROM_BYTES..=TWO_PARSES_UP_TO_BYTES).contains(&input.len());
    if !size_fits
        || detect_format(input) != Format::Text
        || memchr::memmem::find(input, b"Debug Info Version").is_some()
    {
        return None;
    }
    let copy = forked::spawn(|| {
        let session = Session::new();
        let module = parse(&session, input, name).map_err(|e| e.to_string())?;
        let text = canonical_text(&module, input, name, opts);
        // The copy ends as soon as it has sent the text.
        std::mem::forget(module);
        std::mem::forget(session);
        text.map(String::into_bytes).map_err(internal_message)
    })?;
    let mut timer = super::PhaseTimer::new();
    if let Err(error) = parse_and_verify(input, name, cleanup) {
        copy.cancel();
        return Some(Err(error));
    }
    timer.lap("parse and verify input (beside parse and canonicalization)");
    let text = text_of(copy, name);
    timer.lap("wait for the canonical text");
    Some(text)
}

/// Parses `input` and runs LLVM's verifier on it, for its verdict only.
fn parse_and_verify(input: &[u8], name: &str, cleanup: Cleanup) -> Result<(), CanonError> {
    let session = Session::new();
    let module = parse(&session, input, name)?;
    let verdict = verify_input(&module, name);
    if cleanup == Cleanup::LeaveToProcessExit {
        std::mem::forget(module);
        std::mem::forget(session);
    }
    verdict
}

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
    let text = text_of(copy, name);
    timer.lap("wait for the canonical text");
    Some(text)
}

/// The canonical text a copy sends back.
fn text_of(copy: Forked, name: &str) -> Result<String, CanonError> {
    collect(copy, name).and_then(|bytes| {
        String::from_utf8(bytes).map_err(|_| internal(name, "the canonical text is not UTF-8"))
    })
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
