//! One finding of `irgit doctor`, shared by its checks (the diff summary's
//! included, `super::diff_summary`).
//!
//! ```text
//! Finding { ok: false, what: "diff.llvm-ir.textconv is not set", fix: Some("run `irgit install`") }
//! ```

/// One finding: a problem (`ok: false`, with its fix), a note (`ok: true`
/// with a hint in `fix`: something optional, or not in effect yet), or all
/// well (`ok: true`, no `fix`). Only problems make doctor fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub ok: bool,
    pub what: String,
    pub fix: Option<String>,
}
