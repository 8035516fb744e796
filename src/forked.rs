//! Work run in a forked copy of this process, beside the caller's own work.
//!
//! LLVM's module may not be read by one thread while another changes it,
//! but a forked copy *is* the module as it was at the fork, whatever the
//! caller does to its own afterwards. The view uses this to put LLVM's
//! verifications on the second core: the canonical module's while the
//! caller prints it, and in the textconv server's child also the input's
//! while the caller canonicalizes it.
//!
//! ```text
//! parse ─► fork ─► copy: verify input ─► verdict ───────────────────────────────┐
//!            └──► canonicalize ─► fork ─► copy: verify output ─► verdict ─┐     │
//!                                   └──► print ─► text passes ─► wait for both ─► text
//! ```
//!
//! A copy only ever reports through its pipe and exit status, and dies with
//! its parent (`PR_SET_PDEATHSIG`), so a caller that times out or is killed
//! leaves nothing running. Forking is safe only in a process with one
//! thread (a fork copies just the calling thread, and locks another thread
//! held would stay held in the copy), and pays only with a second core:
//! elsewhere, and off Linux, [`spawn`] declines and the caller does the
//! work itself.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::FromRawFd;

/// The environment variable that turns forking off (`IRGIT_SINGLE_PROCESS=1`):
/// every stage then runs in the calling process, one after the other.
pub(crate) const SINGLE_PROCESS_VAR: &str = "IRGIT_SINGLE_PROCESS";

/// Exit statuses of a copy, besides 0 (its bytes are the work's result).
const REFUSED: i32 = 3;
const PANICKED: i32 = 4;
const UNWRITTEN: i32 = 5;
const ORPHANED: i32 = 6;

/// Why a copy gave no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The work returned this error message.
    Refused(String),
    /// The copy died or panicked: how, in words.
    Crashed(String),
}

/// A running copy of the process; [`Forked::finish`] collects its result,
/// dropping it kills it.
#[derive(Debug)]
pub(crate) struct Forked {
    pid: libc::pid_t,
    output: Option<File>,
}

/// Runs `work` in a forked copy of the process and returns at once, or
/// returns `None` (without running `work`) where forking is not safe or not
/// possible. The copy sends back the bytes `work` returns, or its error.
pub(crate) fn spawn<W>(work: W) -> Option<Forked>
where
    W: FnOnce() -> Result<Vec<u8>, String>,
{
    if !may_fork() {
        return None;
    }
    let (read_end, write_end) = pipe()?;
    // SAFETY: getpid has no preconditions.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the process has one thread (checked above), so the copy has a
    // consistent copy of everything; it ends with `_exit` in `run_copy`.
    match unsafe { libc::fork() } {
        -1 => None,
        0 => {
            drop(read_end);
            run_copy(parent, write_end, work)
        }
        pid => Some(Forked {
            pid,
            output: Some(read_end),
        }),
    }
}

impl Forked {
    /// Waits for the copy and returns what its work returned.
    pub(crate) fn finish(mut self) -> Result<Vec<u8>, Failure> {
        let mut bytes = Vec::new();
        let read = match self.output.take() {
            Some(mut pipe) => pipe.read_to_end(&mut bytes).is_ok(),
            None => false,
        };
        let status = self.reap();
        match status {
            Some(s) if libc::WIFEXITED(s) => match libc::WEXITSTATUS(s) {
                0 if read => Ok(bytes),
                REFUSED => Err(Failure::Refused(String::from_utf8_lossy(&bytes).into())),
                code => Err(Failure::Crashed(exit_in_words(code))),
            },
            Some(s) if libc::WIFSIGNALED(s) => Err(Failure::Crashed(format!(
                "killed by signal {}",
                libc::WTERMSIG(s)
            ))),
            _ => Err(Failure::Crashed("its exit status was lost".to_string())),
        }
    }

    /// Waits for the copy to end; its raw wait status, if it could be had.
    fn reap(&mut self) -> Option<i32> {
        let pid = std::mem::replace(&mut self.pid, 0);
        if pid <= 0 {
            return None;
        }
        let mut status = 0;
        loop {
            // SAFETY: waits for our own child; `status` outlives the call.
            let got = unsafe { libc::waitpid(pid, &mut status, 0) };
            if got == pid {
                return Some(status);
            }
            if got == -1
                && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
            {
                continue;
            }
            return None;
        }
    }
}

impl Drop for Forked {
    fn drop(&mut self) {
        if self.pid > 0 {
            // SAFETY: signals our own child, which has not been reaped yet.
            unsafe { libc::kill(self.pid, libc::SIGKILL) };
            self.output = None;
            self.reap();
        }
    }
}

/// The copy's side: runs `work`, writes its result, and exits.
fn run_copy<W>(parent: libc::pid_t, mut out: File, work: W) -> !
where
    W: FnOnce() -> Result<Vec<u8>, String>,
{
    // SAFETY: prctl and getppid have no memory preconditions; if the parent
    // died before prctl took effect, the copy ends at once.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() != parent {
            libc::_exit(ORPHANED);
        }
    }
    let (bytes, status) = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(Ok(bytes)) => (bytes, 0),
        Ok(Err(message)) => (message.into_bytes(), REFUSED),
        Err(_) => (Vec::new(), PANICKED),
    };
    let status = match out.write_all(&bytes) {
        Ok(()) => status,
        Err(_) => UNWRITTEN,
    };
    // SAFETY: ends the copy without running the parent's exit path (its
    // destructors and buffered output belong to the parent).
    unsafe { libc::_exit(status) }
}

fn exit_in_words(code: i32) -> String {
    match code {
        PANICKED => "it panicked".to_string(),
        UNWRITTEN => "it could not write its result".to_string(),
        ORPHANED => "its parent ended first".to_string(),
        code => format!("it exited with status {code}"),
    }
}

/// Whether this process may fork a copy: on Linux, with one thread and
/// more than one core to run on (with one, a copy only adds the cost of
/// copying the pages it writes), unless `IRGIT_SINGLE_PROCESS=1` says
/// otherwise.
fn may_fork() -> bool {
    if std::env::var_os(SINGLE_PROCESS_VAR).is_some_and(|v| v == "1") {
        return false;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cfg!(target_os = "linux") && cores > 1 && thread_count() == Some(1)
}

/// The number of threads of this process, from `/proc/self/status`.
fn thread_count() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Threads:"))?;
    line["Threads:".len()..].trim().parse().ok()
}

/// A pipe whose ends are closed on exec: (read end, write end).
fn pipe() -> Option<(File, File)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return None;
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    Some(unsafe { (File::from_raw_fd(fds[0]), File::from_raw_fd(fds[1])) })
}
