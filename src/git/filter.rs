//! `irgit filter-process`: git's clean filter for LLVM IR, over git's
//! long-running filter protocol (`filter.llvm-ir.process`, as git-lfs uses):
//! one process serves every file of a git command.
//!
//! ```text
//! work tree (clang's output, again)      clean ─► what git compares and stores
//! %3 = add i32 %1, %2                    ─►       %add.5e1c = add i32 %ld.90af, %ld.1c2d
//! ```
//!
//! A file is cleaned to exactly what the pre-commit hook would store
//! (`hook::stored_form`): its canonical form, or its bytes unchanged when the
//! hook would keep them (lit tests, another syntax, invalid IR, check mode).
//! So regenerating identical IR leaves `git status` clean and `git commit -a`
//! with nothing to commit. In `hook.mode: previous-names` the hook's answer
//! depends on `HEAD`'s version of the file, which the filter reads from the
//! repository (`crate::git::previous_names`). git runs the filter before its CRLF conversion,
//! so a CRLF file is cleaned to a CRLF form, which git then converts as
//! `core.autocrlf` says.
//!
//! The protocol (gitprotocol-long-running-process): pkt-lines of 4 hex
//! digits of length then data, `0000` ends a list. A handshake, then per
//! file: `command=clean`, `pathname=P`, a flush, the content, a flush; the
//! answer is `status=success`, a flush, the cleaned content, a flush, and an
//! empty list (the status stays).

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use super::hook::{stored_form, Report};
use super::previous_names;
use crate::config::{Config, HookMode};

/// The largest data a pkt-line carries.
const MAX_DATA: usize = 65516;

/// Runs the filter process on stdin/stdout until git closes the pipe.
pub fn run(config: Option<&Path>) -> ExitCode {
    let settings = match config {
        Some(p) => Config::load(p),
        None => std::env::current_dir()
            .map_err(|e| crate::config::ConfigError::Read {
                path: ".".into(),
                source: e,
            })
            .and_then(|cwd| Config::discover(&cwd)),
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    let mut input = BufReader::new(stdin);
    let mut output = BufWriter::new(stdout);
    let served = handshake(&mut input, &mut output)
        .and_then(|()| serve(&mut input, &mut output, settings.as_ref().ok()));
    match (served, settings) {
        (Ok(()), Ok(_)) => ExitCode::SUCCESS,
        (Ok(()), Err(e)) => {
            eprintln!("irgit filter-process: {e}; files were stored as written");
            ExitCode::SUCCESS
        }
        (Err(e), _) => {
            eprintln!("irgit filter-process: {e}");
            ExitCode::from(1)
        }
    }
}

/// One pkt-line: `Some(data)`, or `None` for a flush packet.
fn read_pkt(r: &mut impl Read) -> std::io::Result<Option<Vec<u8>>> {
    let mut head = [0u8; 4];
    r.read_exact(&mut head)?;
    let len = std::str::from_utf8(&head)
        .ok()
        .and_then(|h| usize::from_str_radix(h, 16).ok())
        .ok_or_else(|| protocol_error("bad pkt-line length"))?;
    if len == 0 {
        return Ok(None);
    }
    if len < 4 {
        return Err(protocol_error("pkt-line shorter than its header"));
    }
    let mut data = vec![0u8; len - 4];
    r.read_exact(&mut data)?;
    Ok(Some(data))
}

fn protocol_error(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string())
}

fn write_pkt(w: &mut impl Write, data: &[u8]) -> std::io::Result<()> {
    write!(w, "{:04x}", data.len() + 4)?;
    w.write_all(data)
}

fn write_flush(w: &mut impl Write) -> std::io::Result<()> {
    w.write_all(b"0000")
}

