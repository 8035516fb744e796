//! `irgit doctor`: check that git will really call irgit, and say what to fix.
//!
//! Git fails quietly when the setup is half done, so every check here names
//! a silent failure:
//!
//! ```text
//! .gitattributes: *.ll merge=llvm-ir      but no merge.llvm-ir.driver   ─► git merges as text, silently
//! merge.llvm-ir.driver = irgit merge ...  but no irgit on PATH          ─► git keeps "ours", silently
//! diff.llvm-ir.cachetextconv = true                         ─► git's cache shows stale text
//! .git/hooks/pre-commit not executable                        ─► IR committed as written
//! .gitattributes not staged (the hook reads the index's)      ─► the hook leaves IR alone (a note)
//! ```
//!
//! Output: one `ok:`, `note:` or `problem:` line per check, each problem
//! followed by a `fix:` line, each note by a hint. A note is something
//! optional (no hook) or not in effect yet. Exit status 0 when there is no
//! problem, 1 otherwise.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use super::cmd;
use super::drivers;
use crate::config::{Config, HookMode};

/// Arguments of `irgit doctor`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    irgit doctor                  # in the repository to check (global settings count too)\n  \
    irgit doctor && git merge x   # merge only when git will call irgit\n  \
    irgit doctor --fix            # ... and drop stale entries of git's textconv cache\n\n\
    Exit status: 0 when git will call irgit as intended, 1 when something \
    needs fixing (each problem is printed with its fix).")]
pub struct DoctorArgs {
    /// Drop the entries of git's textconv cache (`irgit install --git-cache`)
    /// that are stale: fallbacks, older forms, or unused
    #[arg(long)]
    pub fix: bool,
}

pub use super::finding::Finding;

fn note(what: impl Into<String>, hint: impl Into<String>) -> Finding {
    Finding {
        ok: true,
        what: what.into(),
        fix: Some(hint.into()),
    }
}

fn ok(what: impl Into<String>) -> Finding {
    Finding {
        ok: true,
        what: what.into(),
        fix: None,
    }
}

fn problem(what: impl Into<String>, fix: impl Into<String>) -> Finding {
    Finding {
        ok: false,
        what: what.into(),
        fix: Some(fix.into()),
    }
}

/// Runs `irgit doctor`.
pub fn run(args: DoctorArgs, config: Option<&Path>) -> ExitCode {
    let cwd = match std::env::current_dir() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("irgit doctor: current directory: {e}");
            return ExitCode::from(2);
        }
    };
    if cmd::worktree_top(&cwd).is_none() {
        eprintln!(
            "irgit doctor: {}: not inside a git work tree; run `irgit doctor` in the \
             repository you want to check (it checks the global settings too)",
            cwd.display()
        );
        return ExitCode::from(2);
    }
    if args.fix {
        let settings = settings(
            &cwd,
            cmd::worktree_top(&cwd).as_deref(),
            config,
            &mut Vec::new(),
        );
        for line in fix_git_cache(&cwd, &settings) {
            println!("{line}");
        }
    }
    let findings = diagnose(&cwd, config);
    let mut bad = 0;
    for f in &findings {
        if f.ok {
            match &f.fix {
                None => println!("ok: {}", f.what),
                Some(hint) => println!("note: {}\n  {hint}", f.what),
            }
        } else {
            bad += 1;
            println!("problem: {}", f.what);
            if let Some(fix) = &f.fix {
                println!("  fix: {fix}");
            }
        }
    }
    if bad == 0 {
        println!("irgit doctor: git will call irgit as intended");
        ExitCode::SUCCESS
    } else {
        println!("irgit doctor: {bad} problem(s)");
        ExitCode::from(1)
    }
}

/// What the driver line adds for git's conflict labels (git >= 2.44).
const LABELS: &str = " --base-label %S --ours-label %X --theirs-label %Y";

