//! `irgit install` / `irgit uninstall`: the one command that makes git call
//! irgit, and its exact inverse.
//!
//! ```text
//! before                         after `irgit install --hook`
//! .git/config   [core] ...       [core] ...
//!                                [diff "llvm-ir"] textconv = p='/path/to/irgit-textconv'; ... exec "$p"
//!                                [merge "llvm-ir"] driver = p='/path/to/irgit'; ... exec "$p" merge %O %A %B ...
//! .gitattributes *.png binary    *.png binary
//!                                *.ll diff=llvm-ir merge=llvm-ir
//!                                *.bc -text diff=llvm-bc -merge
//! hooks/pre-commit  (lint.sh)    irgit's hook, which then runs lint.sh (moved to pre-commit.irgit-chained)
//! ```
//!
//! Install is idempotent: what is already in place is not written again, so a
//! second run changes no byte. It records what it changed (the previous value
//! of every key, the lines it added, the hook it chained, and a snapshot of each
//! file before and after) in `irgit-install.yaml` in the git directory (global:
//! `~/.config/irgit/install-global.yaml`). Uninstall restores the snapshot byte
//! for byte when the file is still exactly as install left it, and otherwise
//! undoes only its own keys and lines, leaving later edits by the user alone.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::{Deserialize, Serialize};

use super::cmd;
use super::drivers;
use crate::config::{Config, FileOptions};

/// Arguments of `irgit install`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    irgit install                 # this repository: .git/config and .gitattributes\n  \
    irgit install --hook          # ... and the pre-commit hook and clean filter (an existing hook is chained)\n  \
    irgit install --global        # your global git config and ~/.config/git/attributes\n  \
    irgit install --pattern '*.ll' --pattern '*.bc' --pattern 'ir/*.txt'\n  \
    irgit install --diff-summary  # ... and `git diff` shows `irgit diff`'s function summary\n  \
    irgit install --diff-matched  # ... or `irgit diff --matched` (the new file in the old one's names)\n  \
    irgit install --difftool      # ... and `git difftool -t irgit` opens `irgit diff --html` pages\n  \
    irgit install --git-cache     # git's own textconv cache instead of irgit's (long histories)\n\n\
    Running it twice changes nothing; `irgit uninstall` undoes exactly what it did.\n\
    The hook is installed per repository: after `irgit install --global`, run \
    `irgit install --hook` inside each repository that should store canonical IR.")]
pub struct InstallArgs {
    /// Configure git globally (global config file and global attributes file)
    #[arg(long, conflicts_with = "local")]
    pub global: bool,
    /// Configure this repository only (the default)
    #[arg(long)]
    pub local: bool,
    /// Also install the pre-commit hook that stores canonical IR, and the clean
    /// filter that makes regenerated identical IR no change (one repository
    /// at a time: not with --global)
    #[arg(long)]
    pub hook: bool,
    /// Attribute patterns to register instead of `files:` in .irgit.yaml;
    /// patterns ending in `.bc` get the bitcode driver
    #[arg(long = "pattern", value_name = "GLOB", num_args = 1..)]
    pub patterns: Vec<String>,
    /// Also make `git diff` show `irgit diff`'s summary (functions changed,
    /// added, removed, renamed, moved code) for IR files, as git's external
    /// diff; `git diff --no-ext-diff` and `git log -p` keep the canonical text
    #[arg(long)]
    pub diff_summary: bool,
    /// Also make `git diff` show `irgit diff --matched` for IR files (the
    /// new file in the old file's names wherever values match, so only real
    /// changes show), as git's external diff; `git log -p` keeps textconv
    #[arg(long, conflicts_with = "diff_summary")]
    pub diff_matched: bool,
    /// Also set up `git difftool -t irgit`: one `irgit diff --html` page per
    /// changed file, written to a temporary file and opened in the browser
    /// ($IRGIT_BROWSER, $BROWSER or xdg-open; `none` only prints its path)
    #[arg(long)]
    pub difftool: bool,
    /// Use git's own textconv cache (refs/notes/textconv/*) instead of
    /// irgit's: a little quicker over long histories, but git keeps what it
    /// was shown (a fallback too); the command names the form, so after a
    /// change to the `canon:` settings run this again (`irgit doctor` says so)
    #[arg(long)]
    pub git_cache: bool,
}

