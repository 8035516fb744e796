//! `irgit hook pre-commit`: store the canonical form of every staged IR file.
//!
//! ```text
//! index blob (staged)               index blob (committed)
//! ; test input, keep me             ; test input, keep me
//! define i32 @f(i32 %n) {           ; ModuleID = 'x.c'
//!   %1 = add i32 %n, 1       ─►     ...
//!   ret i32 %1                      define i32 @f(i32 %arg0) {
//! }                                 bb0:
//!                                     %add.5e1c = add i32 %arg0, 1 ...
//! ```
//!
//! It works on the **index blob**, never on the worktree file, so a file
//! staged in part (`git add -p`) commits the canonical form of exactly what was
//! staged. The worktree file is rewritten only when it equals the old index
//! blob; otherwise it keeps the user's unstaged changes untouched.
//!
//! Files are selected by their attributes in the index (`diff=llvm-ir`, or
//! `diff=llvm-bc` for bitcode), among the paths that differ from `HEAD`;
//! deleted files are skipped. Refused (exit 1, file and LLVM's message with
//! its line named, nothing written): a file with conflict markers (in every
//! setting), a file LLVM cannot parse or verify (unless `hook.invalid_ir:
//! allow`). Committed as written, with one line saying why:
//! - lit tests (a `RUN:` line), valid or not, unless `hook.lit_tests:
//!   canonicalize`: their exact text is the test's input;
//! - files LLVM 22 prints in another syntax (`dialect`), unless
//!   `hook.dialect: upgrade`: a project on an older LLVM must still read them.
//!
//! Comments never cause a refusal: the canonical form carries every user
//! comment (`crate::comments`), and a form that would miss one is not
//! stored. CRLF files are stored with CRLF.
//!
//! Bitcode is checked (it must parse and verify) but never rewritten: the
//! bytes are what build tools consume, and `git diff` shows them as canonical
//! text through the `llvm-bc` textconv anyway.
//!
//! All files are checked first; the index is written once, only if every file
//! passed, so a refused commit leaves the index exactly as it was.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::cmd;
use super::dialect;
use super::drivers;
use super::previous_names;
use super::renamed;
use crate::canon;
use crate::comments;
use crate::config::{Config, Dialect, HookMode, InvalidIrPolicy, LitTests};
use crate::ir::Session;

/// Arguments of `irgit hook`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    irgit install --hook       # writes .git/hooks/pre-commit, which runs `irgit hook pre-commit`\n  \
    irgit hook pre-commit      # by hand: canonicalize what is staged now, as `git commit` would\n  \
    git commit --no-verify     # commit once without the hook\n\n\
    Install with `irgit install --hook`, copy hooks/pre-commit, or use the \
    pre-commit framework (id: irgit-canonicalize).\n\
    Exit status: 0 when the commit may proceed, 1 when a staged file is refused, 2 on errors.")]
pub struct HookArgs {
    /// Which hook git is running
    #[arg(value_enum)]
    pub name: HookName,
}

/// The hooks irgit implements.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookName {
    /// Store canonical forms of staged LLVM IR in the index
    PreCommit,
}

/// Runs `irgit hook <name>`.
pub fn run(args: HookArgs, config: Option<&Path>) -> ExitCode {
    match args.name {
        HookName::PreCommit => match pre_commit(config) {
            Ok(report) => {
                for n in &report.notes {
                    eprintln!("irgit pre-commit: {n}");
                }
                for w in &report.warnings {
                    eprintln!("irgit pre-commit: warning: {w}");
                }
                for p in &report.refused {
                    eprintln!("irgit pre-commit: {p}");
                }
                if report.refused.is_empty() {
                    let form = match report.previous_names {
                        true => "stored in HEAD's names where values match",
                        false => "stored the canonical form",
                    };
                    for c in &report.rewritten {
                        eprintln!("irgit pre-commit: {c}: {form}");
                    }
                    ExitCode::SUCCESS
                } else {
                    eprintln!(
                        "irgit pre-commit: commit refused; nothing was changed (fix the files above, \
                         or commit with --no-verify)"
                    );
                    ExitCode::from(1)
                }
            }
            Err(e) => {
                eprintln!("irgit pre-commit: {e}");
                ExitCode::from(2)
            }
        },
    }
}

