//! `irgit merge`: the git merge driver (`irgit merge %O %A %B %L %P`) and a
//! standalone three-way merge (`irgit merge BASE OURS THEIRS -o OUT`).
//!
//! Exit status follows git's contract: 0 clean, 1 conflicts (the output holds
//! markers), 2 when the files cannot be read or written. The structured merge
//! runs in a worker thread under a timeout, behind `catch_unwind`: a panic or
//! a timeout falls back to a line merge that never reports a clean result.
//!
//! ```text
//! $ irgit merge base.ll ours.ll theirs.ll -o merged.ll ; echo $?
//! 0
//! ```
//!
//! `IRGIT_MERGE_STRUCTURED_ONLY=1` skips the text-safe merge
//! ([`super::text_safe`]): the result is the same, reached by the
//! structured merge, to compare the two routes' time.

use crate::three::Three;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use super::fallback::line_merge_favoring;
use super::render::{self, Keep, Markers, Style};
use super::{favor, merge_bytes_by, output_bytes, MergeError, Outcome, Route};
use crate::config::{Config, MergeOptions};

/// Arguments of `irgit merge`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    irgit merge base.ll ours.ll theirs.ll -o merged.ll   # three-way merge into merged.ll\n  \
    irgit merge base.ll ours.ll theirs.ll                # ... written over ours.ll, as git's driver does\n  \
    irgit merge --style diff3 base.ll ours.ll theirs.ll -o m.ll   # conflicts with the base section\n  \
    git checkout --conflict=diff3 a.ll                   # re-create a conflict of a merge in that style\n\n\
    Exit status: 0 clean merge, 1 conflicts (markers written), 2 I/O error.\n\
    git setup: merge.llvm-ir.driver = irgit merge %O %A %B %L %P --base-label %S --ours-label %X --theirs-label %Y")]
pub struct MergeArgs {
    /// The common ancestor (%O)
    pub base: PathBuf,
    /// Our version (%A); overwritten with the result unless -o is given
    pub ours: PathBuf,
    /// Their version (%B)
    pub theirs: PathBuf,
    /// Conflict marker length (%L)
    #[arg(default_value_t = 7)]
    pub marker_size: usize,
    /// The file's path in the repository (%P), for labels and messages
    pub path: Option<String>,
    /// Write the result here instead of overwriting OURS
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Conflict style (default: `git checkout --conflict=STYLE` when that runs
    /// the driver, else `merge.style` in .irgit.yaml, else git's
    /// `merge.conflictStyle`, else merge, git's default)
    #[arg(long, value_enum)]
    pub style: Option<Style>,
    /// Give up on the structured merge after this many seconds, then line merge
    /// (default: `merge.timeout_seconds` in .irgit.yaml, else 120)
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<u64>,
    /// Label of our side in conflict markers
    #[arg(long, default_value = "ours")]
    pub ours_label: String,
    /// Label of the base in conflict markers
    #[arg(long, default_value = "base")]
    pub base_label: String,
    /// Label of their side in conflict markers
    #[arg(long, default_value = "theirs")]
    pub theirs_label: String,
}

/// The `merge:` settings: from `--config`, else `.irgit.yaml` found from the
/// current directory (git runs drivers at the top of the work tree).
fn merge_options(explicit: Option<&Path>) -> Result<MergeOptions, String> {
    let config = match explicit {
        Some(p) => Config::load(p),
        None => {
            let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
            Config::discover(&cwd)
        }
    };
    config.map(|c| c.merge).map_err(|e| e.to_string())
}

pub fn run(args: MergeArgs, config: Option<&Path>) -> ExitCode {
    let display = args
        .path
        .clone()
        .unwrap_or_else(|| args.ours.display().to_string());
    let options = match merge_options(config) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("irgit merge: {display}: {e}");
            return ExitCode::from(2);
        }
    };
    let markers = Markers {
        size: args.marker_size,
        style: conflict_style(args.style, options.style),
        ours: label_or(&args.ours_label, "ours"),
        base: label_or(&args.base_label, "base"),
        theirs: label_or(&args.theirs_label, "theirs"),
    };
    let out_path = args.output.clone().unwrap_or_else(|| args.ours.clone());
    let inputs = read_input(&args.base)
        .and_then(|b| Ok((b, read_input(&args.ours)?, read_input(&args.theirs)?)));
    let (base, ours, theirs) = match inputs {
        Ok(x) => x,
        Err(e) => {
            eprintln!("irgit merge: {e}");
            return ExitCode::from(2);
        }
    };
    let timeout = Duration::from_secs(args.timeout.unwrap_or(options.timeout_seconds).max(1));
    let inputs = Inputs {
        base,
        ours,
        theirs,
        display: display.clone(),
        markers: markers.clone(),
    };
    let favor = favored_side(&markers);
    let ours_is_bitcode = crate::canon::is_bitcode(&inputs.ours);
    match structured_merge(inputs, timeout) {
        Ok((o, bytes)) => {
            let (o, bytes) = favoring(o, bytes, favor, &markers, &display, ours_is_bitcode);
            let (o, bytes) = checked_if_generated(o, bytes, &args, &markers);
            let (o, bytes) = marked_if_unmarked(o, bytes, &args, &markers, ours_is_bitcode);
            write_structured(&o, &bytes, &out_path, &display, &markers)
        }
        Err((reason, input_rejected)) => {
            let reason = naming_the_side(reason, &args, &display);
            let reason = reason.lines().next().unwrap_or_default();
            eprintln!("irgit merge: {display}: falling back to a line merge: {reason}");
            let fallback = Fallback {
                input_rejected,
                favor,
            };
            fall_back_to_lines(&args, &markers, &out_path, &display, fallback)
        }
    }
}

