//! Everything git-specific: the textconv entry point, install / uninstall,
//! doctor, and the pre-commit hook.
//!
//! ```text
//! git diff ─► irgit-textconv /tmp/XXXX_foo.ll ─► canonical text (or the bytes, unchanged)
//! ```

pub mod cmd;
pub mod conflict_style;
pub mod dialect;
pub mod diff_summary;
pub mod difftool;
pub mod doctor;
pub mod drivers;
pub mod filter;
pub mod finding;
pub mod hook;
pub mod install;
pub mod notes_cache;
pub mod process;
pub mod refresh;
pub mod renamed;
pub mod strategy_option;
pub mod textconv;
pub mod textconv_cache;
