//! The resident textconv server: one process per user and `irgit` build
//! that keeps LLVM loaded, so that `git log -p`, which runs `irgit-textconv`
//! once per blob, does not load LLVM once per blob.
//!
//! ```text
//! git log -p ─► irgit-textconv a.ll ─► cache miss ─► connect $XDG_RUNTIME_DIR/irgit/textconv-<build>.sock
//!                                                     ├► server: fork ─► child: view of a.ll (time limit) ─► reply
//!                                                     └► none: start `irgit textconv-server`; else `irgit canon` as before
//! ```
//!
//! The text is the one `irgit canon --view` prints, byte for byte:
//!
//! ```text
//! %3 = add i32 %1, %2   ─► (server child or `irgit canon`) ─►   %add.5e1c = add i32 %ld.90af, %ld.1c2d
//! ```
//!
//! `client` is what `irgit-textconv` runs: it never touches LLVM, and any
//! problem with the server (none, stale, killed, a reply cut short) makes it
//! do the work as before, in an `irgit canon` process of its own. `server`
//! is `irgit textconv-server`. This module holds what both sides share:
//! where the socket is, which build it belongs to, and the messages.
//!
//! One exchange on the socket (a field is a little-endian u64 length, then
//! its bytes):
//!
//! ```text
//! client: MAGIC, identity, cwd, config path ("" for none), file name, limit in ms, input
//! server: 'A' (accepted) then 'O' text | 'E' message | 'T' (time limit reached)
//!         'S' (stale: another build) | nothing (the client then works alone)
//! ```

pub(crate) mod client;
pub mod server;

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The first bytes of every request (the protocol's version).
const MAGIC: &[u8] = b"irgit-textconv-server 1\n";
/// The server took the request (its child will answer).
pub const ACCEPTED: u8 = b'A';
/// The server is another build than the client's.
pub const STALE: u8 = b'S';
/// A reply: the canonical text follows.
pub const TEXT: u8 = b'O';
/// A reply: why the input cannot be canonicalized follows.
pub const ERROR: u8 = b'E';
/// A reply: the time limit was reached.
pub const TIMED_OUT: u8 = b'T';

/// The largest field read (the input and the text: IR files of a few GB
/// are not shown by git anyway).
const MAX_FIELD: u64 = 1 << 32;

/// The environment variable naming the socket directory (tests give each
/// run its own).
pub const DIR_VARIABLE: &str = "IRGIT_SERVER_DIR";

/// One canonicalization asked of the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The identity of the `irgit` build the client would run.
    pub identity: String,
    /// The client's current directory (where settings are found).
    pub cwd: PathBuf,
    /// `--config FILE`, as given.
    pub config: Option<PathBuf>,
    /// The file git handed over, as named in messages.
    pub file: PathBuf,
    pub limit: Duration,
    pub input: Vec<u8>,
}