/// The side git's `-X ours` / `-X theirs` favours. Not in the merge of two
/// merge bases that git runs first in a criss-cross merge (its labels are
/// git's "Temporary merge branch"es): git favours no side there either.
fn favored_side(markers: &Markers) -> Option<Keep> {
    let inner = [&markers.ours, &markers.theirs]
        .iter()
        .any(|label| label.starts_with("Temporary merge branch"));
    if inner {
        return None;
    }
    crate::git::strategy_option::requested_by_git()
}

/// A result with conflicts, with each resolved to the side `favor` names
/// (exit 0) when LLVM accepts the result; else unchanged, with a note why.
fn favoring(
    mut o: Outcome,
    bytes: Vec<u8>,
    favor: Option<Keep>,
    markers: &Markers,
    display: &str,
    as_bitcode: bool,
) -> (Outcome, Vec<u8>) {
    let Some(keep) = favor.filter(|_| o.conflicts > 0) else {
        return (o, bytes);
    };
    let option = favor::option_name(keep);
    match favor::resolve(&bytes, keep, markers, display, as_bitcode) {
        Ok(resolved) => {
            o.notes.push(format!(
                "{} conflict(s) resolved to the side {option} favours",
                o.conflicts
            ));
            o.conflicts = 0;
            (o, resolved)
        }
        Err(why) => {
            o.notes.push(format!(
                "{option}: the conflicts are kept: resolved that way the result is not \
                 valid LLVM IR ({why})"
            ));
            (o, bytes)
        }
    }
}

/// A reason about one side (`base version: ...`) naming that side's file.
/// Every side is parsed under one name (`%P`, else ours' file), so LLVM's
/// message names ours' file for the base and theirs too; outside git
/// (no `%P`) the file is the one given for that side.
fn naming_the_side(reason: String, args: &MergeArgs, display: &str) -> String {
    if args.path.is_some() {
        return reason;
    }
    let sides = [
        ("base", &args.base),
        ("ours", &args.ours),
        ("theirs", &args.theirs),
    ];
    for (side, file) in sides {
        let version = super::loading::version_name(side, side);
        if let Some(rest) = reason.strip_prefix(&format!("{version}: ")) {
            let named = rest.replacen(&format!("{display}:"), &format!("{}:", file.display()), 1);
            return format!("{version}: {named}");
        }
    }
    reason
}

/// A merge input's bytes, or a message naming the file.
fn read_input(p: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(p).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{}: no such file", p.display()),
        _ => format!("{}: cannot read it: {e}", p.display()),
    })
}

/// The merge's route: [`Route::StructuredOnly`] when
/// `IRGIT_MERGE_STRUCTURED_ONLY=1` says so.
fn route() -> Route {
    match std::env::var_os("IRGIT_MERGE_STRUCTURED_ONLY").is_some_and(|v| v == "1") {
        true => Route::StructuredOnly,
        false => Route::TextSafeFirst,
    }
}