const BUILTIN_DIFF: &[&str] = &[
    "ada", "bash", "bibtex", "cpp", "csharp", "css", "dts", "elixir", "fortran", "fountain",
    "golang", "html", "java", "kotlin", "markdown", "matlab", "objc", "pascal", "perl", "php",
    "python", "ruby", "rust", "scheme", "tex",
];
const BUILTIN_MERGE: &[&str] = &["text", "binary", "union"];

/// All checks, in the order they are printed.
pub(crate) fn diagnose(cwd: &Path, config: Option<&Path>) -> Vec<Finding> {
    let mut out = Vec::new();
    let top = cmd::worktree_top(cwd);
    let config = settings(cwd, top.as_deref(), config, &mut out);
    let mut programs = check_driver_entries(cwd, &config, &mut out);
    out.extend(check_git_cache(cwd, &config));
    // The optional diff summary (`irgit install --diff-summary`).
    out.extend(crate::git::diff_summary::diagnose(cwd, &mut programs));
    if programs.is_empty() {
        let irgit = drivers::irgit_path().to_string_lossy().into_owned();
        programs.push((irgit, "the default command".into()));
    }
    for (program, key) in &programs {
        out.push(check_program(program, key));
    }
    let named = named_drivers(cwd, top.as_deref());
    check_named_drivers(cwd, &named, &programs, &mut out);

    let Some(top) = top else {
        return out;
    };
    out.extend(check_tracked_files(&top));
    out.extend(check_size_only_changes(&top));
    if !out.iter().any(|f| !f.ok && f.what.contains("not set"))
        && named.iter().any(|d| d.name == drivers::MERGE)
    {
        out.push(ok(
            "diff and merge drivers are configured and named in the attributes",
        ));
    }
    out.extend(check_previous_names_filter(cwd, &config));
    if config.hook.mode != HookMode::Off {
        let hook = check_hook(cwd, &top);
        let installed = hook.ok && hook.fix.is_none();
        out.push(hook);
        if installed {
            out.extend(check_staged_attributes(&top, &config));
        }
    }
    out
}

/// The settings doctor checks against: `config`, or `.irgit.yaml` found
/// from the worktree top; a file that does not load is a finding.
fn settings(
    cwd: &Path,
    top: Option<&Path>,
    config: Option<&Path>,
    out: &mut Vec<Finding>,
) -> Config {
    let config = match config {
        Some(p) => Config::load(p),
        None => Config::discover(top.unwrap_or(cwd)),
    };
    config.unwrap_or_else(|e| {
        out.push(problem(
            e.to_string(),
            "fix .irgit.yaml (see `irgit --help`)",
        ));
        Config::default()
    })
}

/// The configured drivers against what `irgit install` writes; returns
/// the programs they run, each with the key that runs it.
fn check_driver_entries(
    cwd: &Path,
    config: &Config,
    out: &mut Vec<Finding>,
) -> Vec<(String, String)> {
    let mut programs: Vec<(String, String)> = Vec::new();
    let mut wanted = if uses_git_cache(cwd) {
        drivers::git_cache_entries(&drivers::canon_form_id(&config.canon))
    } else {
        drivers::config_entries()
    };
    if cmd::config_get(cwd, &format!("filter.{}.process", drivers::FILTER)).is_some() {
        wanted.extend(drivers::filter_config_entries());
    }
    for (key, want) in wanted {
        let have = cmd::config_get(cwd, &key);
        if let Some(finding) = driver_entry_finding(&key, &want, have.as_deref()) {
            out.push(finding);
        }
        let runs_a_program =
            key.ends_with(".textconv") || key.ends_with(".driver") || key.ends_with(".process");
        if runs_a_program {
            if let Some(p) = have.as_deref().and_then(drivers::program_of) {
                if !programs.iter().any(|(q, _)| *q == p) {
                    programs.push((p, key.clone()));
                }
            }
        }
    }
    programs
}