/// What the pre-commit hook did.
#[derive(Debug, Default)]
pub struct Report {
    /// Paths whose index entry now holds the canonical form.
    pub rewritten: Vec<String>,
    /// `path: reason` for every refused file.
    pub refused: Vec<String>,
    pub warnings: Vec<String>,
    /// One line each about files left alone on purpose (lit tests).
    pub notes: Vec<String>,
    /// Whether the rewritten files hold `HEAD`'s names (`hook.mode:
    /// previous-names`), not the canonical form.
    pub previous_names: bool,
}

/// What to do with one staged file.
enum Outcome {
    Unchanged,
    Rewrite(Vec<u8>),
}

/// `what: problem`, with a git2 error as its message alone (not its
/// `class=...; code=...` suffix).
fn err<E: std::fmt::Display + 'static>(what: &str) -> impl FnOnce(E) -> String + '_ {
    move |e| {
        let any: &dyn std::any::Any = &e;
        match any.downcast_ref::<git2::Error>() {
            Some(g) => format!("{what}: {}", g.message()),
            None => format!("{what}: {e}"),
        }
    }
}

/// The pre-commit hook on the repository of the current directory.
pub(crate) fn pre_commit(config: Option<&Path>) -> Result<Report, String> {
    let repo = open_repository()?;
    let workdir = repo
        .workdir()
        .ok_or("a bare repository has no commits to prepare")?
        .to_path_buf();
    let config = match config {
        Some(p) => Config::load(p),
        None => Config::discover(&workdir),
    }
    .map_err(|e| e.to_string())?;
    let mut report = Report {
        previous_names: config.hook.mode == HookMode::PreviousNames,
        ..Report::default()
    };
    if config.hook.mode == HookMode::Off {
        return Ok(report);
    }
    let index_file = hook_index_file()?;
    let mut index = match &index_file {
        Some(p) => git2::Index::open(p).map_err(err(&p.display().to_string()))?,
        None => repo.index().map_err(err("cannot read the index"))?,
    };

    let (staged, other_changes) = staged_paths(&repo, &index)?;
    if staged.is_empty() {
        return Ok(report);
    }
    let updates = planned_updates(&repo, &index, &workdir, &staged, &config, &mut report)?;
    if !report.refused.is_empty() || updates.is_empty() {
        return Ok(report);
    }
    if !other_changes && updates.len() == staged.len() && all_as_in_head(&repo, &updates) {
        let paths: Vec<&str> = updates.iter().map(|u| u.0.as_str()).collect();
        report.refused.push(format!(
            "{}: canonically equal to what HEAD has (the same IR, regenerated): nothing to \
             commit (`git restore --staged {}` unstages it)",
            paths.join(", "),
            paths.join(" ")
        ));
        return Ok(report);
    }

    let mut written = Vec::new();
    for (path, entry, old, new) in updates {
        let old_id = entry.id;
        // The work tree keeps the compiler's text in previous-names mode.
        let rewritable = (config.hook.mode != HookMode::PreviousNames).then_some(old.as_slice());
        let entry = stage_canonical(&repo, &workdir, &path, entry, rewritable, &new, &mut report)?;
        index
            .add(&entry)
            .map_err(err(&format!("{path}: cannot update the index entry")))?;
        written.push((old_id, entry));
        report.rewritten.push(path);
    }
    index.write().map_err(err("cannot write the index"))?;
    if let Some(pending) = pending_main_index(&repo, index_file.as_deref()) {
        update_pending_main_index(&pending, &written)?;
    }
    Ok(report)
}

/// The repository git runs the hook in, or a message that says why not.
fn open_repository() -> Result<git2::Repository, String> {
    git2::Repository::open_from_env().map_err(|e| {
        let cwd = std::env::current_dir().unwrap_or_default();
        match e.code() {
            git2::ErrorCode::NotFound => format!(
                "{}: not inside a git repository (git runs this hook on `git commit`; to try it, \
                 run it inside a work tree)",
                cwd.display()
            ),
            _ => format!(
                "{}: cannot open the repository: {}",
                cwd.display(),
                e.message()
            ),
        }
    })
}

/// The index being committed, when git points the hook at one other than
/// the repository's (`git commit -a`, `git commit <paths>`).
fn hook_index_file() -> Result<Option<PathBuf>, String> {
    let Some(p) = std::env::var_os("GIT_INDEX_FILE") else {
        return Ok(None);
    };
    let p = PathBuf::from(p);
    if p.is_absolute() {
        return Ok(Some(p));
    }
    Ok(Some(std::env::current_dir().map_err(err("cwd"))?.join(p)))
}