/// The text lines of one list, up to its flush; `None` at end of input.
fn read_list(r: &mut impl Read) -> std::io::Result<Option<Vec<String>>> {
    let mut lines = Vec::new();
    loop {
        match read_pkt(r) {
            Ok(Some(data)) => {
                let line = String::from_utf8_lossy(&data);
                lines.push(line.trim_end_matches('\n').to_string());
            }
            Ok(None) => return Ok(Some(lines)),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && lines.is_empty() => {
                return Ok(None)
            }
            Err(e) => return Err(e),
        }
    }
}

fn handshake(r: &mut impl Read, w: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let hello = read_list(r).map_err(io)?.unwrap_or_default();
    if hello.first().map(String::as_str) != Some("git-filter-client")
        || !hello.iter().any(|l| l == "version=2")
    {
        return Err(format!("unexpected greeting from git: {hello:?}"));
    }
    write_pkt(w, b"git-filter-server\n").map_err(io)?;
    write_pkt(w, b"version=2\n").map_err(io)?;
    write_flush(w).map_err(io)?;
    w.flush().map_err(io)?;
    let caps = read_list(r).map_err(io)?.unwrap_or_default();
    if !caps.iter().any(|c| c == "capability=clean") {
        return Err("git does not offer the clean capability".into());
    }
    write_pkt(w, b"capability=clean\n").map_err(io)?;
    write_flush(w).map_err(io)?;
    w.flush().map_err(io)
}

fn serve(r: &mut impl Read, w: &mut impl Write, settings: Option<&Config>) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let mut state = CleanState::default();
    while let Some(request) = read_list(r).map_err(io)? {
        let field = |key: &str| {
            request
                .iter()
                .find_map(|l| l.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
                .map(str::to_string)
        };
        let mut content = Vec::new();
        while let Some(data) = read_pkt(r).map_err(io)? {
            content.extend_from_slice(&data);
        }
        if field("command").as_deref() != Some("clean") {
            write_pkt(w, b"status=error\n").map_err(io)?;
            write_flush(w).map_err(io)?;
            w.flush().map_err(io)?;
            continue;
        }
        let path = field("pathname").unwrap_or_default();
        let cleaned = match settings {
            Some(s) => cleaned(&path, content, s, &mut state),
            None => content,
        };
        write_pkt(w, b"status=success\n").map_err(io)?;
        write_flush(w).map_err(io)?;
        for chunk in cleaned.chunks(MAX_DATA) {
            write_pkt(w, chunk).map_err(io)?;
        }
        write_flush(w).map_err(io)?;
        write_flush(w).map_err(io)?;
        w.flush().map_err(io)?;
    }
    Ok(())
}

/// What one filter process keeps between files: the lines it has said,
/// and the repository it runs in, opened at the first file that needs
/// `HEAD`'s version (`hook.mode: previous-names`), not once per file.
#[derive(Default)]
struct CleanState {
    said: std::collections::HashSet<String>,
    repo: Option<Option<git2::Repository>>,
}

/// What the hook would store for `content` at `path`. In `hook.mode:
/// previous-names` that depends on `HEAD`'s version of the file (read from
/// the repository git runs the filter in; `HEAD` read again for each file),
/// and what the hook would say about a file stored as written is said here
/// too, one line each, once per git command (git may clean a file twice in
/// one).
fn cleaned(path: &str, content: Vec<u8>, settings: &Config, state: &mut CleanState) -> Vec<u8> {
    let mut report = Report::default();
    if settings.hook.mode != HookMode::PreviousNames {
        return stored_form(path, &content, settings, None, &mut report).unwrap_or(content);
    }
    let repo = state
        .repo
        .get_or_insert_with(|| git2::Repository::open_from_env().ok());
    let head = repo
        .as_ref()
        .and_then(|repo| previous_names::head_blob(repo, path));
    let stored = stored_form(path, &content, settings, head.as_deref(), &mut report);
    for line in report.notes.into_iter().chain(report.warnings) {
        if state.said.insert(line.clone()) {
            eprintln!("irgit filter-process: {line}");
        }
    }
    stored.unwrap_or(content)
}