/// Whether `irgit install --git-cache` set this repository up: git's
/// textconv cache on, under a command that names the form.
fn uses_git_cache(cwd: &Path) -> bool {
    let key = |k: &str| cmd::config_get(cwd, &format!("diff.{}.{k}", drivers::DIFF_TEXT));
    key("cachetextconv").as_deref() == Some("true")
        && key("textconv").is_some_and(|c| c.starts_with("p=") && c.contains("--canon-version="))
}

/// Entries of git's textconv cache that git would show although irgit
/// shows something else now: each a problem `irgit doctor --fix` solves.
fn check_git_cache(cwd: &Path, config: &Config) -> Vec<Finding> {
    super::notes_cache::stale_caches(cwd, config)
        .into_iter()
        .map(|stale| {
            problem(
                format!(
                    "{} holds {} textconv output(s) of git's cache: {}",
                    stale.notes_ref, stale.entries, stale.why
                ),
                "`irgit doctor --fix` drops them (git fills its cache again as it shows files)",
            )
        })
        .collect()
}

/// Drops the stale caches `check_git_cache` finds; one line per cache.
fn fix_git_cache(cwd: &Path, config: &Config) -> Vec<String> {
    super::notes_cache::stale_caches(cwd, config)
        .into_iter()
        .map(
            |stale| match super::notes_cache::drop_cache(cwd, &stale.notes_ref) {
                Ok(()) => format!(
                    "fixed: dropped {} ({} entries)",
                    stale.notes_ref, stale.entries
                ),
                Err(e) => format!("could not drop {}: {e}", stale.notes_ref),
            },
        )
        .collect()
}

/// What to say of the external diff `key` (`want`: the two-sided `irgit
/// diff --smallest`): nothing when it is that or another `irgit diff`
/// (`diff_summary::diagnose` speaks of those); a note when it is unset (an
/// older install) or runs another program, whose diff `git diff` then shows.
fn external_diff_finding(key: &str, want: &str, have: Option<&str>) -> Option<Finding> {
    let Some(have) = have else {
        return Some(note(
            format!(
                "{key} is not set: `git diff` shows the view of each side, which may be longer \
                 than git's own diff"
            ),
            "run `irgit install` again: `git diff` then shows the smaller of the two",
        ));
    };
    let ours = have == want
        || drivers::command_shape(have) == drivers::command_shape(want)
        || super::diff_summary::is_diff_summary_command(have);
    if ours {
        return None;
    }
    Some(note(
        format!("{key} = {have:?}: `git diff` shows that program's diff of IR files"),
        "`irgit install` again sets irgit's two-sided diff",
    ))
}

/// What is wrong with configuration `key` set to `have` where irgit
/// installs `want`, if anything.
fn driver_entry_finding(key: &str, want: &str, have: Option<&str>) -> Option<Finding> {
    if key.ends_with(".command") {
        return external_diff_finding(key, want, have);
    }
    let Some(have) = have else {
        return Some(problem(
            format!("{key} is not set"),
            "run `irgit install` (or `irgit install --global`)",
        ));
    };
    let runs_a_program =
        key.ends_with(".textconv") || key.ends_with(".driver") || key.ends_with(".process");
    let same_shape = runs_a_program && drivers::command_shape(have) == drivers::command_shape(want);
    if have == want || same_shape {
        // The same command, maybe running another irgit: `check_program`.
        return None;
    }
    if key.ends_with(".textconv") && want.contains("--canon-version=") {
        return Some(problem(
            format!(
                "{key} = {have:?} does not name the form .irgit.yaml gives ({want:?}): git's \
                 textconv cache shows text of another form"
            ),
            "run `irgit install --git-cache` again (git starts a new cache)",
        ));
    }
    if key.ends_with(".textconv") {
        return Some(problem(
            format!(
                "{key} = {have:?}, expected {want:?} (an older install: it starts LLVM for \
                 every file git shows, and may rely on git's textconv cache)"
            ),
            "run `irgit install` again to update the command",
        ));
    }
    if key.ends_with(".cachetextconv") {
        return Some(problem(
            format!(
                "{key} = {have:?}: git's textconv cache keeps whatever was shown first, a \
                 fallback too, and ignores changes to .irgit.yaml"
            ),
            "run `irgit install` again (irgit keeps its own cache)",
        ));
    }
    if key.ends_with(".driver") && !have.contains(LABELS) && have.contains(" merge %O %A %B %L %P")
    {
        return Some(note(
            format!(
                "{key} = {have:?} passes no conflict labels: conflict markers say \
                 ours/base/theirs instead of the branch names git gives (git >= 2.44)"
            ),
            "run `irgit install` again to pass git's labels (%S %X %Y)",
        ));
    }
    if !key.ends_with(".cachetextconv") {
        return Some(problem(
            format!("{key} = {have:?}, expected {want:?}"),
            "run `irgit install` again",
        ));
    }
    None
}

