//! `git difftool --tool=irgit`: one `irgit diff --html` page per changed
//! file, written to a temporary file and opened in the browser. What
//! `irgit install --difftool` writes:
//!
//! ```text
//! [difftool "irgit"]
//!     cmd = '/path/to/irgit' diff --open --old-label="a/$MERGED" --new-label="b/$MERGED" "$LOCAL" "$REMOTE"
//!
//! $ git difftool -y -t irgit HEAD~1      # a page per changed IR file
//! $ IRGIT_BROWSER=none git difftool -y -t irgit HEAD~1   # only print the pages' paths
//! ```
//!
//! Git runs the command through the shell with `LOCAL` and `REMOTE` (the
//! two versions, in temporary files it deletes afterwards: the page needs
//! nothing from them once written) and `MERGED` (the path) in the
//! environment. `--open` opens the page with `$IRGIT_BROWSER`, `$BROWSER`
//! or `xdg-open`, and prints its path.

use std::path::Path;

use super::drivers::{irgit_path, shell_quote};

/// The tool's name (`git difftool -t irgit`).
pub(crate) const TOOL: &str = "irgit";

/// The command git runs for one file.
pub(crate) fn command(irgit: &Path) -> String {
    format!(
        "{} diff --open --old-label=\"a/$MERGED\" --new-label=\"b/$MERGED\" \"$LOCAL\" \"$REMOTE\"",
        shell_quote(&irgit.to_string_lossy())
    )
}

/// Every `(key, value)` `irgit install --difftool` writes.
pub(crate) fn config_entries() -> Vec<(String, String)> {
    vec![(format!("difftool.{TOOL}.cmd"), command(&irgit_path()))]
}
