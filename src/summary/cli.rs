//! `irgit diff`: the command. Three ways to name the two modules:
//!
//! ```text
//! irgit diff OLD NEW                    two files (text or bitcode; /dev/null for none)
//! irgit diff REV1 REV2 -- PATH          two revisions of PATH, read from git (git2)
//! irgit diff REV -- PATH                REV against the file in the work tree
//! irgit diff PATH OLD HEX MODE NEW HEX MODE     git's external diff (diff.<driver>.command)
//! ```
//!
//! As git's external diff it never fails: git stops the whole `git diff` at
//! the first external command that exits non-zero, so a file that is not
//! valid IR gets one line saying so, then git's own line diff of the two
//! files (`plain`), and exit status 0. The comparison runs
//! in a child process (as textconv's canonicalization does), so even an
//! abort inside LLVM cannot take git down with it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use super::range;
use super::render::{self, Paint};
use super::{diff_bytes, Options, DEFAULT_MIN_MOVED, DEFAULT_RENAME_THRESHOLD};

/// When to colour the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal (or git's pager), unless NO_COLOR is set
    Auto,
    Always,
    Never,
}

/// Arguments of `irgit diff`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    irgit diff old.ll new.ll                 # which functions changed, were added, removed, renamed\n  \
    irgit diff --stat a.bc b.bc              # one line per changed function, with a bar\n  \
    irgit diff -p old.ll new.ll              # the canonical diff of each changed function\n  \
    irgit diff --json old.ll new.ll          # machine-readable (schema: README, version 1)\n  \
    irgit diff HEAD~1 HEAD -- src/kernel.ll  # two revisions of a file in git\n  \
    irgit diff HEAD -- src/kernel.ll         # HEAD against the work tree\n  \
    irgit diff --matched old.ll new.ll       # the files as written, the new one in the old one's names\n  \
    irgit diff --html old.ll new.ll > d.html # a page: old and new CFG of each changed function, side by side\n  \
    irgit diff --html HEAD~1 HEAD -- a.ll > d.html   # the same for two revisions of a file\n  \
    irgit diff --open old.ll new.ll          # the page in a temporary file, opened in $BROWSER (or xdg-open)\n  \
    irgit diff --markdown main HEAD          # a pull-request comment (GitHub Markdown) on every changed IR file\n  \
    irgit diff --markdown \"$BASE\" \"$HEAD\" -- test/  # the same for the IR files under test/ (docs/ci-review.md)\n  \
    git difftool -t irgit HEAD~1             # after `irgit install --difftool`: one page per changed file\n  \
    irgit install --diff-summary             # make `git diff` show this summary for IR files\n  \
    irgit install --diff-matched             # make `git diff` show the matched diff for IR files\n\n\
    Renamed functions are found by comparing bodies, not names: a function that disappeared and\n\
    one that appeared with the same type and a body that is at least --rename-threshold similar\n\
    (shared instructions over the mean size) are reported as one function renamed.\n\
    Moved code: instruction sequences of at least --min-moved instructions that the new module\n\
    added to one function and the old module had in another (inlining, outlining, refactoring).\n\n\
    Exit status: 0 (with --exit-code: 0 no difference, 1 differences), 2 when an input cannot be\n\
    read or is not valid IR. As git's external diff (7 or 9 arguments) it always exits 0.")]