/// Whether `program` (run by configuration `key`) is there and is this
/// irgit. A full path is checked as git will run it, whatever `PATH` says;
/// a bare name depends on the `PATH` of whatever runs git.
fn check_program(program: &str, key: &str) -> Finding {
    let Some(path) = cmd::find_program(program) else {
        // irgit's own commands name a full path and degrade when it is gone.
        return if program.contains('/') {
            problem(
                format!(
                    "`{program}` (run by {key}) is missing: git shows IR as written and \
                     merges it line by line"
                ),
                "run `irgit install` again with the irgit git should use",
            )
        } else {
            problem(
                format!(
                    "`{program}` (run by {key}) is not on PATH: git diff fails on IR files \
                     and git merge silently keeps \"ours\""
                ),
                "put irgit on PATH (e.g. `cargo install --path .`) and run `irgit install` again",
            )
        };
    };
    if !program.contains('/') {
        return note(
            format!(
                "{key} runs `{program}` found on PATH ({}): git started from an IDE, cron or \
                 another shell may not find it",
                path.display()
            ),
            "run `irgit install` again: it writes irgit's full path",
        );
    }
    check_version(&path)
}

/// Whether the program at `path` answers `--version` as this irgit.
fn check_version(path: &Path) -> Finding {
    let this = format!("irgit {}", env!("CARGO_PKG_VERSION"));
    let version = Command::new(path)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match version {
        Some(v) if v == this => ok(format!("git runs {} ({v})", path.display())),
        Some(v) => problem(
            format!("git runs {} which is {v:?}, not {this:?}", path.display()),
            "run `irgit install` again with the irgit git should use",
        ),
        None => problem(
            format!(
                "git runs {}, which does not answer `--version` like irgit",
                path.display()
            ),
            "run `irgit install` again with the real irgit",
        ),
    }
}

/// A `diff=NAME` or `merge=NAME` attribute, with the first place naming it.
struct NamedDriver {
    kind: &'static str,
    name: String,
    place: String,
}

/// The drivers the attribute files name, each once.
fn named_drivers(cwd: &Path, top: Option<&Path>) -> Vec<NamedDriver> {
    let mut named: Vec<NamedDriver> = Vec::new();
    for file in attribute_files(cwd, top) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with('#') {
                continue;
            }
            for tok in line.split_whitespace().skip(1) {
                for kind in ["diff", "merge"] {
                    let Some(name) = tok.strip_prefix(kind).and_then(|r| r.strip_prefix('='))
                    else {
                        continue;
                    };
                    if !named.iter().any(|d| d.kind == kind && d.name == name) {
                        named.push(NamedDriver {
                            kind,
                            name: name.to_string(),
                            place: format!("{}:{}", file.display(), i + 1),
                        });
                    }
                }
            }
        }
    }
    named
}

