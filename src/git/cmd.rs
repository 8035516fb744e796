//! Running the `git` program and finding the files it reads.
//!
//! Install, uninstall and doctor ask git itself where things are (`git
//! rev-parse --git-path`, `git config --file`), so worktrees, `core.hooksPath`
//! and `GIT_CONFIG_GLOBAL` behave exactly as they do for git:
//!
//! ```text
//! git rev-parse --git-path hooks/pre-commit   ─►  .git/hooks/pre-commit  (or core.hooksPath/pre-commit)
//! git config --file .git/config --get-all diff.llvm-ir.textconv  ─►  irgit textconv --canon-version=1
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs `git args...` in `cwd`; returns stdout on success, or an error that
/// quotes the command and git's first line of stderr.
pub fn git(cwd: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(format!(
        "`git {}` failed: {}",
        args.join(" "),
        stderr.lines().next().unwrap_or("(no message)")
    ))
}

/// The values of `key` in one config file (empty when unset). Missing file = unset.
pub fn config_get_all(cwd: &Path, file: &Path, key: &str) -> Result<Vec<String>, String> {
    if !file.exists() {
        return Ok(Vec::new());
    }
    let file_s = file.to_string_lossy();
    let out = Command::new("git")
        .args(["config", "--file", &file_s, "--get-all", key])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    match out.status.code() {
        Some(0) => Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()),
        Some(1) => Ok(Vec::new()),
        _ => Err(format!(
            "{}: git cannot read it: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        )),
    }
}

/// The effective value of `key` as git sees it from `cwd` (all scopes).
pub fn config_get(cwd: &Path, key: &str) -> Option<String> {
    let out = Command::new("git")
        .args(["config", "--get", key])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    if out.status.success() {
        Some(String::from_utf8_lossy(&out.stdout).trim_end().to_string())
    } else {
        None
    }
}

/// The top of the worktree containing `cwd`, if any.
pub fn worktree_top(cwd: &Path) -> Option<PathBuf> {
    git(cwd, &["rev-parse", "--show-toplevel"])
        .ok()
        .map(|s| PathBuf::from(s.trim_end()))
        .filter(|p| !p.as_os_str().is_empty())
}

/// `git rev-parse --git-path <rel>` as an absolute path.
pub fn git_path(cwd: &Path, rel: &str) -> Result<PathBuf, String> {
    let p = git(cwd, &["rev-parse", "--git-path", rel])?;
    let p = PathBuf::from(p.trim_end());
    Ok(if p.is_absolute() { p } else { cwd.join(p) })
}

fn home() -> Result<PathBuf, String> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| "HOME is not set: cannot find the global git configuration".to_string())
}

fn xdg_config_home() -> Result<PathBuf, String> {
    match std::env::var_os("XDG_CONFIG_HOME").filter(|x| !x.is_empty()) {
        Some(x) => Ok(PathBuf::from(x)),
        None => Ok(home()?.join(".config")),
    }
}

/// The file `git config --global` writes: `$GIT_CONFIG_GLOBAL`, else
/// `~/.gitconfig`, unless only `$XDG_CONFIG_HOME/git/config` exists.
pub fn global_config_file() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("GIT_CONFIG_GLOBAL").filter(|x| !x.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let user = home()?.join(".gitconfig");
    let xdg = xdg_config_home()?.join("git").join("config");
    Ok(if !user.exists() && xdg.exists() {
        xdg
    } else {
        user
    })
}

/// The global attributes file git reads: `core.attributesFile`, else
/// `$XDG_CONFIG_HOME/git/attributes` (`~/.config/git/attributes`).
pub fn global_attributes_file(cwd: &Path) -> Result<PathBuf, String> {
    let configured = Command::new("git")
        .args([
            "config",
            "--global",
            "--path",
            "--get",
            "core.attributesFile",
        ])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim_end().to_string())
        .filter(|s| !s.is_empty());
    match configured {
        Some(p) => Ok(PathBuf::from(p)),
        None => Ok(xdg_config_home()?.join("git").join("attributes")),
    }
}

/// Finds `program` the way `execvp` would: a path containing `/` as is,
/// otherwise the first executable file of that name on `PATH`.
pub fn find_program(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let is_exe = |p: &Path| {
        p.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    };
    if program.contains('/') {
        let p = PathBuf::from(program);
        return is_exe(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| is_exe(p))
}
