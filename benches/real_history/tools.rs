//! The programs the bench runs on each version, each a child process: the
//! release `irgit` of this worktree (`textconv`, `diff --matched`, `canon`)
//! and LLVM 22 (`llvm-as`, `opt -S`, `llvm-diff`). Facts about one blob are
//! computed once and kept ([`Memo`]): a file's middle versions are the new
//! side of one change and the old side of the next.
//!
//! ```text
//! blob 8150dc2… ──► accepted by llvm-as?   yes
//!               ──► irgit textconv         the view (what `git diff` shows)
//!               ──► opt -S < blob          LLVM's print (only to judge "hidden")
//! ```

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

const LLVM_BIN: &str = "/usr/lib/llvm-22/bin";

/// The release binary of this worktree (`cargo bench` builds it).
pub fn irgit() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_irgit"));
    // Outside any repository: no `.irgit.yaml`, no textconv cache.
    cmd.current_dir(std::env::temp_dir());
    cmd
}

fn llvm(tool: &str) -> Command {
    Command::new(Path::new(LLVM_BIN).join(tool))
}

/// A value per key, computed once (two threads may both compute one; the
/// results are equal).
pub struct Memo<V>(Mutex<HashMap<String, V>>);

impl<V: Clone> Memo<V> {
    pub fn new() -> Self {
        Memo(Mutex::new(HashMap::new()))
    }

    pub fn get(&self, key: &str, compute: impl FnOnce() -> V) -> V {
        if let Some(v) = self.0.lock().unwrap().get(key) {
            return v.clone();
        }
        let value = compute();
        self.0
            .lock()
            .unwrap()
            .insert(key.to_string(), value.clone());
        value
    }
}

/// The blobs of one repository as files (`<dir>/<blob>.ll`), their texts,
/// and what the tools said about each.
pub struct Blobs {
    dir: tempfile::TempDir,
    texts: HashMap<String, String>,
    accepted: Memo<bool>,
    views: Memo<(String, bool)>,
    prints: Memo<Option<Vec<String>>>,
}

impl Blobs {
    pub fn new(texts: HashMap<String, String>) -> Blobs {
        let dir = tempfile::tempdir().expect("temp dir");
        for (blob, text) in &texts {
            std::fs::write(dir.path().join(format!("{blob}.ll")), text).expect("write blob");
        }
        Blobs {
            dir,
            texts,
            accepted: Memo::new(),
            views: Memo::new(),
            prints: Memo::new(),
        }
    }

    pub fn has(&self, blob: &str) -> bool {
        self.texts.contains_key(blob)
    }

    pub fn text(&self, blob: &str) -> &str {
        &self.texts[blob]
    }

    pub fn path(&self, blob: &str) -> PathBuf {
        self.dir.path().join(format!("{blob}.ll"))
    }

    /// Whether LLVM 22 parses and verifies the blob.
    pub fn accepted(&self, blob: &str) -> bool {
        self.accepted.get(blob, || llvm_accepts(&self.path(blob)))
    }

    /// `irgit textconv` of the blob.
    pub fn view(&self, blob: &str) -> String {
        self.textconv(blob).0
    }

    /// Whether `irgit textconv` showed the blob unchanged (it could not
    /// canonicalize it, or ran out of time).
    pub fn view_fell_back(&self, blob: &str) -> bool {
        self.textconv(blob).1
    }

    fn textconv(&self, blob: &str) -> (String, bool) {
        self.views.get(blob, || {
            let out = irgit()
                .arg("textconv")
                .arg(self.path(blob))
                .output()
                .expect("run irgit textconv");
            let fell_back = String::from_utf8_lossy(&out.stderr).contains("unchanged");
            (String::from_utf8_lossy(&out.stdout).into_owned(), fell_back)
        })
    }

    /// `opt -S` of the blob read from stdin (so the module name is the same
    /// for every blob), its top-level entities sorted ([`sorted_entities`]);
    /// `None` when LLVM rejects it.
    pub fn llvm_print(&self, blob: &str) -> Option<Vec<String>> {
        self.prints.get(blob, || {
            let out = llvm("opt")
                .arg("-S")
                .stdin(std::fs::File::open(self.path(blob)).ok()?)
                .output()
                .ok()?;
            out.status
                .success()
                .then(|| sorted_entities(&String::from_utf8_lossy(&out.stdout)))
        })
    }
}

/// The top-level entities of LLVM's print of a module (a function from
/// `define` to `}`, any other line on its own), comments and blank lines
/// left out, sorted: LLVM places the declaration of an intrinsic it
/// upgraded (`@llvm.stacksave` → `@llvm.stacksave.p0`) last, so two
/// versions that differ only in that order print differently.
fn sorted_entities(print: &str) -> Vec<String> {
    let mut entities: Vec<String> = Vec::new();
    let mut in_function = false;
    for line in print.lines() {
        if in_function {
            let body = entities.last_mut().unwrap();
            body.push('\n');
            body.push_str(line);
            in_function = line != "}";
        } else if !line.is_empty() && !line.starts_with(';') {
            entities.push(line.to_string());
            in_function = line.starts_with("define ");
        }
    }
    entities.sort();
    entities
}

fn stdout_of(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `llvm-as -o /dev/null FILE` succeeds (parse and verify) without
/// "ignoring invalid debug info" (LLVM then drops the debug info that its
/// verifier rejects, as a newer LLVM's `retainedNodes` of globals).
pub fn llvm_accepts(path: &Path) -> bool {
    llvm("llvm-as")
        .args(["-o", "/dev/null"])
        .arg(path)
        .output()
        .is_ok_and(|out| {
            out.status.success()
                && !String::from_utf8_lossy(&out.stderr).contains("invalid debug info")
        })
}

/// [`llvm_accepts`] for a text.
pub fn llvm_accepts_text(text: &str) -> bool {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), text).expect("write temp file");
    llvm_accepts(file.path())
}

/// Removed + added lines of a line diff (Myers, as git's default).
pub fn changed_lines(a: &str, b: &str) -> usize {
    let (removed, added) = crate::common::diff_size(a, b);
    removed + added
}

/// `+`/`-` lines of `irgit diff --matched OLD NEW`, headers left out.
pub fn matched_lines(old: &Path, new: &Path) -> usize {
    let out = stdout_of(
        irgit()
            .args(["diff", "--matched", "--color=never"])
            .arg(old)
            .arg(new),
        "irgit diff --matched",
    );
    out.lines()
        .filter(|l| {
            (l.starts_with('+') && !l.starts_with("+++ "))
                || (l.starts_with('-') && !l.starts_with("--- "))
        })
        .count()
}

/// The lines llvm-diff reports: `<` and `>` lines plus one per "exists only
/// in" line (as `benches/real_edits.rs` counts them).
pub fn llvm_diff_lines(old: &Path, new: &Path) -> usize {
    let Ok(out) = llvm("llvm-diff").arg(old).arg(new).output() else {
        return 0;
    };
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('<') || l.starts_with('>') || l.contains("exists only in"))
        .count()
}

/// `irgit canon -` of a text (comments kept), `None` when it fails.
pub fn canonical(text: &str) -> Option<String> {
    let mut child = irgit()
        .args(["canon", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().ok()?;
    writer.join().ok()?.ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The same module: equal bytes, or equal canonical forms.
pub fn same_module(a: &str, b: &str) -> bool {
    a == b || canonical(a).is_some_and(|ca| Some(ca) == canonical(b))
}
