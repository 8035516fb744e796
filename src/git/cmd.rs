//! Running the `git` program and finding the files it reads.
//!
//! Install, uninstall and doctor ask git itself where things are (`git
//! rev-parse --git-path`, `git config --file`), so worktrees, `core.hooksPath`
//! and `GIT_CONFIG_GLOBAL` behave exactly as they do for git:
//!
//! ```text
//! git rev-parse --git-path hooks/pre-commit   ─►  .git/hooks/pre-commit  (or core.hooksPath/pre-commit)
//! git config --file .git/config --get-all diff.llvm-ir.textconv  ─►  irgit-textconv
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs `git args...` in `cwd`; returns stdout on success, or an error that
/// quotes the command and git's first line of stderr.
pub(crate) fn git(cwd: &Path, args: &[&str]) -> Result<String, String> {
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
pub(crate) fn config_get_all(cwd: &Path, file: &Path, key: &str) -> Result<Vec<String>, String> {
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
pub(crate) fn config_get(cwd: &Path, key: &str) -> Option<String> {
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
pub(crate) fn worktree_top(cwd: &Path) -> Option<PathBuf> {
    git(cwd, &["rev-parse", "--show-toplevel"])
        .ok()
        .map(|s| PathBuf::from(s.trim_end()))
        .filter(|p| !p.as_os_str().is_empty())
}

/// `git rev-parse --git-path <rel>` as an absolute path.
pub(crate) fn git_path(cwd: &Path, rel: &str) -> Result<PathBuf, String> {
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

/// `$XDG_CONFIG_HOME`, else `~/.config`.
pub(crate) fn xdg_config_home() -> Result<PathBuf, String> {
    match std::env::var_os("XDG_CONFIG_HOME").filter(|x| !x.is_empty()) {
        Some(x) => Ok(PathBuf::from(x)),
        None => Ok(home()?.join(".config")),
    }
}

/// The file `git config --global` writes: `$GIT_CONFIG_GLOBAL`, else
/// `~/.gitconfig`, unless only `$XDG_CONFIG_HOME/git/config` exists.
pub(crate) fn global_config_file() -> Result<PathBuf, String> {
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
pub(crate) fn global_attributes_file(cwd: &Path) -> Result<PathBuf, String> {
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
pub(crate) fn find_program(program: &str) -> Option<PathBuf> {
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

/// The value of attribute `attr` for each of `paths` (`unspecified`, `set`,
/// `unset` or the value), as `git check-attr` computes it; with `cached`,
/// from the `.gitattributes` in the index only.
pub(crate) fn check_attr(
    cwd: &Path,
    attr: &str,
    paths: &[&str],
    cached: bool,
) -> Result<Vec<String>, String> {
    let mut args = vec!["check-attr", "-z", "--stdin"];
    if cached {
        args.push("--cached");
    }
    args.push(attr);
    let mut child = Command::new("git")
        .args(&args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git check-attr: {e}"))?;
    let mut input = Vec::new();
    for p in paths {
        input.extend_from_slice(p.as_bytes());
        input.push(0);
    }
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Written from a thread: git answers while reading, so a large input
    // would otherwise fill both pipes.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("git check-attr: {e}"))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(format!(
            "git check-attr failed: {}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let fields: Vec<&str> = text.split('\0').collect();
    let mut by_path = std::collections::HashMap::new();
    for rec in fields.chunks(3) {
        if let [path, _attr, value] = rec {
            by_path.insert(*path, value.to_string());
        }
    }
    Ok(paths
        .iter()
        .map(|p| {
            by_path
                .get(p)
                .cloned()
                .unwrap_or_else(|| "unspecified".into())
        })
        .collect())
}

/// Replaces `path` through a temporary file in the same directory (so a
/// failure never leaves half a file), keeping the permissions it had.
pub(crate) fn write_file_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    tmp.write_all(bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if let Ok(meta) = path.metadata() {
        std::fs::set_permissions(tmp.path(), meta.permissions())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    tmp.persist(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(())
}
