//! Which conflict style git wants from the merge driver. git passes a
//! driver no style (`%O %A %B %L %P %S %X %Y` only), so the driver asks:
//!
//! ```text
//! git checkout --conflict=merge a.ll   ─►  the git process that runs the driver says so
//! git -c merge.conflictStyle=zdiff3 …  ─►  `git config merge.conflictStyle` (it sees -c)
//! [merge] conflictStyle = diff3        ─►  the same
//! ```
//!
//! `git checkout --conflict=STYLE` and `git restore --conflict=STYLE` set
//! the style inside the git process only (its config stays untouched), so
//! the driver reads it from that process's command line: the first `git`
//! among its parent processes (Linux's `/proc`; elsewhere only the config).

use std::path::Path;
use std::process::{Command, Stdio};

use crate::merge::Style;

/// The style of `--conflict=STYLE` given to the `git checkout` or `git
/// restore` that runs this driver, if any.
pub fn requested_by_checkout() -> Option<Style> {
    let argv = calling_git_argv()?;
    let words: Vec<&str> = argv.iter().map(String::as_str).collect();
    let command = words
        .iter()
        .position(|w| *w == "checkout" || *w == "restore")?;
    let options = words[command + 1..].iter().take_while(|w| **w != "--");
    let mut style = None;
    let mut value_next = false;
    for w in options {
        if value_next {
            style = Style::from_git(w);
            value_next = false;
        } else if let Some(v) = w.strip_prefix("--conflict=") {
            style = Style::from_git(v);
        } else if *w == "--conflict" {
            value_next = true;
        }
    }
    style
}

/// git's `merge.conflictStyle` as `git config` reads it in `cwd` (with
/// `git -c` settings, which git hands down in the environment).
pub fn configured(cwd: &Path) -> Option<Style> {
    let out = Command::new("git")
        .args(["config", "--get", "merge.conflictStyle"])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| Style::from_git(&String::from_utf8_lossy(&out.stdout)))
        .flatten()
}

/// The command line of the nearest `git` process above this one (git runs
/// a driver through `sh -c`, which may or may not stay in between).
pub(crate) fn calling_git_argv() -> Option<Vec<String>> {
    let mut pid = parent_of("self")?;
    for _ in 0..4 {
        let argv = command_line(pid)?;
        let program = argv.first().map(|p| p.rsplit('/').next().unwrap_or(p))?;
        if program == "git" {
            return Some(argv);
        }
        pid = parent_of(&pid.to_string())?;
        if pid <= 1 {
            return None;
        }
    }
    None
}

fn command_line(pid: u32) -> Option<Vec<String>> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    Some(
        raw.split(|&b| b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect(),
    )
}

/// The parent process id of `pid` ("self" for this process), from the
/// fields after the command name in `/proc/PID/stat`.
fn parent_of(pid: &str) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}
