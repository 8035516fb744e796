//! `irgit textconv-server`: the resident process. It loads LLVM once, then
//! forks a child per request, so a crash or a runaway input ends only that
//! child; the child's timer ends it at the request's time limit.
//!
//! ```text
//! irgit textconv-server --socket S ─► lock S.lock (else another server is up: exit 0)
//!   └► bind S, write S.pid, warm up LLVM ─► accept ─► fork ─► child: read request, 'A',
//!                                            ▲          │     view (timer: 'T' and exit), reply, exit
//!                                            └──────────┘
//!   exits when idle for --idle-seconds, on SIGTERM, or when its program file is replaced
//! ```
//!
//! The child computes exactly what `irgit canon --view [--config C] FILE`
//! prints in the client's directory, from the same settings:
//!
//! ```text
//! define i32 @f(i32 %0) { %2 = add i32 %0, 1 ... }  ─►  define i32 @f(i32 %arg0) { %add.5e1c = add i32 %arg0, 1 ... }
//! ```

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

use super::Request;
use crate::canon::{encode_like_input, view::view_bytes, Cleanup, InputCheck};
use crate::config::Config;

/// How long a child waits for the client's request.
const REQUEST_WAIT: Duration = Duration::from_secs(5);
/// How often the server looks at its program file and socket.
const CHECK_EVERY: Duration = Duration::from_secs(1);

/// Arguments of `irgit textconv-server` (started by `irgit-textconv`).
#[derive(clap::Args, Debug)]
pub struct ServerArgs {
    /// The socket to listen on
    #[arg(long, value_name = "PATH")]
    pub socket: PathBuf,
    /// Exit after this many seconds without a request
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub idle_seconds: u64,
}

/// Set by SIGTERM: the server stops accepting and cleans up.
static STOP: AtomicBool = AtomicBool::new(false);
/// The socket of the request a child works on, for its timer.
static CHILD_SOCKET: AtomicI32 = AtomicI32::new(-1);

/// Runs the server until it is idle, stopped or stale.
pub fn run(args: ServerArgs) -> ExitCode {
    close_inherited_files();
    let exe = std::env::current_exe().and_then(|p| p.canonicalize());
    let Some((exe, identity)) = exe
        .ok()
        .and_then(|e| Some((e.clone(), super::identity_of(&e)?)))
    else {
        return ExitCode::from(1);
    };
    let Some(lock) = take_lock(&args.socket) else {
        // Another server of this build holds the socket.
        return ExitCode::SUCCESS;
    };
    let Some(listener) = listen(&args.socket) else {
        return ExitCode::from(1);
    };
    let pid_file = super::pid_file(&args.socket);
    let _ = std::fs::write(&pid_file, format!("{}\n", std::process::id()));
    warm_up();
    let server = Server {
        listener,
        lock,
        socket: args.socket.clone(),
        socket_inode: inode(&args.socket),
        exe,
        identity,
        idle: Duration::from_secs(args.idle_seconds),
    };
    server.serve();
    if inode(&args.socket) == server.socket_inode {
        let _ = std::fs::remove_file(&args.socket);
        let _ = std::fs::remove_file(&pid_file);
    }
    ExitCode::SUCCESS
}

/// git's files that the client's spawn left open (without close-on-exec):
/// a server holding one of git's pipes would make git wait for it.
fn close_inherited_files() {
    // SAFETY: nothing of this process has opened a file yet; closing
    // descriptors 3 and up only drops inherited ones.
    unsafe {
        if libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32) != 0 {
            for fd in 3..1024 {
                libc::close(fd);
            }
        }
    }
}

/// The lock that makes one server per socket: held for the server's life.
fn take_lock(socket: &Path) -> Option<File> {
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(socket.with_extension("lock"))
        .ok()?;
    // SAFETY: flock on a descriptor we own.
    let taken = unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
    taken.then_some(lock)
}

/// Listens on `socket`, replacing a stale socket file (its server is gone:
/// we hold the lock).
fn listen(socket: &Path) -> Option<UnixListener> {
    let _ = std::fs::remove_file(socket);
    let listener = UnixListener::bind(socket).ok()?;
    std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o600)).ok()?;
    listener.set_nonblocking(true).ok()?;
    Some(listener)
}

fn inode(path: &Path) -> Option<u64> {
    std::fs::symlink_metadata(path).ok().map(|m| m.ino())
}

/// Canonicalizes a small module once, so that what LLVM and the allocator
/// set up on first use is done before the first fork, not in every child.
fn warm_up() {
    let module = b"define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n  ret i32 %2\n}\n";
    let _ = view_bytes(
        module,
        "warm-up.ll",
        &Default::default(),
        (Cleanup::Free, InputCheck::First),
    );
}

struct Server {
    listener: UnixListener,
    lock: File,
    socket: PathBuf,
    socket_inode: Option<u64>,
    exe: PathBuf,
    identity: String,
    idle: Duration,
}

impl Server {
    fn serve(&self) {
        install_handler(libc::SIGTERM, on_terminate);
        // Children are reaped by the kernel.
        // SAFETY: setting a signal disposition.
        unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
        let mut last_request = Instant::now();
        let mut last_check = Instant::now();
        while !STOP.load(Ordering::Relaxed) {
            let idle_left = self.idle.saturating_sub(last_request.elapsed());
            if idle_left.is_zero() {
                return;
            }
            if last_check.elapsed() >= CHECK_EVERY {
                if !self.still_current() {
                    return;
                }
                last_check = Instant::now();
            }
            if wait_readable(self.listener.as_raw_fd(), idle_left.min(CHECK_EVERY)) {
                if let Ok((stream, _)) = self.listener.accept() {
                    self.fork_worker(stream);
                    last_request = Instant::now();
                }
            }
        }
    }

