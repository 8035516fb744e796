//! The LLVM tools a merge may run to check a test (opt, llc, FileCheck):
//! only those the user's own configuration names, never a path that a
//! file, `.irgit.yaml` or a RUN line brought along.
//!
//! ```text
//! git config irgit.opt /opt/llvm/bin/opt   ─►  /opt/llvm/bin/opt
//! (unset)                                  ─►  the LLVM 22 irgit was built with: /usr/lib/llvm-22/bin/opt
//! (neither)                                ─►  `opt` on PATH
//! ```
//!
//! git's configuration is read as git reads it from the merge's working
//! directory: `git -c`, `GIT_CONFIG_GLOBAL`, the global and the
//! repository's own `.git/config` all apply.

use std::path::{Path, PathBuf};

use crate::checks::filecheck::Tools;

/// Where the LLVM irgit links was installed when irgit was built.
const BUILT_WITH: Option<&str> = option_env!("LLVM_SYS_221_PREFIX");

/// The tools for a merge running in `cwd`.
pub(crate) fn configured(cwd: &Path) -> Tools {
    Tools {
        opt: tool(cwd, "irgit.opt", "opt"),
        llc: tool(cwd, "irgit.llc", "llc"),
        file_check: tool(cwd, "irgit.fileCheck", "FileCheck"),
        update_test_checks: configured_path(cwd, "irgit.updateTestChecks"),
    }
}

/// `key`'s path from git's configuration, else `name` in the LLVM irgit
/// was built with, else `name` on `PATH`.
fn tool(cwd: &Path, key: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = configured_path(cwd, key) {
        return Some(path);
    }
    let built = BUILT_WITH.map(|prefix| Path::new(prefix).join("bin").join(name));
    built.filter(|p| p.is_file()).or_else(|| on_path(name, cwd))
}

/// `git config --path --get key`, read from `cwd`.
fn configured_path(cwd: &Path, key: &str) -> Option<PathBuf> {
    let out = std::process::Command::new("git")
        .args(["config", "--path", "--get", key])
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let value = String::from_utf8_lossy(&out.stdout).trim_end().to_string();
    (out.status.success() && !value.is_empty()).then(|| PathBuf::from(value))
}

/// `name` in a directory of `PATH`: an absolute one outside `cwd` (the
/// work tree), so that no program the repository holds is found.
fn on_path(name: &str, cwd: &Path) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let inside = |dir: &Path| {
        let here = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
        dir.canonicalize().is_ok_and(|d| d.starts_with(&here))
    };
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute() && !inside(dir))
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}