/// A staged IR file to rewrite: path, index entry, staged bytes, canonical bytes.
type Update = (String, git2::IndexEntry, Vec<u8>, Vec<u8>);

/// Checks every staged IR file; the ones whose stored form differs from
/// what is staged, with that form. Refusals and warnings go to `report`.
fn planned_updates(
    repo: &git2::Repository,
    index: &git2::Index,
    workdir: &Path,
    staged: &[String],
    config: &Config,
    report: &mut Report,
) -> Result<Vec<Update>, String> {
    let kinds = ir_kinds(workdir, staged)?;
    let mut updates = Vec::new();
    for (path, kind) in staged.iter().zip(kinds) {
        let Some(kind) = kind else { continue };
        let Some(entry) = index.get_path(Path::new(path), 0) else {
            continue;
        };
        let blob = repo
            .find_blob(entry.id)
            .map_err(err(&format!("{path}: cannot read the staged blob")))?;
        let head = match config.hook.mode {
            HookMode::PreviousNames => previous_names::head_blob(repo, path),
            _ => None,
        };
        let outcome = check_file(path, blob.content(), kind, config, head.as_deref(), report);
        // The previous names are HEAD's, none the user wrote and lost.
        if kind == Kind::Text && config.hook.mode != HookMode::PreviousNames {
            let stored = match &outcome {
                Outcome::Rewrite(new) => new.as_slice(),
                Outcome::Unchanged => blob.content(),
            };
            let written = match &outcome {
                Outcome::Rewrite(_) => Some(blob.content().to_vec()),
                Outcome::Unchanged => cleaned_work_tree(&workdir.join(path), path, stored, config),
            };
            if let Some(note) =
                written.and_then(|w| renamed::names_note(path, &w, stored, &config.canon))
            {
                report.notes.push(note);
            }
        }
        if let Outcome::Rewrite(new) = outcome {
            updates.push((path.clone(), entry, blob.content().to_vec(), new));
        }
    }
    Ok(updates)
}

/// The work tree file of `path`, when it differs from the `staged` blob
/// only because the clean filter stored its canonical form on `git add`.
fn cleaned_work_tree(file: &Path, path: &str, staged: &[u8], config: &Config) -> Option<Vec<u8>> {
    let bytes = std::fs::read(file).ok()?;
    if bytes == staged {
        return None;
    }
    let stored = stored_form(path, &bytes, config, None, &mut Report::default());
    (stored.as_deref() == Some(staged)).then_some(bytes)
}

/// Writes `new` as a blob and points `entry` at it; the work tree file too
/// when it still holds exactly what was staged (`old`), else it is left
/// alone, with a warning, and the entry's stat data made stale (no `old`:
/// the work tree is never rewritten, and nothing to warn about).
fn stage_canonical(
    repo: &git2::Repository,
    workdir: &Path,
    path: &str,
    mut entry: git2::IndexEntry,
    old: Option<&[u8]>,
    new: &[u8],
    report: &mut Report,
) -> Result<git2::IndexEntry, String> {
    entry.id = repo
        .blob(new)
        .map_err(err(&format!("{path}: cannot write the canonical blob")))?;
    entry.file_size = new.len() as u32;
    let file = workdir.join(path);
    let worktree_is_staged = old.is_some_and(|old| {
        std::fs::symlink_metadata(&file)
            .map(|m| m.file_type().is_file())
            .unwrap_or(false)
            && std::fs::read(&file).map(|b| b == old).unwrap_or(false)
    });
    if worktree_is_staged {
        cmd::write_file_atomically(&file, new)?;
        let m = std::fs::metadata(&file).map_err(err(&file.display().to_string()))?;
        entry.ctime = git2::IndexTime::new(m.ctime() as i32, m.ctime_nsec() as u32);
        entry.mtime = git2::IndexTime::new(m.mtime() as i32, m.mtime_nsec() as u32);
        entry.dev = m.dev() as u32;
        entry.ino = m.ino() as u32;
        entry.uid = m.uid();
        entry.gid = m.gid();
    } else {
        // Stat data that cannot match the work tree file, so git compares
        // its content with the new blob instead of trusting old stat data.
        entry.mtime = git2::IndexTime::new(0, 0);
        entry.ctime = git2::IndexTime::new(0, 0);
        if old.is_none() {
            return Ok(entry);
        }
        report.warnings.push(format!(
            "{path}: has unstaged changes; they stay in the work tree, only the staged version was canonicalized"
        ));
    }
    Ok(entry)
}

