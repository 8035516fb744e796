//! irgit: make git understand LLVM IR.
//!
//! The pipeline, one module per stage (see `../shared/docs/design.md`):
//!
//! ```text
//! bytes ─► ir (LLVM parser) ─► canon::{globals, blocks, signature, naming, operands, phis, order}
//!       ─► ir (LLVM printer) ─► canonical text
//! ```
//!
//! `ir` is the only module that talks to LLVM. `config` reads `.irgit.yaml`.

pub mod canon;
pub mod comments;
pub mod config;
pub mod git;
pub mod hash;
pub mod ir;
pub mod merge;
pub mod passes;
pub mod summary;
pub mod text;