impl Request {
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(MAGIC)?;
        write_field(out, self.identity.as_bytes())?;
        write_field(out, self.cwd.as_os_str().as_bytes())?;
        let config = self.config.as_deref().unwrap_or(Path::new(""));
        write_field(out, config.as_os_str().as_bytes())?;
        write_field(out, self.file.as_os_str().as_bytes())?;
        write_field(out, self.limit.as_millis().to_string().as_bytes())?;
        write_field(out, &self.input)?;
        out.flush()
    }

    pub fn read_from(input: &mut impl Read) -> io::Result<Request> {
        let mut magic = [0u8; MAGIC.len()];
        input.read_exact(&mut magic)?;
        if magic != MAGIC {
            return Err(invalid("not an irgit-textconv request"));
        }
        let identity = String::from_utf8(read_field(input)?).map_err(|_| invalid("identity"))?;
        let path = |bytes: Vec<u8>| PathBuf::from(OsString::from_vec(bytes));
        let cwd = path(read_field(input)?);
        let config = Some(path(read_field(input)?)).filter(|p| !p.as_os_str().is_empty());
        let file = path(read_field(input)?);
        let limit_ms = String::from_utf8(read_field(input)?)
            .ok()
            .and_then(|ms| ms.parse::<u64>().ok())
            .ok_or_else(|| invalid("time limit"))?;
        Ok(Request {
            identity,
            cwd,
            config,
            file,
            limit: Duration::from_millis(limit_ms),
            input: read_field(input)?,
        })
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

pub fn write_field(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    out.write_all(&(bytes.len() as u64).to_le_bytes())?;
    out.write_all(bytes)
}

pub fn read_field(input: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut len = [0u8; 8];
    input.read_exact(&mut len)?;
    let len = u64::from_le_bytes(len);
    if len > MAX_FIELD {
        return Err(invalid("field too long"));
    }
    let mut bytes = Vec::new();
    input.take(len).read_to_end(&mut bytes)?;
    if bytes.len() as u64 != len {
        return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
    }
    Ok(bytes)
}

/// What names one build of `irgit`: the version, where the program is,
/// and its file (inode, size, modification time: `cargo install` writes a
/// new file, so the server of the build before is another one).
pub fn identity_of(irgit: &Path) -> Option<String> {
    let path = irgit.canonicalize().ok()?;
    let meta = std::fs::metadata(&path).ok()?;
    Some(format!(
        "{} {} {} {} {}.{:09}",
        env!("CARGO_PKG_VERSION"),
        path.display(),
        meta.ino(),
        meta.len(),
        meta.mtime(),
        meta.mtime_nsec()
    ))
}

/// The socket of the server of build `identity` in `dir`.
pub fn socket_path(dir: &Path, identity: &str) -> PathBuf {
    let build = crate::hash::hash_str(identity);
    dir.join(format!("textconv-{build:016x}.sock"))
}

/// The file holding the process id of the server listening on `socket`.
pub fn pid_file(socket: &Path) -> PathBuf {
    socket.with_extension("pid")
}

/// The user's socket directory, created private (mode 0700): `$IRGIT_SERVER_DIR`,
/// else `$XDG_RUNTIME_DIR/irgit`, else `/tmp/irgit-UID`. `None` when it is
/// not a directory of this user's that only they can enter.
pub fn socket_dir() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    let dir = match (set(DIR_VARIABLE), set("XDG_RUNTIME_DIR")) {
        (Some(dir), _) => PathBuf::from(dir),
        (None, Some(runtime)) if Path::new(&runtime).is_dir() => Path::new(&runtime).join("irgit"),
        _ => PathBuf::from(format!("/tmp/irgit-{uid}")),
    };
    let _ = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir);
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    let private = meta.is_dir() && meta.uid() == uid && meta.mode() & 0o077 == 0;
    private.then_some(dir)
}

/// The message of a canonicalization that failed: the first line of what
/// `irgit canon` wrote on stderr, without the program's prefix (the same
/// words whether the server or an `irgit canon` process ran it).
pub fn first_line(stderr: &str) -> String {
    stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("canonicalization failed")
        .trim_start_matches("irgit: ")
        .trim_start_matches("irgit canon: ")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reads_back_as_written() {
        let request = Request {
            identity: "0.1.0 /bin/irgit 1 2 3.000000004".into(),
            cwd: PathBuf::from("/work/repo"),
            config: None,
            file: PathBuf::from("/tmp/git-blob-Xy12/a.ll"),
            limit: Duration::from_millis(2500),
            input: b"define void @f() {\n  ret void\n}\n".to_vec(),
        };
        let mut wire = Vec::new();
        request.write_to(&mut wire).unwrap();
        assert_eq!(Request::read_from(&mut &wire[..]).unwrap(), request);
        let with_config = Request {
            config: Some(PathBuf::from("cfg/.irgit.yaml")),
            ..request
        };
        wire.clear();
        with_config.write_to(&mut wire).unwrap();
        assert_eq!(Request::read_from(&mut &wire[..]).unwrap(), with_config);
        // Cut short anywhere: an error, never a request.
        for cut in [0, 10, MAGIC.len() + 3, wire.len() - 1] {
            assert!(
                Request::read_from(&mut &wire[..cut]).is_err(),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn another_build_has_another_socket() {
        let dir = Path::new("/run/user/1000/irgit");
        let one = socket_path(dir, "0.1.0 /a/irgit 5 10 1.0");
        assert_ne!(one, socket_path(dir, "0.1.0 /a/irgit 6 10 2.0"));
        assert_eq!(one, socket_path(dir, "0.1.0 /a/irgit 5 10 1.0"));
        assert_eq!(pid_file(&one).extension().unwrap(), "pid");
    }
}