/// `git commit <paths>` commits from a temporary index and, when the commit
/// succeeds, installs `index.lock` (the updated main index) as the index.
/// Entries there still holding the blob we replaced get the canonical one
/// too, so the main index does not stage the non-canonical form afterwards.
fn pending_main_index(repo: &git2::Repository, hook_index: Option<&Path>) -> Option<PathBuf> {
    let hook_index = hook_index?.canonicalize().ok()?;
    let git_dir = repo.path().canonicalize().ok()?;
    let lock = git_dir.join("index.lock");
    if hook_index == git_dir.join("index") || hook_index == lock || !lock.is_file() {
        return None;
    }
    Some(lock)
}

fn update_pending_main_index(
    pending: &Path,
    written: &[(git2::Oid, git2::IndexEntry)],
) -> Result<(), String> {
    let what = pending.display().to_string();
    let mut main = git2::Index::open(pending).map_err(err(&what))?;
    let mut changed = false;
    for (old_id, entry) in written {
        let path = Path::new(std::str::from_utf8(&entry.path).unwrap_or_default());
        if main.get_path(path, 0).is_some_and(|e| e.id == *old_id) {
            main.add(entry).map_err(err(&what))?;
            changed = true;
        }
    }
    if changed {
        main.write().map_err(err(&what))?;
    }
    Ok(())
}

/// Whether every rewritten file's canonical form is what `HEAD` has.
fn all_as_in_head(repo: &git2::Repository, updates: &[Update]) -> bool {
    let Ok(head) = repo.head().and_then(|h| h.peel_to_tree()) else {
        return false;
    };
    updates.iter().all(|(path, _, _, new)| {
        let in_head = head.get_path(Path::new(path)).map(|e| e.id());
        let canonical = git2::Oid::hash_object(git2::ObjectType::Blob, new);
        matches!((in_head, canonical), (Ok(a), Ok(b)) if a == b)
    })
}

/// Paths added or modified in the index relative to `HEAD` (everything on
/// the first commit), regular files only; and whether anything else
/// changed (a deletion, a symlink, a submodule).
fn staged_paths(
    repo: &git2::Repository,
    index: &git2::Index,
) -> Result<(Vec<String>, bool), String> {
    let head_tree = match repo.head() {
        Ok(h) => Some(h.peel_to_tree().map_err(err("HEAD"))?),
        Err(_) => None,
    };
    let diff = repo
        .diff_tree_to_index(head_tree.as_ref(), Some(index), None)
        .map_err(err("cannot compare the index with HEAD"))?;
    let mut out = Vec::new();
    let mut other_changes = false;
    for d in diff.deltas() {
        use git2::Delta::*;
        if !matches!(d.status(), Added | Modified | Renamed | Copied | Typechange) {
            other_changes = true;
            continue;
        }
        let new = d.new_file();
        let mode = new.mode();
        if mode != git2::FileMode::Blob && mode != git2::FileMode::BlobExecutable {
            other_changes = true;
            continue;
        }
        if let Some(p) = new.path().and_then(|p| p.to_str()) {
            out.push(p.to_string());
        } else if let Some(p) = new.path() {
            eprintln!(
                "irgit pre-commit: warning: {}: path is not UTF-8; skipped",
                p.display()
            );
        }
    }
    Ok((out, other_changes))
}

/// Textual IR or bitcode, as the attributes say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Bitcode,
}

/// The `diff` attribute of each path, as git computes it from the index
/// (`--cached`; global and info attributes count too).
fn ir_kinds(workdir: &Path, paths: &[String]) -> Result<Vec<Option<Kind>>, String> {
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    Ok(cmd::check_attr(workdir, "diff", &refs, true)?
        .into_iter()
        .map(|v| match v.as_str() {
            drivers::DIFF_TEXT => Some(Kind::Text),
            drivers::DIFF_BITCODE => Some(Kind::Bitcode),
            _ => None,
        })
        .collect())
}