pub struct DiffArgs {
    /// OLD NEW; or `REV1 [REV2]` followed by `-- PATH`; or the 7 arguments git
    /// passes to an external diff
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,
    /// The file in the repository whose revisions to compare
    #[arg(last = true, value_name = "PATH")]
    pub path: Vec<String>,
    /// One line per changed function with a bar of +/- (like git diff --stat)
    #[arg(long)]
    pub stat: bool,
    /// The canonical diff of each changed function, with the function as hunk header
    #[arg(short = 'p', long = "patch")]
    pub patch: bool,
    /// Machine-readable output (versioned schema, see the README)
    #[arg(long, conflicts_with_all = ["stat", "patch"])]
    pub json: bool,
    /// A line diff of the files as written, the new one in the old one's
    /// names wherever values match: unchanged lines are equal
    #[arg(long, conflicts_with_all = ["stat", "patch", "json"])]
    pub matched: bool,
    /// A self-contained HTML page: the old and the new control-flow graph of
    /// each changed function side by side, blocks coloured added, removed,
    /// changed, unchanged; click a block for its lines and its change
    #[arg(long, conflicts_with_all = ["stat", "patch", "json", "matched"])]
    pub html: bool,
    /// Write the page (--html) to a temporary file, print its path and open
    /// it with $IRGIT_BROWSER, $BROWSER or xdg-open (`none`: only print)
    #[arg(long, conflicts_with_all = ["stat", "patch", "json", "matched"])]
    pub open: bool,
    /// A pull-request comment in GitHub-flavoured Markdown on every IR file
    /// REV1 REV2 changed (or those of `-- PATH...`): per file a table of the
    /// changed functions, each one's --matched diff collapsed, within
    /// GitHub's 65,536-character limit (docs/ci-review.md)
    #[arg(long, conflicts_with_all = ["stat", "patch", "json", "matched", "html", "open"])]
    pub markdown: bool,
    /// Colour the output
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto",
          num_args = 0..=1, require_equals = true, default_missing_value = "always")]
    pub color: ColorWhen,
    /// Least similarity (0..1) for a function that disappeared and one that
    /// appeared to be reported as renamed and edited; 1 reports only
    /// renames with unchanged bodies
    #[arg(long, value_name = "X", default_value_t = DEFAULT_RENAME_THRESHOLD)]
    pub rename_threshold: f64,
    /// Shortest instruction sequence reported as moved code; 0 turns the search off
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MIN_MOVED)]
    pub min_moved: usize,
    /// As git's external diff (what `irgit install` sets up): the smaller
    /// of git's own line diff and the diff of the two views, never longer
    /// than git's; a version LLVM rejects gets git's diff
    #[arg(long, conflicts_with_all = ["stat", "patch", "json", "matched", "html", "open", "markdown"])]
    pub smallest: bool,
    /// Exit with status 1 when the modules differ
    #[arg(long)]
    pub exit_code: bool,
    /// Canonicalize every function, also those equal on both sides (slower,
    /// same report: for checking that claim)
    #[arg(long, hide = true)]
    pub full: bool,
    /// Name of the old side in the output (default: its path)
    #[arg(long, value_name = "NAME", hide = true)]
    pub old_label: Option<String>,
    /// Name of the new side in the output (default: its path)
    #[arg(long, value_name = "NAME", hide = true)]
    pub new_label: Option<String>,
}

/// The two inputs, read.
struct Inputs {
    old: Option<Vec<u8>>,
    new: Option<Vec<u8>>,
    old_label: String,
    new_label: String,
}

fn is_null_device(p: &str) -> bool {
    p == "/dev/null"
}

fn read_file(p: &str) -> Result<Option<Vec<u8>>, String> {
    if is_null_device(p) {
        return Ok(None);
    }
    std::fs::read(p).map(Some).map_err(|e| format!("{p}: {e}"))
}

/// The bytes of `path` (relative to the current directory) at `rev`, or
/// `None` if the revision has no such file.
fn read_revision(rev: &str, path: &str) -> Result<Option<Vec<u8>>, String> {
    let (repo, cwd) = range::discover()?;
    let top = range::work_tree(&repo)?;
    let rel = range::repo_relative(top, &cwd, Path::new(path))?;
    let tree = range::tree_of(&repo, rev)?;
    let entry = match tree.get_path(&rel) {
        Ok(e) => e,
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(None),
        Err(e) => return Err(format!("{rev}:{}: {}", rel.display(), e.message())),
    };
    let blob = entry
        .to_object(&repo)
        .and_then(|o| o.peel_to_blob())
        .map_err(|e| format!("{rev}:{}: {}", rel.display(), e.message()))?;
    Ok(Some(blob.content().to_vec()))
}