    /// Whether this server is still the one clients should reach: its
    /// program file is the one it runs (not replaced by `cargo install`)
    /// and its socket file is its own.
    fn still_current(&self) -> bool {
        super::identity_of(&self.exe).as_deref() == Some(self.identity.as_str())
            && inode(&self.socket) == self.socket_inode
    }

    fn fork_worker(&self, stream: UnixStream) {
        // SAFETY: the server is single-threaded, so the child has a
        // consistent copy of everything; it ends with `_exit`.
        match unsafe { libc::fork() } {
            0 => {
                // SAFETY: closing our own descriptors, resetting signals.
                unsafe {
                    libc::close(self.listener.as_raw_fd());
                    libc::close(self.lock.as_raw_fd());
                    libc::signal(libc::SIGCHLD, libc::SIG_DFL);
                    libc::signal(libc::SIGTERM, libc::SIG_DFL);
                }
                let served = std::panic::catch_unwind(|| work(stream, &self.identity));
                let status = if served.is_ok() { 0 } else { 101 };
                // SAFETY: ends the child without running the server's exit path.
                unsafe { libc::_exit(status) }
            }
            // Failed (-1) or the parent: the child has its own copy of the stream.
            _ => drop(stream),
        }
    }
}

/// Waits up to `timeout` for a connection on `fd`.
fn wait_readable(fd: i32, timeout: Duration) -> bool {
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = timeout.as_millis().clamp(1, i32::MAX as u128) as i32;
    // SAFETY: one pollfd that lives across the call.
    unsafe { libc::poll(&mut poll, 1, ms) > 0 }
}

fn install_handler(signal: i32, handler: extern "C" fn(i32)) {
    // SAFETY: the handlers only touch atomics and call async-signal-safe functions.
    unsafe { libc::signal(signal, handler as libc::sighandler_t) };
}

extern "C" fn on_terminate(_: i32) {
    STOP.store(true, Ordering::Relaxed);
}

/// The child's timer: tells the client the time limit was reached, then ends.
extern "C" fn on_time_limit(_: i32) {
    let fd = CHILD_SOCKET.load(Ordering::Relaxed);
    let byte = [super::TIMED_OUT];
    // SAFETY: write and _exit are async-signal-safe.
    unsafe {
        libc::write(fd, byte.as_ptr().cast(), 1);
        libc::_exit(0);
    }
}

fn set_timer(limit: Duration) {
    let timer = libc::itimerval {
        it_interval: libc::timeval {
            tv_sec: 0,
            tv_usec: 0,
        },
        it_value: libc::timeval {
            tv_sec: limit.as_secs() as libc::time_t,
            tv_usec: limit.subsec_micros() as libc::suseconds_t,
        },
    };
    // SAFETY: a valid itimerval; the old value is not wanted.
    unsafe { libc::setitimer(libc::ITIMER_REAL, &timer, std::ptr::null_mut()) };
}

/// One request, in the child: read it, accept it, answer it.
fn work(stream: UnixStream, identity: &str) {
    let _ = stream.set_read_timeout(Some(REQUEST_WAIT));
    let Ok(request) = Request::read_from(&mut BufReader::new(&stream)) else {
        return;
    };
    let mut out = BufWriter::new(&stream);
    if request.identity != identity {
        let _ = out.write_all(&[super::STALE]);
        return;
    }
    // Settings are found from the client's directory, as `irgit canon` finds them.
    if std::env::set_current_dir(&request.cwd).is_err() {
        return;
    }
    if out.write_all(&[super::ACCEPTED]).and(out.flush()).is_err() {
        return;
    }
    CHILD_SOCKET.store(stream.as_raw_fd(), Ordering::Relaxed);
    install_handler(libc::SIGALRM, on_time_limit);
    let started = Instant::now();
    set_timer(request.limit.max(Duration::from_millis(1)));
    let view = view_of(&request);
    set_timer(Duration::ZERO);
    // The timer's grain is a millisecond; a finer limit is kept here, as
    // the client's own child process would keep it.
    if started.elapsed() >= request.limit {
        let _ = out.write_all(&[super::TIMED_OUT]).and(out.flush());
        return;
    }
    let written = match view {
        Ok(text) => out
            .write_all(&[super::TEXT])
            .and(super::write_field(&mut out, &text)),
        Err(stderr) => out
            .write_all(&[super::ERROR])
            .and(super::write_field(&mut out, stderr.as_bytes())),
    };
    let _ = written.and(out.flush());
}

/// What `irgit canon --view` prints for the request's input, or the line
/// it writes on stderr.
fn view_of(request: &Request) -> Result<Vec<u8>, String> {
    let settings = match &request.config {
        Some(path) => Config::load(path),
        None => Config::discover(&request.cwd),
    };
    let settings = settings.map_err(|e| format!("irgit canon: {e}"))?;
    let name = request.file.display().to_string();
    let cleanup = Cleanup::LeaveToProcessExit;
    let text = view_bytes(
        &request.input,
        &name,
        &settings.canon,
        (cleanup, InputCheck::Beside),
    )
    .map_err(|e| format!("irgit canon: {e}"))?;
    Ok(encode_like_input(text, &request.input))
}
