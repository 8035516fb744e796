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

use super::cmd;
use super::drivers::{DIFF_BITCODE, DIFF_TEXT, PROGRAM};
use super::finding::Finding;

/// The command written into `diff.<driver>.command`.
pub(crate) fn command() -> String {
    format!("{PROGRAM} diff")
}

/// The command `irgit install --diff-matched` writes.
pub(crate) fn matched_command() -> String {
    format!("{PROGRAM} diff --matched")
}

/// Every `(key, value)` `irgit install --diff-summary` writes.
pub(crate) fn config_entries() -> Vec<(String, String)> {
    entries_running(command())
}

/// Every `(key, value)` `irgit install --diff-matched` writes: the same
/// keys, the matched diff as the command.
pub(crate) fn matched_config_entries() -> Vec<(String, String)> {
    entries_running(matched_command())
}

fn entries_running(command: String) -> Vec<(String, String)> {
    vec![
        (format!("diff.{DIFF_TEXT}.command"), command.clone()),
        (format!("diff.{DIFF_BITCODE}.command"), command),
    ]
}

/// Whether a configured external-diff command runs `irgit diff` (any
/// program path, any options).
pub(crate) fn is_diff_summary_command(value: &str) -> bool {
    let mut words = value.split_whitespace();
    let program = words.next().unwrap_or("");
    let name = std::path::Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    name == PROGRAM && words.next() == Some("diff") && !value.contains("--smallest")
}

/// Whether a configured external-diff command runs the default
/// `irgit diff --smallest` (any program path).
pub(crate) fn is_smallest_command(value: &str) -> bool {
    value.contains(PROGRAM) && value.contains(" diff --smallest")
}

/// `irgit doctor`'s checks of the diff summary: both drivers or neither
/// run `irgit diff`, and nothing else hides irgit from `git diff`. Adds the
/// programs the commands run to `programs` (checked on PATH by doctor).
pub(crate) fn diagnose(
    cwd: &std::path::Path,
    programs: &mut Vec<(String, String)>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let entries = config_entries();
    let values: Vec<(String, Option<String>)> = entries
        .iter()
        .map(|(k, _)| (k.clone(), cmd::config_get(cwd, k)))
        .collect();
    let ours = |v: &Option<String>| v.as_deref().is_some_and(is_diff_summary_command);
    for (key, value) in &values {
        let Some(v) = value else { continue };
        if is_smallest_command(v) {
            out.push(Finding {
                ok: true,
                what: format!(
                    "{key}: `git diff` shows the smaller of git's own diff and the views' diff"
                ),
                fix: None,
            });
            continue;
        }
        if ours(value) {
            if let Some(p) = v.split_whitespace().next() {
                if !programs.iter().any(|(q, _)| q == p) {
                    programs.push((p.to_string(), key.clone()));
                }
            }
        } else {
            out.push(Finding {
                ok: false,
                what: format!(
                    "{key} = {v:?} runs another program: `git diff` shows its output, not irgit's"
                ),
                fix: Some(format!(
                    "`git config --unset {key}`, or `irgit install --diff-summary`"
                )),
            });
        }
    }
    let installed = values.iter().filter(|(_, v)| ours(v)).count();
    if installed == values.len() {
        let what = if values
            .iter()
            .all(|(_, v)| v.as_deref().is_some_and(|v| v.contains("--matched")))
        {
            "irgit's matched diff"
        } else {
            "irgit's function summary"
        };
        out.push(Finding {
            ok: true,
            what: format!(
                "`git diff` shows {what} for IR files (diff.*.command); \
                 `git diff --no-ext-diff` shows the canonical text"
            ),
            fix: None,
        });
    } else if installed > 0 {
        let missing: Vec<&str> = values
            .iter()
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| k.as_str())
            .collect();
        if !missing.is_empty() {
            out.push(Finding {
                ok: false,
                what: format!(
                    "the diff summary is half installed: {} not set",
                    missing.join(", ")
                ),
                fix: Some("run `irgit install --diff-summary` again".to_string()),
            });
        }
    }
    out
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
        assert!(is_diff_summary_command(&matched_command()));
    }
}