/// What the structured merge's worker thread needs.
struct Inputs {
    base: Vec<u8>,
    ours: Vec<u8>,
    theirs: Vec<u8>,
    display: String,
    markers: Markers,
}

/// The structured merge in a worker thread (a big stack, panics caught)
/// under `timeout`: the outcome and the bytes to write, or why not, with
/// whether LLVM rejected an input (then git's line merge is the answer).
fn structured_merge(
    inputs: Inputs,
    timeout: Duration,
) -> Result<(Outcome, Vec<u8>), (String, bool)> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("irgit-merge".into())
        .stack_size(256 << 20)
        .spawn(move || {
            let Inputs {
                base,
                ours,
                theirs,
                display,
                markers,
            } = inputs;
            let r = std::panic::catch_unwind(|| {
                let inputs = Three::new(&base[..], &ours[..], &theirs[..]);
                merge_bytes_by(route(), inputs, &display, &markers).and_then(|o| {
                    let bytes = output_bytes(&ours, &o, &display)?;
                    Ok((o, bytes))
                })
            });
            let _ = tx.send(r);
        });
    if let Err(e) = spawned {
        return Err((format!("cannot start the merge: {e}"), false));
    }
    let received = rx.recv_timeout(timeout);
    crate::canon::PhaseTimer::new().lap("merge: result received");
    match received {
        Ok(Ok(Ok(o))) => Ok(o),
        Ok(Ok(Err(MergeError::Input(e)))) => Err((e, true)),
        Ok(Ok(Err(MergeError::Internal(e)))) => Err((e, false)),
        Ok(Err(_)) => Err((
            "the structured merge panicked (please report this bug)".into(),
            false,
        )),
        Err(mpsc::RecvTimeoutError::Timeout) => Err((
            format!(
                "the structured merge took longer than {}s",
                timeout.as_secs()
            ),
            false,
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(("the structured merge stopped unexpectedly".into(), false))
        }
    }
}

/// A result of a test whose CHECK lines a script wrote. A clean one that
/// combines both sides' changes to one function's checks is kept only when
/// FileCheck passes on it ([`crate::checks::refusal`]). Where it is not,
/// or where the CHECK lines conflict, the checks are written anew for the
/// merged IR when a regenerator proves itself on the three versions
/// ([`crate::checks::regenerate`]); else git's conflicts, or one conflict
/// over the lines where the files differ when git's merge is clean.
fn checked_if_generated(
    mut o: Outcome,
    bytes: Vec<u8>,
    args: &MergeArgs,
    markers: &Markers,
) -> (Outcome, Vec<u8>) {
    let read = |p: &PathBuf| std::fs::read_to_string(p);
    let (Ok(base), Ok(ours), Ok(theirs)) = (read(&args.base), read(&args.ours), read(&args.theirs))
    else {
        return (o, bytes);
    };
    let versions = Three::new(base.as_str(), ours.as_str(), theirs.as_str());
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let tools = std::cell::OnceCell::new();
    let tools = || {
        tools
            .get_or_init(|| crate::git::llvm_tools::configured(&cwd))
            .clone()
    };
    let refused = match o.conflicts {
        0 => {
            let merged = crate::checks::Merged {
                base: base.as_bytes(),
                ours: ours.as_bytes(),
                theirs: theirs.as_bytes(),
                result: &bytes,
            };
            match crate::checks::refusal(&merged, tools) {
                Some(why) => why,
                None => return (o, bytes),
            }
        }
        _ if crate::checks::generated_by(&ours).is_none() => return (o, bytes),
        _ => String::new(),
    };
    let tools = tools();
    let merge_ir = |bare: Three<&str>| merged_ir(bare, args);
    match crate::checks::regenerate::merged_by_regeneration(versions, &tools, merge_ir) {
        Ok(text) => {
            let by = crate::checks::regenerate::regenerator_name(&tools);
            let mut done = Outcome::exact(text.as_bytes(), 0, super::MadeBy::Regenerated);
            done.notes.push(format!(
                "its CHECK lines were written by a script; the IR merged, and they were written \
                 anew for the merged IR by {by}, which first wrote each version's own CHECK \
                 lines as they are; FileCheck passes on every RUN line"
            ));
            (done, text.into_bytes())
        }
        Err(not) if refused.is_empty() => {
            o.notes.push(format!(
                "its CHECK lines were not regenerated ({not}); after the merge, `irgit \
                 regenerate {}` writes them anew",
                args.path.as_deref().unwrap_or("FILE")
            ));
            (o, bytes)
        }
        Err(not) => {
            o.notes
                .push(format!("{refused}; irgit did not regenerate them: {not}"));
            as_generated_conflict(o, bytes, args, markers)
        }
    }
}