/// Arguments of `irgit uninstall`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    irgit uninstall                 # this repository: config, attributes and hook as they were\n  \
    irgit uninstall --global        # undo `irgit install --global`\n  \
    irgit uninstall --diff-summary  # only `--diff-summary`: git diff shows the canonical text again\n\n\
    What you changed after the install (other keys, lines, hooks) stays.")]
pub struct UninstallArgs {
    /// Undo a global install
    #[arg(long, conflicts_with = "local")]
    pub global: bool,
    /// Undo this repository's install (the default)
    #[arg(long)]
    pub local: bool,
    /// Undo only `--diff-summary` (`git diff` shows the canonical text again)
    #[arg(long)]
    pub diff_summary: bool,
    /// Undo only `--diff-matched` (the same keys as `--diff-summary`)
    #[arg(long)]
    pub diff_matched: bool,
}

/// What one install changed; enough to undo it exactly.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Record {
    config_file: PathBuf,
    /// Keys install set, with their values before the first install.
    keys: Vec<KeyRecord>,
    /// The config file before and after install; dropped when the user edits
    /// the file between installs (then uninstall works key by key).
    config_snapshot: Option<Snapshot>,
    attributes_file: PathBuf,
    attribute_lines: Vec<String>,
    attributes_snapshot: Option<Snapshot>,
    /// Directories install created (removed again if empty).
    created_dirs: Vec<PathBuf>,
    hook: Option<HookRecord>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct KeyRecord {
    key: String,
    previous: Vec<String>,
    /// The value install wrote last.
    value: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Snapshot {
    /// `None`: the file did not exist.
    before: Option<String>,
    after: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct HookRecord {
    path: PathBuf,
    /// Where a pre-existing hook was moved to.
    chained: Option<PathBuf>,
}

/// Where an install writes.
struct Target {
    cwd: PathBuf,
    config_file: PathBuf,
    attributes_file: PathBuf,
    hook_file: Option<PathBuf>,
    record_file: PathBuf,
}

fn target(global: bool) -> Result<Target, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    if global {
        let config_file = cmd::global_config_file()?;
        let attributes_file = cmd::global_attributes_file(&cwd)?;
        let base = cmd::xdg_config_home()?;
        return Ok(Target {
            cwd,
            config_file,
            attributes_file,
            hook_file: None,
            record_file: base.join("irgit").join("install-global.yaml"),
        });
    }
    let top = cmd::worktree_top(&cwd).ok_or_else(|| {
        format!(
            "{}: not inside a git work tree (use --global to configure git for every repository)",
            cwd.display()
        )
    })?;
    Ok(Target {
        config_file: cmd::git_path(&cwd, "config")?,
        attributes_file: top.join(".gitattributes"),
        hook_file: Some(cmd::git_path(&cwd, "hooks/pre-commit")?),
        record_file: cmd::git_path(&cwd, "irgit-install.yaml")?,
        cwd,
    })
}

fn read_opt(path: &Path) -> Result<Option<String>, String> {
    match std::fs::read(path) {
        Ok(b) => String::from_utf8(b)
            .map(Some)
            .map_err(|_| format!("{}: not UTF-8 text; irgit will not edit it", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    cmd::write_file_atomically(path, text.as_bytes())
}

fn restore(path: &Path, content: &Option<String>) -> Result<(), String> {
    match content {
        Some(text) => write_file(path, text),
        None => match std::fs::remove_file(path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        },
    }
}

fn load_record(path: &Path) -> Result<Option<Record>, String> {
    match read_opt(path)? {
        None => Ok(None),
        Some(text) => serde_yaml::from_str(&text).map(Some).map_err(|e| {
            format!(
                "{}: unreadable install record ({e}); remove it to start over",
                path.display()
            )
        }),
    }
}

fn load_config(explicit: Option<&Path>, cwd: &Path) -> Result<Config, String> {
    match explicit {
        Some(p) => Config::load(p),
        None => Config::discover(cwd),
    }
    .map_err(|e| e.to_string())
}

fn patterns_from_args(patterns: &[String]) -> Result<FileOptions, String> {
    let (bitcode, text) = patterns.iter().cloned().partition(|p| p.ends_with(".bc"));
    let files = FileOptions { text, bitcode };
    files.validate().map_err(|e| format!("--pattern {e}"))?;
    Ok(files)
}

fn create_dirs(dir: &Path, created: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut missing = Vec::new();
    let mut d = Some(dir);
    while let Some(x) = d {
        if x.exists() || x.as_os_str().is_empty() {
            break;
        }
        missing.push(x.to_path_buf());
        d = x.parent();
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for m in missing.into_iter().rev() {
        if !created.contains(&m) {
            created.push(m);
        }
    }
    Ok(())
}

/// Runs `irgit install`.
pub fn run_install(args: InstallArgs, config: Option<&Path>) -> ExitCode {
    match install(&args, config) {
        Ok(changes) if changes.is_empty() => {
            println!("irgit install: already installed; nothing changed");
            ExitCode::SUCCESS
        }
        Ok(changes) => {
            for c in changes {
                println!("irgit install: {c}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("irgit install: {e}");
            ExitCode::from(1)
        }
    }
}

fn install(args: &InstallArgs, config: Option<&Path>) -> Result<Vec<String>, String> {
    if args.global && args.hook {
        return Err(
            "--hook works one repository at a time: the hook lives in the repository's \
            .git/hooks, and what it stores is that project's choice. Run `irgit install --global` \
            once for the diff and merge drivers, then `irgit install --hook` inside each \
            repository that should store canonical IR"
                .into(),
        );
    }
    let t = target(args.global)?;
    let settings = load_config(config, &t.cwd)?;
    let files = if args.patterns.is_empty() {
        settings.files.clone()
    } else {
        patterns_from_args(&args.patterns)?
    };
    let old_record = load_record(&t.record_file)?;
    let mut rec = old_record.clone().unwrap_or_else(|| Record {
        config_file: t.config_file.clone(),
        attributes_file: t.attributes_file.clone(),
        ..Record::default()
    });
    if rec.config_file != t.config_file || rec.attributes_file != t.attributes_file {
        return Err(format!(
            "{} records an install into {} and {}, but git now uses {} and {}; run `irgit uninstall` first",
            t.record_file.display(),
            rec.config_file.display(),
            rec.attributes_file.display(),
            t.config_file.display(),
            t.attributes_file.display()
        ));
    }
    let first_install = old_record.is_none();
    let mut changes = install_config(args, &settings, &t, &mut rec, first_install)?;
    changes.extend(install_attributes(
        args,
        &files,
        &t,
        &mut rec,
        first_install,
    )?);
    if args.hook {
        let path = t
            .hook_file
            .clone()
            .ok_or("--hook needs a repository (it cannot be installed with --global)")?;
        changes.extend(install_hook(&path, &mut rec)?);
    }
    if old_record.as_ref() != Some(&rec) {
        write_record(&t.record_file, &rec)?;
    }
    Ok(changes)
}

/// The configuration entries this install sets, `settings` naming the form.
fn wanted_entries(args: &InstallArgs, settings: &Config) -> Vec<(String, String)> {
    let mut entries = if args.git_cache {
        drivers::git_cache_entries(&drivers::canon_form_id(&settings.canon))
    } else {
        drivers::config_entries()
    };
    if args.hook {
        entries.extend(drivers::filter_config_entries());
    }
    if args.diff_summary {
        entries.extend(crate::git::diff_summary::config_entries());
    }
    if args.diff_matched {
        entries.extend(crate::git::diff_summary::matched_config_entries());
    }
    if args.difftool {
        entries.extend(crate::git::difftool::config_entries());
    }
    // `--diff-summary` / `--diff-matched` name another external diff: the
    // last value of a key is the one written.
    let mut written: Vec<(String, String)> = Vec::new();
    for (key, value) in entries.into_iter().rev() {
        if !written.iter().any(|(k, _)| *k == key) {
            written.push((key, value));
        }
    }
    written.reverse();
    written
}

/// Sets the git configuration entries, recording what each held before.
fn install_config(
    args: &InstallArgs,
    settings: &Config,
    t: &Target,
    rec: &mut Record,
    first_install: bool,
) -> Result<Vec<String>, String> {
    let config_now = read_opt(&t.config_file)?;
    let mut changes = Vec::new();
    for (key, value) in wanted_entries(args, settings) {
        let current = cmd::config_get_all(&t.cwd, &t.config_file, &key)?;
        if current.len() == 1 && current[0] == value {
            continue;
        }
        match rec.keys.iter_mut().find(|k| k.key == key) {
            Some(k) => k.value = value.clone(),
            None => rec.keys.push(KeyRecord {
                key: key.clone(),
                previous: current,
                value: value.clone(),
            }),
        }
        if let Some(dir) = t.config_file.parent() {
            create_dirs(dir, &mut rec.created_dirs)?;
        }
        let file = t.config_file.to_string_lossy().into_owned();
        cmd::git(
            &t.cwd,
            &["config", "--file", &file, "--replace-all", &key, &value],
        )?;
        changes.push(format!("{}: set {key} = {value}", t.config_file.display()));
    }
    if !changes.is_empty() {
        let after = read_opt(&t.config_file)?;
        rec.config_snapshot =
            updated_snapshot(rec.config_snapshot.take(), first_install, config_now, after);
    }
    Ok(changes)
}

/// Adds the attribute lines the file does not have yet.
fn install_attributes(
    args: &InstallArgs,
    files: &FileOptions,
    t: &Target,
    rec: &mut Record,
    first_install: bool,
) -> Result<Vec<String>, String> {
    let attrs_now = read_opt(&t.attributes_file)?;
    let mut text = attrs_now.clone().unwrap_or_default();
    let mut lines = drivers::attribute_lines(files);
    if args.hook {
        lines.extend(drivers::filter_attribute_lines(files));
    }
    let mut added = Vec::new();
    for line in lines {
        if text.lines().any(|l| l.trim() == line) {
            continue;
        }
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&line);
        text.push('\n');
        added.push(line);
    }
    if added.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(dir) = t.attributes_file.parent() {
        create_dirs(dir, &mut rec.created_dirs)?;
    }
    write_file(&t.attributes_file, &text)?;
    let mut changes = Vec::new();
    for line in added {
        changes.push(format!("{}: added `{line}`", t.attributes_file.display()));
        if !rec.attribute_lines.contains(&line) {
            rec.attribute_lines.push(line);
        }
    }
    rec.attributes_snapshot = updated_snapshot(
        rec.attributes_snapshot.take(),
        first_install,
        attrs_now,
        Some(text),
    );
    Ok(changes)
}

/// The snapshot of a file this install changed from `now` to `after`: the
/// whole file before the first install, as long as nobody else changed it
/// since the last one (then uninstall can put it back byte for byte);
/// otherwise none, and uninstall undoes entry by entry.
fn updated_snapshot(
    recorded: Option<Snapshot>,
    first_install: bool,
    now: Option<String>,
    after: Option<String>,
) -> Option<Snapshot> {
    if first_install {
        return Some(Snapshot { before: now, after });
    }
    recorded
        .filter(|s| s.after == now)
        .map(|s| Snapshot { after, ..s })
}

/// Writes the install record `irgit uninstall` reads.
fn write_record(path: &Path, rec: &Record) -> Result<(), String> {
    let yaml = serde_yaml::to_string(rec).map_err(|e| e.to_string())?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write_file(
        path,
        &format!("# Written by `irgit install`; read by `irgit uninstall`.\n{yaml}"),
    )
}

fn install_hook(path: &Path, rec: &mut Record) -> Result<Option<String>, String> {
    let script = drivers::hook_script();
    let existing = std::fs::read(path).ok();
    if let Some(bytes) = &existing {
        if bytes == script.as_bytes() {
            return Ok(None);
        }
        if drivers::is_installed_hook(bytes) {
            // An earlier install's hook: it now runs this irgit.
            cmd::write_file_atomically(path, script.as_bytes())?;
            return Ok(Some(format!(
                "{}: the pre-commit hook now runs {}",
                path.display(),
                drivers::irgit_path().display()
            )));
        }
        if String::from_utf8_lossy(bytes).contains(drivers::HOOK_MARKER) {
            return Ok(Some(format!(
                "{}: already runs `{}`; left as it is",
                path.display(),
                drivers::HOOK_MARKER
            )));
        }
    }
    let dir = path
        .parent()
        .ok_or_else(|| format!("{}: no parent directory", path.display()))?;
    create_dirs(dir, &mut rec.created_dirs)?;
    let mut chained = None;
    if existing.is_some() {
        let to = dir.join(drivers::CHAINED_HOOK_NAME);
        if to.exists() {
            return Err(format!(
                "{}: exists already; cannot chain {} to it without overwriting it",
                to.display(),
                path.display()
            ));
        }
        std::fs::rename(path, &to).map_err(|e| format!("{}: {e}", path.display()))?;
        chained = Some(to);
    }
    std::fs::write(path, &script).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let msg = match &chained {
        Some(c) => format!(
            "{}: installed the pre-commit hook; the existing hook now runs after it from {}",
            path.display(),
            c.display()
        ),
        None => format!("{}: installed the pre-commit hook", path.display()),
    };
    rec.hook = Some(HookRecord {
        path: path.to_path_buf(),
        chained,
    });
    Ok(Some(msg))
}

/// Runs `irgit uninstall`.
pub fn run_uninstall(args: UninstallArgs, _config: Option<&Path>) -> ExitCode {
    match uninstall(&args) {
        Ok((changes, warnings)) => {
            for c in &changes {
                println!("irgit uninstall: {c}");
            }
            for w in &warnings {
                eprintln!("irgit uninstall: warning: {w}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("irgit uninstall: {e}");
            ExitCode::from(1)
        }
    }
}

fn uninstall(args: &UninstallArgs) -> Result<(Vec<String>, Vec<String>), String> {
    let t = target(args.global)?;
    let Some(rec) = load_record(&t.record_file)? else {
        return Ok((
            vec![format!(
                "nothing to undo (no install record at {})",
                t.record_file.display()
            )],
            Vec::new(),
        ));
    };
    if args.diff_summary || args.diff_matched {
        return uninstall_diff_summary(&t, rec);
    }
    let mut changes = Vec::new();
    let mut warnings = Vec::new();
    // The hook first: it is the part most likely to matter if we stop half-way.
    if let Some(h) = &rec.hook {
        match uninstall_hook(h)? {
            Ok(done) => changes.extend(done),
            Err(w) => warnings.push(w),
        }
    }
    uninstall_config(&t, &rec, &mut changes, &mut warnings)?;
    changes.extend(uninstall_attributes(&rec)?);

    std::fs::remove_file(&t.record_file)
        .map_err(|e| format!("{}: {e}", t.record_file.display()))?;
    if let Some(dir) = t.record_file.parent() {
        if args.global {
            let _ = std::fs::remove_dir(dir);
        }
    }
    for d in rec.created_dirs.iter().rev() {
        // Only removes empty directories.
        let _ = std::fs::remove_dir(d);
    }
    Ok((changes, warnings))
}

/// Removes the hook install wrote and puts back the one it chained:
/// `Ok(changes)`, or `Err(warning)` when the hook changed since (left alone).
fn uninstall_hook(h: &HookRecord) -> Result<Result<Vec<String>, String>, String> {
    let ours = std::fs::read(&h.path)
        .map(|b| drivers::is_installed_hook(&b))
        .unwrap_or(false);
    if !ours {
        return Ok(Err(format!(
            "{}: changed since install; left as it is{}",
            h.path.display(),
            h.chained
                .as_ref()
                .map(|c| format!(" (the previous hook is at {})", c.display()))
                .unwrap_or_default()
        )));
    }
    std::fs::remove_file(&h.path).map_err(|e| format!("{}: {e}", h.path.display()))?;
    let mut changes = vec![format!("{}: removed the pre-commit hook", h.path.display())];
    if let Some(c) = &h.chained {
        std::fs::rename(c, &h.path).map_err(|e| format!("{}: {e}", c.display()))?;
        changes.push(format!("{}: restored the chained hook", h.path.display()));
    }
    Ok(Ok(changes))
}

/// Puts the git configuration back: the whole file when nobody changed it
/// since, else key by key (keys the user changed are left, with a warning).
fn uninstall_config(
    t: &Target,
    rec: &Record,
    changes: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> Result<(), String> {
    let config_now = read_opt(&rec.config_file)?;
    if let Some(s) = rec
        .config_snapshot
        .as_ref()
        .filter(|s| s.after == config_now)
    {
        restore(&rec.config_file, &s.before)?;
        changes.push(format!("{}: restored", rec.config_file.display()));
        return Ok(());
    }
    for k in &rec.keys {
        match restore_key(t.cwd.as_path(), &rec.config_file, k)? {
            Ok(c) => changes.push(c),
            Err(w) => warnings.push(w),
        }
    }
    let file = rec.config_file.to_string_lossy().into_owned();
    for section in drivers::config_sections() {
        let regex = format!("^{}\\.", section.replace('.', "\\."));
        let left = cmd::git(&t.cwd, &["config", "--file", &file, "--get-regexp", &regex]);
        if left.map(|s| s.trim().is_empty()).unwrap_or(true) {
            let _ = cmd::git(
                &t.cwd,
                &["config", "--file", &file, "--remove-section", &section],
            );
        }
    }
    Ok(())
}

/// Puts the attributes file back: whole when nobody changed it since, else
/// without the lines install added.
fn uninstall_attributes(rec: &Record) -> Result<Vec<String>, String> {
    let attrs_now = read_opt(&rec.attributes_file)?;
    if let Some(s) = rec
        .attributes_snapshot
        .as_ref()
        .filter(|s| s.after == attrs_now)
    {
        restore(&rec.attributes_file, &s.before)?;
        return Ok(vec![format!("{}: restored", rec.attributes_file.display())]);
    }
    let Some(text) = attrs_now else {
        return Ok(Vec::new());
    };
    let mut changes = Vec::new();
    let mut lines: Vec<&str> = text.lines().collect();
    for ours in &rec.attribute_lines {
        if let Some(i) = lines.iter().rposition(|l| l.trim() == ours) {
            lines.remove(i);
            changes.push(format!(
                "{}: removed `{ours}`",
                rec.attributes_file.display()
            ));
        }
    }
    let mut out = lines.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    write_file(&rec.attributes_file, &out)?;
    Ok(changes)
}

/// The warning to give when key `k` no longer holds the one value install
/// wrote (the user changed it since: it is left alone).
fn changed_since_install(
    cwd: &Path,
    config_file: &Path,
    k: &KeyRecord,
) -> Result<Option<String>, String> {
    let current = cmd::config_get_all(cwd, config_file, &k.key)?;
    if current.len() == 1 && current[0] == k.value {
        return Ok(None);
    }
    Ok(Some(format!(
        "{}: {} was changed after install; left as it is",
        config_file.display(),
        k.key
    )))
}

/// Puts back the values a key had before install: `Ok(change)`, or
/// `Err(warning)` when the user changed the key since (it is left alone).
fn restore_key(
    cwd: &Path,
    config_file: &Path,
    k: &KeyRecord,
) -> Result<Result<String, String>, String> {
    if let Some(warning) = changed_since_install(cwd, config_file, k)? {
        return Ok(Err(warning));
    }
    let file = config_file.to_string_lossy().into_owned();
    cmd::git(cwd, &["config", "--file", &file, "--unset-all", &k.key])?;
    for v in &k.previous {
        cmd::git(cwd, &["config", "--file", &file, "--add", &k.key, v])?;
    }
    Ok(Ok(format!("{}: restored {}", config_file.display(), k.key)))
}

/// Sets a key install owns back to the value the default install writes:
/// `Ok(Some(change))`, `Ok(None)` when it already holds it, or
/// `Err(warning)` when the user changed it since install (left alone).
fn back_to_default(
    cwd: &Path,
    config_file: &Path,
    k: &KeyRecord,
    default: &str,
) -> Result<Result<Option<String>, String>, String> {
    let current = cmd::config_get_all(cwd, config_file, &k.key)?;
    if current.len() == 1 && current[0] == default {
        return Ok(Ok(None));
    }
    if let Some(warning) = changed_since_install(cwd, config_file, k)? {
        return Ok(Err(warning));
    }
    let file = config_file.to_string_lossy().into_owned();
    cmd::git(cwd, &["config", "--file", &file, &k.key, default])?;
    Ok(Ok(Some(format!(
        "{}: {} is irgit's default again",
        config_file.display(),
        k.key
    ))))
}

/// `irgit uninstall --diff-summary`: restores the keys `--diff-summary`
/// set and keeps the rest of the install (and its record).
fn uninstall_diff_summary(
    t: &Target,
    mut rec: Record,
) -> Result<(Vec<String>, Vec<String>), String> {
    let summary_keys: Vec<String> = crate::git::diff_summary::config_entries()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let mut changes = Vec::new();
    let mut warnings = Vec::new();
    let mut kept = Vec::new();
    let default_diff = drivers::config_entries()
        .into_iter()
        .find(|(key, _)| summary_keys.contains(key));
    for k in std::mem::take(&mut rec.keys) {
        if !summary_keys.contains(&k.key) {
            kept.push(k);
            continue;
        }
        // The text driver's external diff goes back to the default one,
        // which the full uninstall undoes.
        if let Some((_, default)) = default_diff.as_ref().filter(|(key, _)| *key == k.key) {
            match back_to_default(&t.cwd, &rec.config_file, &k, default)? {
                Ok(Some(c)) => changes.push(c),
                Ok(None) => {}
                Err(w) => warnings.push(w),
            }
            kept.push(KeyRecord {
                value: default.clone(),
                ..k
            });
            continue;
        }
        match restore_key(&t.cwd, &rec.config_file, &k)? {
            Ok(c) => changes.push(c),
            Err(w) => warnings.push(w),
        }
    }
    rec.keys = kept;
    if changes.is_empty() && warnings.is_empty() {
        changes.push("the diff summary was not installed; nothing to undo".to_string());
        return Ok((changes, warnings));
    }
    // The file no longer matches the snapshot; the full uninstall works key
    // by key from now on.
    rec.config_snapshot = None;
    let yaml = serde_yaml::to_string(&rec).map_err(|e| e.to_string())?;
    write_file(
        &t.record_file,
        &format!("# Written by `irgit install`; read by `irgit uninstall`.\n{yaml}"),
    )?;
    Ok((changes, warnings))
}