/// What the hook would store for a textual IR file `path` holding `bytes`,
/// when that is not `bytes` themselves: the clean filter's answer. `head`
/// is `HEAD`'s version of the file (read in `hook.mode: previous-names`
/// only); what the hook would say goes to `report`.
pub(crate) fn stored_form(
    path: &str,
    bytes: &[u8],
    config: &Config,
    head: Option<&[u8]>,
    report: &mut Report,
) -> Option<Vec<u8>> {
    if config.hook.mode == HookMode::Off {
        return None;
    }
    match check_file(path, bytes, Kind::Text, config, head, report) {
        Outcome::Rewrite(new) => Some(new),
        Outcome::Unchanged => None,
    }
}

/// Decides what to do with one staged file; problems go into `report`.
fn check_file(
    path: &str,
    bytes: &[u8],
    kind: Kind,
    config: &Config,
    head: Option<&[u8]>,
    report: &mut Report,
) -> Outcome {
    let text = kind == Kind::Text && !canon::is_bitcode(bytes);
    if text {
        if let Some(line) = conflict_marker_line(bytes) {
            report.refused.push(format!(
                "{path}:{line}: has conflict markers; resolve the conflict first (no setting \
                 commits them, hook.invalid_ir: allow included)"
            ));
            return Outcome::Unchanged;
        }
    }
    let lit_test = text && comments::is_lit_test(&canon::decode_input(bytes));
    if lit_test && config.hook.lit_tests == LitTests::Keep {
        report.notes.push(format!(
            "{path}: lit test (has a RUN: line): committed as written (hook.lit_tests: keep)"
        ));
        return Outcome::Unchanged;
    }
    // A CRLF file is read, and its canonical form written, with LF; the
    // stored form gets CRLF back.
    let crlf = text && uses_crlf(bytes);
    let lf_bytes = if crlf {
        std::borrow::Cow::Owned(
            String::from_utf8_lossy(bytes)
                .replace("\r\n", "\n")
                .into_bytes(),
        )
    } else {
        std::borrow::Cow::Borrowed(bytes)
    };
    let session = Session::new();
    let module = match session.parse(&lf_bytes, path) {
        Ok(m) => m,
        Err(e) => return invalid_ir(path, e.to_string(), lit_test, config, report),
    };
    if let Err(e) = module.verify_as_parsed() {
        return invalid_ir(path, e.to_string(), lit_test, config, report);
    }
    if !text {
        return Outcome::Unchanged;
    }
    let Some(input) = plain_text(path, &lf_bytes, crlf || !bytes.contains(&b'\r'), report) else {
        return Outcome::Unchanged;
    };
    if config.hook.mode == HookMode::PreviousNames {
        return in_previous_names(path, input, head, crlf, report);
    }
    // LLVM's plain print, before any stage changes the module: what it
    // makes of the file's syntax.
    if !module.declares_source_filename() {
        module.set_source_filename("");
    }
    let printed = module.print();
    let Some(canonical) = canonical_keeping_comments(path, &module, input, config, report) else {
        return Outcome::Unchanged;
    };
    if canonical == input || !may_store(path, input, &printed, config, report) {
        return Outcome::Unchanged;
    }
    if crlf {
        return Outcome::Rewrite(canonical.replace('\n', "\r\n").into_bytes());
    }
    Outcome::Rewrite(canonical.into_bytes())
}

/// `hook.mode: previous-names`: `input` in the names `HEAD`'s version
/// used, when [`previous_names::in_head_names`] proves it the same module;
/// else as written, with one line saying why.
fn in_previous_names(
    path: &str,
    input: &str,
    head: Option<&[u8]>,
    crlf: bool,
    report: &mut Report,
) -> Outcome {
    match previous_names::in_head_names(path, input, head) {
        Ok(stored) if stored == input => Outcome::Unchanged,
        Ok(stored) if crlf => Outcome::Rewrite(stored.replace('\n', "\r\n").into_bytes()),
        Ok(stored) => Outcome::Rewrite(stored.into_bytes()),
        Err(why) => {
            report
                .notes
                .push(previous_names::as_written_note(path, &why));
            Outcome::Unchanged
        }
    }
}