/// Attributes against configuration: a driver named but not configured
/// (git then silently falls back), a merge driver whose program is missing.
fn check_named_drivers(
    cwd: &Path,
    named: &[NamedDriver],
    programs: &[(String, String)],
    out: &mut Vec<Finding>,
) {
    for NamedDriver { kind, name, place } in named {
        if *kind == "diff" && !BUILTIN_DIFF.contains(&name.as_str()) {
            let configured = cmd::config_get(cwd, &format!("diff.{name}.textconv")).is_some()
                || cmd::config_get(cwd, &format!("diff.{name}.command")).is_some();
            if !configured {
                out.push(problem(
                    format!("{place} names diff driver {name:?}, which is not configured: git shows a plain diff"),
                    "run `irgit install`, or fix the attribute",
                ));
            }
        }
        if *kind == "merge" && !BUILTIN_MERGE.contains(&name.as_str()) {
            out.extend(check_merge_driver(cwd, name, place, programs));
        }
    }
}

/// Merge driver `name` (named at `place`): configured, and its program found.
fn check_merge_driver(
    cwd: &Path,
    name: &str,
    place: &str,
    programs: &[(String, String)],
) -> Option<Finding> {
    let Some(driver) = cmd::config_get(cwd, &format!("merge.{name}.driver")) else {
        return Some(problem(
            format!(
                "{place} names merge driver {name:?}, which is not configured: git merges \
                 these files as plain text, silently"
            ),
            "run `irgit install`, or fix the attribute",
        ));
    };
    let program = drivers::program_of(&driver).unwrap_or_default();
    let known = programs.iter().any(|(p, _)| *p == program);
    (!known && cmd::find_program(&program).is_none()).then(|| {
        problem(
            format!(
                "merge driver {name:?} runs `{program}`, which is not found: git \
                 silently keeps \"ours\""
            ),
            format!("install `{program}` or fix merge.{name}.driver"),
        )
    })
}

/// IR files `git status` calls modified only because their size differs
/// from what git recorded (after git wrote the canonical text into the work
/// tree); `irgit refresh` clears them.
fn check_size_only_changes(top: &Path) -> Option<Finding> {
    let files = super::refresh::phantoms(top).ok()?;
    let first = files.first()?;
    Some(note(
        format!(
            "{} IR file(s) look modified to `git status` only by their size, e.g. {first}: \
             their content cleans to what is staged (git diff is empty)",
            files.len()
        ),
        "`irgit refresh` (it stages nothing)",
    ))
}

/// Tracked IR files that no irgit diff driver covers.
fn check_tracked_files(top: &Path) -> Option<Finding> {
    match unattributed_ir_files(top) {
        Ok(files) if files.is_empty() => None,
        Ok(files) => Some(problem(
            format!(
                "{} tracked IR file(s) have no irgit diff driver, e.g. {}",
                files.len(),
                files[0]
            ),
            "run `irgit install`, or add `diff=llvm-ir merge=llvm-ir` lines for them to .gitattributes",
        )),
        Err(e) => Some(problem(e, "check that git works in this repository")),
    }
}

fn attribute_files(cwd: &Path, top: Option<&Path>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Ok(g) = cmd::global_attributes_file(cwd) {
        files.push(g);
    }
    if let Some(top) = top {
        if let Ok(info) = cmd::git_path(cwd, "info/attributes") {
            files.push(info);
        }
        files.push(top.join(".gitattributes"));
        if let Ok(list) = cmd::git(top, &["ls-files", "-z", "--", ":(glob)**/.gitattributes"]) {
            for p in list.split('\0').filter(|p| !p.is_empty()) {
                let p = top.join(p);
                if !files.contains(&p) {
                    files.push(p);
                }
            }
        }
    }
    files
}