/// The merge of the IR of three versions whose CHECK lines were set
/// aside: clean, or why not.
fn merged_ir(bare: Three<&str>, args: &MergeArgs) -> Result<String, String> {
    let path = args.path.as_deref().unwrap_or("test.ll");
    let Three { base, ours, theirs } = bare.map(str::as_bytes);
    // On a thread with the structured merge's stack, as `structured_merge` runs it.
    let merged = std::thread::scope(|scope| {
        let merge = || super::merge_bytes(base, ours, theirs, path, &Markers::default());
        let worker = std::thread::Builder::new().stack_size(256 << 20);
        match worker.spawn_scoped(scope, merge) {
            Ok(handle) => handle
                .join()
                .map_err(|_| "the merge of the IR stopped".to_string()),
            Err(e) => Err(format!("no thread for the merge of the IR: {e}")),
        }
    })?;
    let o = merged.map_err(|e| e.to_string())?;
    if o.conflicts > 0 {
        return Err("its IR does not merge cleanly once the CHECK lines are set aside".into());
    }
    let bytes = output_bytes(ours, &o, path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "the merged IR is not UTF-8".into())
}

/// A clean result FileCheck refused, written as git's conflicts, or one
/// conflict over the lines where the files differ when git's merge is clean.
fn as_generated_conflict(
    mut o: Outcome,
    bytes: Vec<u8>,
    args: &MergeArgs,
    markers: &Markers,
) -> (Outcome, Vec<u8>) {
    o.made_by = super::Conflict::GeneratedChecks.into();
    let git = line_merge_favoring(&args.base, &args.ours, &args.theirs, markers, None);
    let marked = match git {
        Ok(lm) if !lm.is_clean() => Some(lm.text),
        _ => marked_over_differences(args, markers),
    };
    match marked {
        Some(text) => {
            o.conflicts = render::regions(&String::from_utf8_lossy(&text), markers)
                .iter()
                .filter(|r| matches!(r, render::Region::Conflict { .. }))
                .count()
                .max(1);
            o.bytes = Some(text.clone());
            (o, text)
        }
        None => {
            o.conflicts = 1;
            (o, bytes)
        }
    }
}

/// A result with conflicts but no markers in its text (a clean structured
/// merge that could not be written in ours' text is shown for review)
/// gets one conflict over the lines where the files differ: an exit of 1
/// always leaves markers. (Bitcode is left as it is.)
fn marked_if_unmarked(
    mut o: Outcome,
    bytes: Vec<u8>,
    args: &MergeArgs,
    markers: &Markers,
    ours_is_bitcode: bool,
) -> (Outcome, Vec<u8>) {
    let unmarked = !render::has_conflicts(&String::from_utf8_lossy(&bytes), markers);
    if o.conflicts == 0 || ours_is_bitcode || !unmarked {
        return (o, bytes);
    }
    match marked_over_differences(args, markers) {
        Some(marked) => {
            o.notes.push(
                "the result has no markers to show its conflicts: written as one conflict \
                 over the lines where the files differ"
                    .into(),
            );
            (o, marked)
        }
        None => (o, bytes),
    }
}

