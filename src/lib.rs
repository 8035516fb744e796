//! irgit: make git understand LLVM IR.
//!
//! The pipeline, one module per stage (every stage, the data between them
//! and where to change what: `docs/architecture.md`):
//!
//! ```text
//! bytes ─► ir (LLVM parser) ─► canon::{globals, blocks, signature, naming, operands, phis, order}
//!       ─► ir (LLVM printer) ─► canonical text
//! ```
//!
//! `ir` is the only module that talks to LLVM. `config` reads `.irgit.yaml`.

#![warn(unreachable_pub)]

pub mod canon;
pub(crate) mod checks;
pub mod comments;
pub mod compare;
pub mod config;
pub(crate) mod forked;
pub mod git;
pub(crate) mod hash;
pub mod ir;
pub mod merge;
pub mod passes;
pub mod summary;
pub mod text;
pub mod three;

/// An I/O error in words, without the OS's `(os error N)`: "no such file".
pub fn io_problem(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::IsADirectory => "is a directory, not a file".to_string(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error") {
                Some(at) => text[..at].to_string(),
                None => text,
            }
        }
    }
}