fn unattributed_ir_files(top: &Path) -> Result<Vec<String>, String> {
    let out = Command::new("git")
        .args(["ls-files", "-z", "--", ":(glob)**/*.ll", ":(glob)**/*.bc"])
        .current_dir(top)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let list = String::from_utf8_lossy(&out.stdout).into_owned();
    let paths: Vec<&str> = list.split('\0').filter(|p| !p.is_empty()).collect();
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let values = cmd::check_attr(top, "diff", &paths, false)?;
    Ok(paths
        .iter()
        .zip(values)
        .filter(|(_, v)| v != drivers::DIFF_TEXT && v != drivers::DIFF_BITCODE)
        .map(|(p, _)| p.to_string())
        .collect())
}

/// `hook.mode: previous-names` stores HEAD's names through the clean
/// filter: without it, a commit stores them but `git status` then calls
/// the compiler's text modified.
fn check_previous_names_filter(cwd: &Path, config: &Config) -> Option<Finding> {
    let key = format!("filter.{}.process", drivers::FILTER);
    (config.hook.mode == HookMode::PreviousNames && cmd::config_get(cwd, &key).is_none()).then(
        || {
            problem(
                format!("hook.mode: previous-names needs the clean filter, and {key} is not set"),
                "irgit install --hook (installs the hook and the clean filter)",
            )
        },
    )
}

fn check_hook(cwd: &Path, top: &Path) -> Finding {
    let path = match cmd::git_path(cwd, "hooks/pre-commit") {
        Ok(p) => p,
        Err(e) => return problem(e, "check that git works in this repository"),
    };
    let framework = std::fs::read_to_string(top.join(".pre-commit-config.yaml"))
        .map(|t| t.contains("irgit-canonicalize"))
        .unwrap_or(false);
    let Ok(meta) = std::fs::metadata(&path) else {
        return note(
            format!(
                "no pre-commit hook at {}: IR is committed as written (the hook is optional)",
                path.display()
            ),
            if framework {
                "to store canonical forms: `pre-commit install` (.pre-commit-config.yaml uses irgit-canonicalize)"
            } else {
                "to store canonical forms: `irgit install --hook` (hook: mode: off in .irgit.yaml silences this note)"
            },
        );
    };
    if meta.permissions().mode() & 0o111 == 0 {
        return problem(
            format!("{} is not executable: git ignores it", path.display()),
            format!("chmod +x {}", path.display()),
        );
    }
    let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()).into_owned();
    if text.contains(drivers::HOOK_MARKER) || (framework && text.contains("pre-commit")) {
        ok(format!("pre-commit hook {} runs irgit", path.display()))
    } else {
        note(
            format!(
                "{} does not run `{}`: IR is committed as written",
                path.display(),
                drivers::HOOK_MARKER
            ),
            "to store canonical forms: `irgit install --hook` (it chains the existing hook)",
        )
    }
}

/// The hook reads attributes from the index: a `.gitattributes` naming
/// irgit's drivers in the work tree only is not in effect for it yet.
fn check_staged_attributes(top: &Path, config: &Config) -> Option<Finding> {
    let patterns: Vec<&String> = config
        .files
        .text
        .iter()
        .chain(&config.files.bitcode)
        .collect();
    // A file name each pattern matches, to ask git about (never shown).
    let probes: Vec<String> = patterns
        .iter()
        .map(|p| p.replace("**/", "").replace('*', "probe").replace('?', "p"))
        .collect();
    let refs: Vec<&str> = probes.iter().map(String::as_str).collect();
    let ours = |v: &String| v == drivers::DIFF_TEXT || v == drivers::DIFF_BITCODE;
    let worktree = cmd::check_attr(top, "diff", &refs, false).ok()?;
    let index = cmd::check_attr(top, "diff", &refs, true).ok()?;
    let unseen = patterns
        .iter()
        .zip(worktree.iter().zip(&index))
        .find(|(_, (w, i))| ours(w) && !ours(i))?;
    Some(note(
        format!(
            "the pre-commit hook reads attributes from the index, where no staged .gitattributes \
             names irgit's driver for `{}` files yet: it leaves them as written until then",
            unseen.0
        ),
        "`git add .gitattributes` (and commit it)",
    ))
}
