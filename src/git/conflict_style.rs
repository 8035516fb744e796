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
//! the driver reads it from that process's command line (`process`).

use std::path::Path;
use std::process::{Command, Stdio};

use crate::merge::Style;

/// The style of `--conflict=STYLE` given to the `git checkout` or `git
/// restore` that runs this driver, if any.
pub(crate) fn requested_by_checkout() -> Option<Style> {
    let argv = super::process::calling_git()?.argv;
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
pub(crate) fn configured(cwd: &Path) -> Option<Style> {
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