/// Writes the structured merge's result; exit 1 when it has conflicts
/// (stderr then says where they are: `2 conflict(s) (in @f and outside
/// functions)`).
fn write_structured(
    o: &Outcome,
    bytes: &[u8],
    out_path: &Path,
    display: &str,
    markers: &Markers,
) -> ExitCode {
    if let Err(e) = std::fs::write(out_path, bytes) {
        eprintln!(
            "irgit merge: {display}: cannot write {}: {e}",
            out_path.display()
        );
        return ExitCode::from(2);
    }
    for n in &o.notes {
        eprintln!("irgit merge: {display}: {n}");
    }
    if o.conflicts > 0 {
        let places = std::str::from_utf8(bytes)
            .map(|text| super::disputes::conflict_places(text, markers))
            .unwrap_or_default();
        let at = if places.is_empty() {
            String::new()
        } else {
            format!(" ({places})")
        };
        eprintln!("irgit merge: {display}: {} conflict(s){at}", o.conflicts);
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// How the line merge that stands in for the structured one may end.
struct Fallback {
    /// Whether LLVM rejected an input: then git's line merge is the answer,
    /// clean where git is clean. (Else the structured merge itself failed.)
    input_rejected: bool,
    /// The side `-X ours` / `-X theirs` favours.
    favor: Option<Keep>,
}

/// The line merge, when the structured one could not decide.
///
/// When LLVM rejects an input, the result is exactly git's: clean where
/// git is clean, git's markers where it conflicts. LLVM's verdict on the
/// result counts only when it accepted all three inputs (a sanitized
/// `target datalayout = "..."` is rejected in the result as in the
/// inputs). Otherwise a result without conflicts is clean only when a side
/// is favoured and LLVM accepts it.
fn fall_back_to_lines(
    args: &MergeArgs,
    markers: &Markers,
    out_path: &Path,
    display: &str,
    fallback: Fallback,
) -> ExitCode {
    let Fallback {
        input_rejected,
        favor,
    } = fallback;
    let merged = line_merge_favoring(&args.base, &args.ours, &args.theirs, markers, favor);
    let lm = match merged {
        Ok(lm) => lm,
        Err(e) => {
            eprintln!("irgit merge: {display}: {e}; keeping ours");
            if out_path != args.ours {
                let _ = std::fs::copy(&args.ours, out_path);
            }
            return ExitCode::from(1);
        }
    };
    let clean = lm.is_clean();
    let verdict = if !clean || input_rejected {
        Ok(())
    } else if favor.is_some() {
        verify_ir(&lm.text, display)
    } else {
        Err("the structured merge did not finish".to_string())
    };
    let text = match &verdict {
        Err(why) => {
            eprintln!(
                "irgit merge: {display}: the line merge has no conflicts, but its result \
                 cannot be called clean ({why}); written as one conflict over the lines \
                 where the files differ"
            );
            marked_over_differences(args, markers).unwrap_or(lm.text)
        }
        Ok(()) => lm.text,
    };
    if let Err(e) = std::fs::write(out_path, &text) {
        eprintln!(
            "irgit merge: {display}: cannot write {}: {e}",
            out_path.display()
        );
        return ExitCode::from(2);
    }
    match (clean, verdict) {
        (true, Ok(())) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

/// One conflict over the lines where the three inputs differ: what an exit
/// of 1 writes when the line merge has no markers to show (never a file
/// without markers that `git add` would take as resolved). `None` when an
/// input cannot be read again.
fn marked_over_differences(args: &MergeArgs, markers: &Markers) -> Option<Vec<u8>> {
    let text = |p: &Path| {
        std::fs::read(p)
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    let (base, ours, theirs) = (text(&args.base)?, text(&args.ours)?, text(&args.theirs)?);
    Some(render::narrowed_hunk(&ours, &base, &theirs, markers).into_bytes())
}

/// The conflict style, from the first that says: the command line, the
/// `git checkout`/`git restore --conflict=STYLE` that runs the driver,
/// `.irgit.yaml`, git's `merge.conflictStyle`; else git's default, merge.
fn conflict_style(flag: Option<Style>, irgit_yaml: Option<Style>) -> Style {
    use crate::git::conflict_style::{configured, requested_by_checkout};
    flag.or_else(requested_by_checkout)
        .or(irgit_yaml)
        .or_else(|| configured(&std::env::current_dir().ok()?))
        .unwrap_or(Style::Merge)
}

/// A conflict label, or `fallback` when git passed none (an empty `%X` from git < 2.44).
fn label_or(label: &str, fallback: &str) -> String {
    match label.trim() {
        "" => fallback.to_string(),
        given => given.to_string(),
    }
}

/// Parses and verifies a merge result with LLVM.
fn verify_ir(bytes: &[u8], name: &str) -> Result<(), String> {
    let session = crate::ir::Session::new();
    let module = session.parse(bytes, name).map_err(|e| e.to_string())?;
    module.verify_as_parsed().map_err(|e| e.to_string())
}
