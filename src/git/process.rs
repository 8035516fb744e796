//! The git process that runs irgit (a driver, textconv, a hook): the first
//! `git` among this process's parents, read from Linux's `/proc` (git runs
//! its helpers through `sh -c`, which may or may not stay in between).
//!
//! ```text
//! git log -p (pid 4242, argv [git, log, -p])
//!   └─ sh -c 'irgit-textconv "$@"' ...
//!        └─ irgit-textconv /tmp/git-blob-Xy12/a.ll   ─►  calling_git() = 4242, [git, log, -p]
//! ```
//!
//! Elsewhere (no `/proc`) there is none, and callers fall back to what the
//! configuration says.

/// The git command that runs this process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CallingGit {
    pub pid: u32,
    pub argv: Vec<String>,
}

/// The nearest `git` process above this one, within a few generations.
pub(crate) fn calling_git() -> Option<CallingGit> {
    let mut pid = parent_of("self")?;
    for _ in 0..4 {
        let argv = command_line(pid)?;
        let program = argv.first().map(|p| p.rsplit('/').next().unwrap_or(p))?;
        if program == "git" {
            return Some(CallingGit { pid, argv });
        }
        pid = parent_of(&pid.to_string())?;
        if pid <= 1 {
            return None;
        }
    }
    None
}

/// Whether process `pid` is still running.
pub(crate) fn is_running(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
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