/// A file LLVM does not accept: a lit test's text is the test (a negative
/// test, a split-file test, a test for another LLVM), so it is committed
/// as written; in `hook.mode: previous-names` any other file too (that
/// mode never changes what a file means, so it has nothing to refuse);
/// else as `hook.invalid_ir` says.
fn invalid_ir(
    path: &str,
    why: String,
    lit_test: bool,
    config: &Config,
    report: &mut Report,
) -> Outcome {
    if lit_test {
        report.notes.push(format!(
            "{path}: lit test that LLVM 22 does not accept: committed as written"
        ));
        return Outcome::Unchanged;
    }
    if config.hook.mode == HookMode::PreviousNames {
        let why = format!("LLVM 22 does not accept it: {why}");
        report
            .notes
            .push(previous_names::as_written_note(path, &why));
        return Outcome::Unchanged;
    }
    match config.hook.invalid_ir {
        InvalidIrPolicy::Refuse => report.refused.push(format!(
            "{path}: {why}\n  (to commit it as written, set hook.invalid_ir: allow in \
             .irgit.yaml, or commit with --no-verify)"
        )),
        InvalidIrPolicy::Allow => report.warnings.push(format!(
            "{path}: committed as written (hook.invalid_ir: allow): {why}"
        )),
    }
    Outcome::Unchanged
}

/// The file as UTF-8 text with one kind of line ending (`one_ending`), or
/// a note saying why it is committed as it is.
fn plain_text<'a>(
    path: &str,
    lf_bytes: &'a [u8],
    one_ending: bool,
    report: &mut Report,
) -> Option<&'a str> {
    let Ok(input) = std::str::from_utf8(lf_bytes) else {
        report.notes.push(format!(
            "{path}: not UTF-8 text; committed as it is (the canonical form could not keep its bytes)"
        ));
        return None;
    };
    if !one_ending {
        report
            .notes
            .push(format!("{path}: mixed line endings; committed as written"));
        return None;
    }
    Some(input)
}

/// The canonical text, exactly what `irgit canon` prints for this file
/// (`canon::canonical_text` is the one definition of the form), with every
/// user comment at its anchor's place; none (and a warning) when it fails
/// or would lose a comment, whatever the reason.
fn canonical_keeping_comments(
    path: &str,
    module: &crate::ir::IrModule<'_>,
    input: &str,
    config: &Config,
    report: &mut Report,
) -> Option<String> {
    let canonical = match canon::canonical_text(module, input.as_bytes(), path, &config.canon) {
        Ok(t) => t,
        Err(e) => {
            report.warnings.push(format!(
                "{e}; committed unchanged (canonicalization failed: please report this irgit bug)"
            ));
            return None;
        }
    };
    let missing = comments::missing_fragments(input, &canonical);
    if config.canon.keep_comments && !missing.is_empty() {
        report.warnings.push(format!(
            "{path}: the canonical form would lose {} comment(s) (first: {:?}); committed \
             unchanged (please report this irgit bug)",
            missing.len(),
            missing[0]
        ));
        return None;
    }
    Some(canonical)
}

/// Whether the settings let the hook store the canonical form of a file
/// that is not in it: not when that would change its LLVM dialect
/// (`hook.dialect: keep`), nor in `hook.mode: check` (a refusal).
fn may_store(path: &str, input: &str, printed: &str, config: &Config, report: &mut Report) -> bool {
    if config.hook.dialect == Dialect::Keep {
        if let Some(example) = dialect::other_syntax(input, printed) {
            report.notes.push(format!(
                "{path}: LLVM 22 writes it in another syntax ({example}); committed as written \
                 (hook.dialect: upgrade in .irgit.yaml stores LLVM 22's form)"
            ));
            return false;
        }
    }
    if config.hook.mode == HookMode::Check {
        report.refused.push(format!(
            "{path}: not in canonical form (hook.mode: check); set hook.mode: rewrite in \
             .irgit.yaml to have the hook store it"
        ));
        return false;
    }
    true
}

/// Whether every line of `bytes` ends with CRLF (and there is one).
fn uses_crlf(bytes: &[u8]) -> bool {
    let lf = bytes.iter().filter(|&&b| b == b'\n').count();
    let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
    lf > 0 && lf == crlf
}

/// The line of the first `<<<<<<<` marker, when the file also has a
/// `>>>>>>>` one: an unresolved merge conflict.
fn conflict_marker_line(bytes: &[u8]) -> Option<usize> {
    let is_marker = |line: &[u8], marker: &[u8]| {
        line.starts_with(marker)
            && matches!(line.get(marker.len()), None | Some(b' ' | b'\r' | b'\t'))
    };
    let mut first = None;
    let mut closed = false;
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if first.is_none() && is_marker(line, b"<<<<<<<") {
            first = Some(i + 1);
        }
        closed |= first.is_some() && is_marker(line, b">>>>>>>");
    }
    first.filter(|_| closed)
}