fn inputs(args: &DiffArgs) -> Result<Inputs, String> {
    if !args.path.is_empty() {
        let [path] = args.path.as_slice() else {
            return Err("give one PATH after `--`".into());
        };
        let (old, new, ol, nl) = match args.args.as_slice() {
            [r1] => (
                read_revision(r1, path)?,
                read_file(path).map_err(|e| format!("work tree: {e}"))?,
                format!("{r1}:{path}"),
                path.clone(),
            ),
            [r1, r2] => (
                read_revision(r1, path)?,
                read_revision(r2, path)?,
                format!("{r1}:{path}"),
                format!("{r2}:{path}"),
            ),
            _ => return Err("give one or two revisions before `-- PATH`".into()),
        };
        if let ([rev], None) = (args.args.as_slice(), &old) {
            return Err(format!(
                "{path}: not in {rev} (a path relative to the current directory; \
                 `irgit diff /dev/null {path}` shows the whole file as added)"
            ));
        }
        if old.is_none() && new.is_none() {
            return Err(format!("{path}: in neither revision"));
        }
        return Ok(Inputs {
            old,
            new,
            old_label: ol,
            new_label: nl,
        });
    }
    let [a, b] = args.args.as_slice() else {
        return Err(format!(
            "expected OLD NEW (or REV1 REV2 -- PATH), got {} argument(s); see `irgit diff --help`",
            args.args.len()
        ));
    };
    let old = read_file(a)?;
    let new = read_file(b)?;
    if old.is_none() && new.is_none() {
        return Err("both sides are /dev/null".into());
    }
    Ok(Inputs {
        old,
        new,
        old_label: args.old_label.clone().unwrap_or_else(|| a.clone()),
        new_label: args.new_label.clone().unwrap_or_else(|| b.clone()),
    })
}

fn colour_on(when: ColorWhen, external: bool) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => crate::git::two_sided::colour_wanted(external),
    }
}

fn columns() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|&c: &usize| c >= 40)
        .unwrap_or(80)
}

