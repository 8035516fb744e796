//! Which side git's `-X ours` / `-X theirs` favours. git passes a merge
//! driver no strategy option (only `%O %A %B %L %P %S %X %Y`), so the
//! driver reads it where git keeps it: the command line of the git process
//! that runs the driver, else the state of the rebase, cherry-pick or
//! revert that a `--continue` resumes.
//!
//! ```text
//! git merge -X theirs topic                 ─►  Theirs  (argv: -X theirs, -Xtheirs, --strategy-option=theirs)
//! git rebase -X theirs main; … --continue   ─►  Theirs  (.git/rebase-merge/strategy_opts: "theirs")
//! git cherry-pick -X ours A B; … --continue ─►  Ours    (.git/sequencer/opts: strategy-option = ours)
//! git merge topic                           ─►  none
//! ```
//!
//! As in git, `theirs` is always the side being merged in (`%B`): the
//! replayed commit in a rebase, the picked one in a cherry-pick.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::merge::render::Keep;

/// The git commands that take strategy options.
const MERGING_COMMANDS: [&str; 5] = ["merge", "rebase", "cherry-pick", "revert", "pull"];

/// The side `-X ours` / `-X theirs` favours in the git command that runs
/// this driver, if any.
pub(crate) fn requested_by_git() -> Option<Keep> {
    let argv = super::process::calling_git()?.argv;
    let words: Vec<&str> = argv.iter().map(String::as_str).collect();
    let command = words.iter().position(|w| MERGING_COMMANDS.contains(w))?;
    let options = &words[command + 1..];
    if let Some(side) = from_options(options) {
        return Some(side);
    }
    let resumed = options
        .iter()
        .any(|w| matches!(*w, "--continue" | "--skip"));
    if resumed {
        return from_sequencer_state(&git_dir()?);
    }
    None
}

/// The side the strategy options among `options` (a git command's words
/// after the command's name) favour: the last `ours` or `theirs` given.
pub(crate) fn from_options(options: &[&str]) -> Option<Keep> {
    let mut side = None;
    let mut value_next = false;
    for word in options.iter().take_while(|w| **w != "--") {
        let value = if value_next {
            value_next = false;
            Some(*word)
        } else if let Some(v) = word.strip_prefix("-X") {
            value_next = v.is_empty();
            Some(v)
        } else if let Some((name, v)) = word.split_once('=') {
            is_strategy_option(name).then_some(v)
        } else {
            value_next = is_strategy_option(word);
            None
        };
        side = value.and_then(keep_of).or(side);
    }
    side
}

/// `--strategy-option` or a prefix git accepts for it (`--strategy-o…`).
fn is_strategy_option(name: &str) -> bool {
    name.len() >= "--strategy-o".len() && "--strategy-option".starts_with(name)
}

fn keep_of(value: &str) -> Option<Keep> {
    match value {
        "ours" => Some(Keep::Ours),
        "theirs" => Some(Keep::Theirs),
        _ => None,
    }
}

/// The favoured side recorded by a rebase (`rebase-merge/strategy_opts`,
/// `"theirs"`) or a cherry-pick or revert of several commits
/// (`sequencer/opts`, `strategy-option = theirs`) under `git_dir`.
pub(crate) fn from_sequencer_state(git_dir: &Path) -> Option<Keep> {
    let rebase = git_dir.join("rebase-merge").join("strategy_opts");
    if let Ok(text) = std::fs::read_to_string(rebase) {
        // ` --theirs` (older git) or `"theirs"` (git 2.44 on, quoted).
        return text
            .split_whitespace()
            .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
            .filter_map(|w| keep_of(w.strip_prefix("--").unwrap_or(w)))
            .next_back();
    }
    let opts = git_dir.join("sequencer").join("opts");
    let out = Command::new("git")
        .args(["config", "--file"])
        .arg(&opts)
        .args(["--get-all", "options.strategy-option"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|v| keep_of(v.trim()))
        .next_back()
}

/// The repository's git directory, as git tells it in the current one.
fn git_dir() -> Option<PathBuf> {
    let out = Command::new("git")
        .args(["rev-parse", "--absolute-git-dir"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !dir.is_empty()).then(|| PathBuf::from(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_the_option_is_read_and_the_last_side_wins() {
        assert_eq!(from_options(&["-X", "theirs", "topic"]), Some(Keep::Theirs));
        assert_eq!(from_options(&["-Xours"]), Some(Keep::Ours));
        assert_eq!(
            from_options(&["--strategy-option=theirs", "-X", "patience"]),
            Some(Keep::Theirs)
        );
        assert_eq!(
            from_options(&["--strategy-opt", "ours", "-Xtheirs"]),
            Some(Keep::Theirs)
        );
        assert_eq!(from_options(&["-X", "patience", "topic"]), None);
        assert_eq!(from_options(&["--", "-Xtheirs"]), None);
        assert_eq!(from_options(&["--strategy=ours"]), None);
    }

    #[test]
    fn a_rebase_state_in_either_format_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("rebase-merge");
        std::fs::create_dir(&state).unwrap();
        for (text, side) in [
            ("\"theirs\"\n", Some(Keep::Theirs)),
            (" --ours\n", Some(Keep::Ours)),
            ("\"patience\"\n", None),
        ] {
            std::fs::write(state.join("strategy_opts"), text).unwrap();
            assert_eq!(from_sequencer_state(dir.path()), side, "{text:?}");
        }
    }
}
