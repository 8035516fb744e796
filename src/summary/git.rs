//! `irgit diff` as git's external diff: what `irgit install --diff-summary`
//! writes, and what `irgit doctor` checks.
//!
//! ```text
//! [diff "llvm-ir"]                          git diff        ─► irgit diff PATH OLD HEX MODE NEW HEX MODE
//!     textconv = irgit textconv ...             (summary per function)
//!     command = irgit diff                  git diff --no-ext-diff, git log -p ─► textconv (canonical lines)
//! [diff "llvm-bc"]
//!     command = irgit diff
//! ```
//!
//! Git runs `diff.<driver>.command` instead of its own diff for paths whose
//! `diff` attribute names the driver, in `git diff` (and `git show`/`git log
//! -p` only with `--ext-diff`), with seven arguments (nine for a rename).

use crate::git::drivers::{DIFF_BITCODE, DIFF_TEXT, PROGRAM};

/// The command written into `diff.<driver>.command`.
pub fn command() -> String {
    format!("{PROGRAM} diff")
}

/// Every `(key, value)` `irgit install --diff-summary` writes.
pub fn config_entries() -> Vec<(String, String)> {
    vec![
        (format!("diff.{DIFF_TEXT}.command"), command()),
        (format!("diff.{DIFF_BITCODE}.command"), command()),
    ]
}

/// Whether a configured external-diff command runs `irgit diff` (any
/// program path, any options).
pub fn is_diff_summary_command(value: &str) -> bool {
    let mut words = value.split_whitespace();
    let program = words.next().unwrap_or("");
    let name = std::path::Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    name == PROGRAM && words.next() == Some("diff")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognizes_its_command() {
        assert!(is_diff_summary_command(&command()));
        assert!(is_diff_summary_command("/opt/bin/irgit diff --stat"));
        assert!(!is_diff_summary_command("irgit textconv"));
        assert!(!is_diff_summary_command("difftool"));
        assert_eq!(config_entries().len(), 2);
    }
}
