//! `irgit textconv FILE`: what git's diff driver runs on each side of a diff.
//!
//! ```text
//! %3 = add i32 %1, %2   ─►   %add.5e1c = add i32 %ld.90af, %ld.1c2d
//! <garbage>             ─►   <garbage>          (stderr: "irgit textconv: FILE: not valid LLVM IR: ...")
//! ```
//!
//! It must never fail: git cannot show any diff at all when textconv exits
//! non-zero. The canonicalization runs in a child process (`irgit canon`)
//! under a time limit (`textconv.timeout_seconds`), so neither an abort
//! inside LLVM nor an input that takes too long can break or stall `git
//! diff`: the input is then printed unchanged, with one line on stderr.
//!
//! For `irgit-textconv` (what git runs) the child is a fork of the
//! resident server (`resident`) when one runs or can be started, so LLVM is not loaded again for every blob of `git
//! log -p`; otherwise an `irgit canon` process of its own. Both print the
//! same bytes.
//!
//! Canonical texts are kept in irgit's own cache (`textconv_cache`), keyed
//! by the input's BLAKE3 hash and the form's id; fallbacks are never kept.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::resident::client::{self, Answer};
use super::resident::first_line;
use super::textconv_cache::Entry;
use crate::config::{Config, TextconvOptions};

/// Where the view is computed when it is not cached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Worker {
    /// The resident server when it answers (`irgit-textconv`, what git runs).
    Resident,
    /// An `irgit canon` process of its own (`irgit textconv`, run by hand).
    OwnProcess,
}

/// Runs textconv on `file`, writing to stdout. Never panics on bad input and
/// always returns normally; problems go to stderr as one line.
pub fn run(file: &Path, config: Option<&Path>, worker: Worker) {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("irgit textconv: {}: {e}", file.display());
            return;
        }
    };
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        // LLVM would read this as an empty module and print a header; an
        // empty side of a diff must stay empty.
        let _ = std::io::stdout().write_all(&bytes);
        return;
    }
    let shown = load_settings(config).and_then(|settings| {
        let entry = Entry::find(&bytes, &settings.canon);
        if let Some(text) = entry.as_ref().and_then(Entry::get) {
            return Ok(text);
        }
        let text = canonicalize(file, &bytes, config, &settings.textconv, worker)?;
        if let Some(e) = entry {
            e.put(&text);
        }
        Ok(text)
    });
    match shown {
        Ok(text) => {
            let _ = std::io::stdout().write_all(&text);
        }
        Err(why) => {
            // `why` names the file (by git's temporary path) or the settings file.
            let name = shown_name(file);
            if first_fallback_of(&name) {
                let why = why.replace(&*file.to_string_lossy(), &name);
                eprintln!("irgit textconv: {why}; showing {name} as written");
            }
            let _ = std::io::stdout().write_all(&bytes);
        }
    }
}

/// The name of the file git is showing: git hands textconv a temporary copy
/// (`/tmp/git-blob-Xy12/a.ll`) that keeps only the file's name.
fn shown_name(file: &Path) -> String {
    let temporary = file
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|d| d.to_string_lossy().starts_with("git-blob-"));
    match file.file_name() {
        Some(name) if temporary => name.to_string_lossy().into_owned(),
        _ => file.display().to_string(),
    }
}

/// Whether to say why file `name` is shown as written: once per file name
/// and git command (`git log -p` shows every version of a file, each in a
/// textconv of its own), always when the git command is unknown. A mark in
/// `.git/irgit/said/<git pid>/` remembers it; marks of finished commands go.
fn first_fallback_of(name: &str) -> bool {
    let Some(git) = super::process::calling_git() else {
        return true;
    };
    let Some(said) = super::textconv_cache::cache_dir()
        .and_then(|cache| cache.parent().map(|irgit| irgit.join("said")))
    else {
        return true;
    };
    forget_finished_commands(&said);
    let dir = said.join(git.pid.to_string());
    let _ = std::fs::create_dir_all(&dir);
    let mark = dir.join(name.replace('/', "%"));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(mark)
    {
        Ok(_) => true,
        Err(e) => e.kind() != std::io::ErrorKind::AlreadyExists,
    }
}

