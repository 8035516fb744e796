//! Everything git-specific: the textconv entry point, install / uninstall,
//! doctor, and the pre-commit hook.
//!
//! ```text
//! git diff ─► irgit-textconv /tmp/XXXX_foo.ll ─► canonical text (or the bytes, unchanged)
//! ```

pub(crate) mod cmd;
pub(crate) mod conflict_style;
pub(crate) mod dialect;
pub(crate) mod diff_summary;
pub(crate) mod difftool;
pub mod doctor;
pub(crate) mod drivers;
pub mod filter;
pub(crate) mod finding;
pub mod hook;
pub mod install;
pub(crate) mod llvm_tools;
pub(crate) mod notes_cache;
pub(crate) mod previous_names;
pub(crate) mod process;
pub mod refresh;
pub mod regenerate;
pub(crate) mod renamed;
pub mod resident;
pub(crate) mod strategy_option;
pub mod textconv;
pub(crate) mod textconv_cache;
pub mod two_sided;