fn write_stdout(text: &str) {
    // A pager that quit early closes the pipe; that is not an error.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Whether git called us as its external diff.
fn external_call(args: &DiffArgs) -> bool {
    args.path.is_empty()
        && (args.args.len() == 7
            || args.args.len() == 9
            || (args.args.len() == 1 && std::env::var_os("GIT_DIFF_PATH_COUNTER").is_some()))
}

/// Runs `irgit diff`.
pub fn run(args: DiffArgs) -> ExitCode {
    if !(0.0..=1.0).contains(&args.rename_threshold) {
        eprintln!("irgit diff: --rename-threshold must be between 0 and 1");
        return ExitCode::from(2);
    }
    if external_call(&args) {
        if args.smallest {
            let colour = colour_on(args.color, true);
            return crate::git::two_sided::run_as_external_diff(&args.args, colour);
        }
        run_external(&args);
        return ExitCode::SUCCESS;
    }
    if args.smallest {
        eprintln!("irgit diff: --smallest is git's external diff: `irgit install` sets it up (diff.llvm-ir.command)");
        return ExitCode::from(2);
    }
    if args.markdown {
        return run_markdown(&args);
    }
    let inputs = match inputs(&args) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("irgit diff: {e}");
            return ExitCode::from(2);
        }
    };
    let paint = Paint {
        on: colour_on(args.color, false),
    };
    if args.matched {
        return run_matched(&inputs, paint, args.exit_code);
    }
    let opts = options(&args);
    let result = diff_bytes(
        inputs.old.as_deref(),
        inputs.new.as_deref(),
        &inputs.old_label,
        &inputs.new_label,
        &opts,
    );
    let (report, old, new) = match result {
        Ok(x) => x,
        Err(e) => {
            eprintln!("irgit diff: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = String::new();
    if args.open {
        let page = super::html::page(&report, &old, &new);
        std::mem::forget((old, new));
        return open_page(&page, &inputs.new_label);
    }
    if args.html {
        out = super::html::page(&report, &old, &new);
    } else if args.json {
        out = render::json(&report);
    } else {
        if args.stat {
            out.push_str(&render::stat(&report, paint, columns()));
        }
        if args.patch {
            if args.stat {
                out.push('\n');
            }
            out.push_str(&render::patch(&report, &old, &new, paint));
        }
        if !args.stat && !args.patch {
            out.push_str(&render::summary(&report, paint));
        }
    }
    write_stdout(&out);
    // The process ends here: leave the parsed texts to the OS.
    std::mem::forget((old, new));
    if args.exit_code && report.has_changes() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The comparison's settings from the command line.
fn options(args: &DiffArgs) -> Options {
    Options {
        // 1 means "bodies must be equal": the similarity stage is skipped.
        rename_threshold: if args.rename_threshold >= 1.0 {
            f64::INFINITY
        } else {
            args.rename_threshold
        },
        min_moved: args.min_moved,
        reduce: !args.full,
        keep_written: args.html || args.open,
    }
}

/// How many 50 ms steps `--open` waits for the opener to return.
const OPENER_WAIT_STEPS: usize = 60;

/// `--open`: writes the page to a new temporary file named after `label`,
/// prints its path, and opens it in the browser.
fn open_page(page: &str, label: &str) -> ExitCode {
    let stem: String = Path::new(label)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let file = tempfile::Builder::new()
        .prefix(&format!("irgit-diff-{stem}-"))
        .suffix(".html")
        .tempfile()
        .and_then(|f| f.keep().map_err(|e| e.error));
    let (mut file, path) = match file {
        Ok(x) => x,
        Err(e) => {
            eprintln!("irgit diff: cannot write the page: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = file.write_all(page.as_bytes()) {
        eprintln!("irgit diff: {}: {e}", path.display());
        return ExitCode::from(2);
    }
    drop(file);
    write_stdout(&format!("{}\n", path.display()));
    let opener = ["IRGIT_BROWSER", "BROWSER"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.trim().is_empty()))
        .unwrap_or_else(|| "xdg-open".to_string());
    if opener == "none" {
        return ExitCode::SUCCESS;
    }
    // $BROWSER may hold a command with arguments, or a list (a:b).
    let first = opener.split(':').next().unwrap_or(&opener).to_string();
    let mut words = first.split_whitespace();
    let Some(program) = words.next() else {
        return ExitCode::SUCCESS;
    };
    let spawned = Command::new(program)
        .args(words)
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn();
    match spawned {
        // A browser that stays open is left running: wait a little only,
        // so that a quick opener (xdg-open) is done when we return.
        Ok(mut child) => {
            for _ in 0..OPENER_WAIT_STEPS {
                if !matches!(child.try_wait(), Ok(None)) {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
        Err(e) => eprintln!(
            "irgit diff: cannot run {program} (the page is {}): {e}",
            path.display()
        ),
    }
    ExitCode::SUCCESS
}

/// `--markdown REV1 REV2 [-- PATH...]`: the comment on every IR file the
/// range changed.
fn run_markdown(args: &DiffArgs) -> ExitCode {
    let [rev1, rev2] = args.args.as_slice() else {
        eprintln!(
            "irgit diff: --markdown takes two revisions (REV1 REV2 [-- PATH...]), got {} argument(s)",
            args.args.len()
        );
        return ExitCode::from(2);
    };
    let comment = range::entries(rev1, rev2, &args.path, &options(args)).map(|files| {
        let changed = !files.is_empty();
        (super::markdown::comment(rev1, rev2, &files), changed)
    });
    printed(comment, args.exit_code)
}

/// Prints what a command made (and exits 1 for `--exit-code` when the
/// modules differ), or says why it could not (exit 2).
fn printed(made: Result<(String, bool), String>, exit_code: bool) -> ExitCode {
    match made {
        Ok((text, changed)) => {
            write_stdout(&text);
            if exit_code && changed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("irgit diff: {e}");
            ExitCode::from(2)
        }
    }
}

/// `--matched`: the matched diff of the two inputs.
fn run_matched(inputs: &Inputs, paint: Paint, exit_code: bool) -> ExitCode {
    let diff = super::matched::matched_diff(
        inputs.old.as_deref(),
        inputs.new.as_deref(),
        &inputs.old_label,
        &inputs.new_label,
        paint,
    );
    printed(
        diff.map_err(|e| e.to_string()).map(|text| {
            let changed = !text.is_empty();
            (text, changed)
        }),
        exit_code,
    )
}

/// git's external diff: `PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX
/// NEW-MODE [NEW-PATH MESSAGE]`, or `PATH` alone for an unmerged path.
fn run_external(args: &DiffArgs) {
    let a = &args.args;
    let path = &a[0];
    let paint = Paint {
        on: colour_on(args.color, true),
    };
    if a.len() == 1 {
        write_stdout(&format!(
            "{}\n{path}: unmerged, nothing to compare\n",
            paint.paint(render::BOLD, &format!("irgit diff {path}"))
        ));
        return;
    }
    let new_path = if a.len() == 9 { &a[7] } else { path };
    let mut out = format!(
        "{}\n",
        paint.paint(render::BOLD, &format!("irgit diff a/{path} b/{new_path}"))
    );
    if a.len() == 9 && !a[8].trim().is_empty() {
        out.push_str(a[8].trim_end());
        out.push('\n');
    }
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("irgit"));
    let mut cmd = Command::new(exe);
    cmd.arg("diff")
        .arg(format!(
            "--color={}",
            if paint.on { "always" } else { "never" }
        ))
        .arg(format!("--rename-threshold={}", args.rename_threshold))
        .arg(format!("--min-moved={}", args.min_moved))
        .arg(format!("--old-label=a/{path}"))
        .arg(format!("--new-label=b/{new_path}"));
    if args.stat {
        cmd.arg("--stat");
    }
    if args.patch {
        cmd.arg("--patch");
    }
    if args.json {
        cmd.arg("--json");
    }
    if args.matched {
        cmd.arg("--matched");
    }
    cmd.arg(&a[1]).arg(&a[4]).stdin(Stdio::null());
    match cmd.output() {
        Ok(o) if o.status.success() => {
            out.push_str(&String::from_utf8_lossy(&o.stdout));
        }
        Ok(o) => {
            let why = String::from_utf8_lossy(&o.stderr);
            let why = why
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("irgit diff: ")
                .to_string();
            let why = if why.is_empty() {
                format!("the comparison failed ({})", o.status)
            } else {
                why
            };
            out.push_str(&format!("{path}: not compared as LLVM IR: {why}\n"));
            out.push_str(&plain_diff_of(&a[1], &a[4], path, new_path));
        }
        Err(e) => {
            out.push_str(&format!("{path}: cannot run irgit: {e}\n"));
            out.push_str(&plain_diff_of(&a[1], &a[4], path, new_path));
        }
    }
    write_stdout(&out);
}

/// git's own diff of the two files git handed over, for when they cannot
/// be compared as IR.
fn plain_diff_of(old_file: &str, new_file: &str, path: &str, new_path: &str) -> String {
    match (read_file(old_file), read_file(new_file)) {
        (Ok(old), Ok(new)) => super::plain::plain_diff(
            old.as_deref(),
            new.as_deref(),
            &format!("a/{path}"),
            &format!("b/{new_path}"),
        ),
        (Err(why), _) | (_, Err(why)) => format!("{path}: {why}\n"),
    }
}