/// Removes the marks of git commands that have ended.
fn forget_finished_commands(said: &Path) {
    let Ok(entries) = std::fs::read_dir(said) else {
        return;
    };
    for entry in entries.flatten() {
        let pid = entry.file_name().to_string_lossy().parse::<u32>().ok();
        if pid.is_some_and(|pid| !super::process::is_running(pid)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The settings the child will use: the explicit file, else `.irgit.yaml`
/// found from the current directory (git runs textconv at the top of the
/// work tree).
pub(crate) fn load_settings(config: Option<&Path>) -> Result<Config, String> {
    let found = match config {
        Some(p) => Config::load(p),
        None => match std::env::current_dir() {
            Ok(cwd) => Config::discover(&cwd),
            Err(e) => return Err(format!("current directory: {e}")),
        },
    };
    found.map_err(|e| e.to_string())
}

/// The `irgit` program that canonicalizes: this executable, or the `irgit`
/// installed beside it when this is the lean `irgit-textconv`.
fn canon_program() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find own executable: {e}"))?;
    if exe.file_name().is_some_and(|n| n == "irgit") {
        return Ok(exe);
    }
    let sibling = exe.with_file_name("irgit");
    if sibling.is_file() {
        return Ok(sibling);
    }
    super::cmd::find_program("irgit").ok_or_else(|| "cannot find `irgit` on PATH".to_string())
}

/// The view of `input` (the bytes of `file`): from the resident server
/// when it answers, else from an `irgit canon` process of its own.
fn canonicalize(
    file: &Path,
    input: &[u8],
    config: Option<&Path>,
    settings: &TextconvOptions,
    worker: Worker,
) -> Result<Vec<u8>, String> {
    let limit = settings.time_limit()?;
    let irgit = canon_program()?;
    if worker == Worker::Resident && settings.server_idle_seconds > 0 {
        let job = client::Job {
            irgit: &irgit,
            file,
            input,
            config,
            limit,
            idle_seconds: settings.server_idle_seconds,
        };
        match client::canonicalize(&job) {
            Answer::Text(text) => return Ok(text),
            Answer::Refused(why) => return Err(why),
            Answer::TimedOut => return Err(time_limit_reached(file, limit)),
            Answer::Unavailable => {}
        }
    }
    canonicalize_in_child(&irgit, file, config, limit)
}

fn time_limit_reached(file: &Path, limit: Duration) -> String {
    format!(
        "{}: canonicalization took longer than {} s (textconv.timeout_seconds in .irgit.yaml)",
        file.display(),
        limit.as_secs_f64()
    )
}

fn canonicalize_in_child(
    irgit: &Path,
    file: &Path,
    config: Option<&Path>,
    limit: Duration,
) -> Result<Vec<u8>, String> {
    let mut cmd = Command::new(irgit);
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    cmd.arg("canon")
        .arg("--view")
        .arg("--")
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd
        .spawn()
        .map_err(|e| format!("cannot run irgit canon: {e}"))?;
    let Some(out) = wait_with_limit(child, limit)? else {
        return Err(time_limit_reached(file, limit));
    };
    if out.status.success() {
        return Ok(out.stdout);
    }
    let first = first_line(&String::from_utf8_lossy(&out.stderr));
    Err(match out.status.code() {
        Some(_) => first,
        None => format!(
            "{}: canonicalization crashed ({})",
            file.display(),
            out.status
        ),
    })
}

/// The child's output, or `None` when it ran past `limit` (it is killed).
/// Both pipes are drained by threads while it runs, so a large output
/// cannot block it.
fn wait_with_limit(
    mut child: Child,
    limit: Duration,
) -> Result<Option<std::process::Output>, String> {
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Ok(None);
            }
            Ok(None) => {
                std::thread::sleep(pause.min(limit.saturating_sub(start.elapsed())));
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(e) => return Err(format!("waiting for irgit canon: {e}")),
        }
    };
    Ok(Some(std::process::Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }))
}
