//! What `irgit-textconv` does with the resident server: find it (or start
//! it) and ask it for one view. No LLVM here: this runs in the lean program.
//!
//! ```text
//! connect ──ok──► request ─► 'A' ─► 'O' text          ─► Answer::Text (the text `irgit canon --view` prints)
//!    │                        │      'E' message       ─► Answer::Refused ("a.ll:3: expected type")
//!    │                        │      'T'               ─► Answer::TimedOut
//!    │                        │      cut short          ─► Answer::Unavailable (a crash, a killed server)
//!    │                        └ 'S', nothing, error     ─► Answer::Unavailable
//!    └─refused/absent─► start `irgit textconv-server`, connect again (≤ 2 s)
//! ```
//!
//! `Unavailable` means: canonicalize as if there were no server. The caller
//! does, so the server can make textconv faster but never make it fail.

use std::io::{BufReader, BufWriter, Read};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::Request;

/// How long the server may take to start listening.
const START_WAIT: Duration = Duration::from_secs(2);
/// How long the server may take to accept a request.
const HANDSHAKE: Duration = Duration::from_secs(3);
/// How long past the time limit the client waits for the server's child,
/// whose own timer ends it at the limit.
const GRACE: Duration = Duration::from_secs(2);

/// What the server made of one request.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The view, byte for byte what `irgit canon --view` prints.
    Text(Vec<u8>),
    /// Why the input cannot be canonicalized (as `irgit canon` says it).
    Refused(String),
    /// The time limit was reached.
    TimedOut,
    /// No answer: do the work without the server.
    Unavailable,
}

/// One canonicalization to ask for.
pub(crate) struct Job<'a> {
    /// The `irgit` that would otherwise run as `irgit canon` (and is the server).
    pub irgit: &'a Path,
    pub file: &'a Path,
    pub input: &'a [u8],
    pub config: Option<&'a Path>,
    pub limit: Duration,
    /// The server's idle time before it exits (seconds).
    pub idle_seconds: u64,
}

/// Asks the server of `job.irgit`'s build for the view, starting the
/// server when none listens.
pub(crate) fn canonicalize(job: &Job) -> Answer {
    let (Some(dir), Some(identity)) = (super::socket_dir(), super::identity_of(job.irgit)) else {
        return Answer::Unavailable;
    };
    let Ok(cwd) = std::env::current_dir() else {
        return Answer::Unavailable;
    };
    let socket = super::socket_path(&dir, &identity);
    let Some(stream) = connect_or_start(&socket, job) else {
        return Answer::Unavailable;
    };
    let request = Request {
        identity,
        cwd,
        config: job.config.map(Path::to_path_buf),
        file: job.file.to_path_buf(),
        limit: job.limit,
        input: job.input.to_vec(),
    };
    ask(stream, &request).unwrap_or(Answer::Unavailable)
}

/// A connection to the server on `socket`; when none listens, starts one
/// and waits for it (or for another client's) to listen.
fn connect_or_start(socket: &Path, job: &Job) -> Option<UnixStream> {
    if let Ok(stream) = UnixStream::connect(socket) {
        return Some(stream);
    }
    let mut server = start_server(socket, job)?;
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    let mut server_running = true;
    while start.elapsed() < START_WAIT {
        std::thread::sleep(pause);
        if let Ok(stream) = UnixStream::connect(socket) {
            return Some(stream);
        }
        if server_running {
            match server.try_wait() {
                // It found another server starting (exit 0): wait for that one.
                Ok(Some(status)) if status.success() => server_running = false,
                Ok(Some(_)) | Err(_) => return None,
                Ok(None) => {}
            }
        }
        pause = (pause * 2).min(Duration::from_millis(20));
    }
    None
}

/// Starts `irgit textconv-server` in a session of its own, with none of
/// git's pipes (git waits for the end of textconv's output).
fn start_server(socket: &Path, job: &Job) -> Option<Child> {
    let mut command = Command::new(job.irgit);
    command
        .arg("textconv-server")
        .arg("--socket")
        .arg(socket)
        .arg("--idle-seconds")
        .arg(job.idle_seconds.to_string())
        .current_dir("/")
        // Nothing of the git command that happened to start it (GIT_DIR, ...).
        .env_clear()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setsid is async-signal-safe and touches no memory of ours.
    unsafe {
        command.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    command.spawn().ok()
}

/// Sends the request and reads the reply; `None` for anything that is not
/// a whole reply.
fn ask(stream: UnixStream, request: &Request) -> Option<Answer> {
    stream.set_write_timeout(Some(HANDSHAKE)).ok()?;
    stream.set_read_timeout(Some(HANDSHAKE)).ok()?;
    request.write_to(&mut BufWriter::new(&stream)).ok()?;
    let mut reader = BufReader::new(&stream);
    if read_byte(&mut reader)? != super::ACCEPTED {
        return None;
    }
    stream.set_read_timeout(Some(request.limit + GRACE)).ok()?;
    let answer = match read_byte(&mut reader)? {
        super::TEXT => Answer::Text(super::read_field(&mut reader).ok()?),
        super::ERROR => {
            let stderr = super::read_field(&mut reader).ok()?;
            Answer::Refused(super::first_line(&String::from_utf8_lossy(&stderr)))
        }
        super::TIMED_OUT => Answer::TimedOut,
        _ => return None,
    };
    Some(answer)
}

fn read_byte(reader: &mut impl Read) -> Option<u8> {
    let mut byte = [0u8];
    reader.read_exact(&mut byte).ok()?;
    Some(byte[0])
}
