//! `irgit-textconv FILE`: the diff driver's command, a small program without
//! LLVM so that git, which runs it for each side of each file of each commit
//! of `git log -p`, starts it in a few milliseconds. A cached canonical text
//! is printed directly; otherwise the resident server (`irgit
//! textconv-server`, LLVM loaded once) computes it, or, when it cannot,
//! `irgit canon` (the `irgit` beside it) runs as a child, exactly as for
//! `irgit textconv FILE`.
//!
//! ```text
//! git log -p ─► irgit-textconv /tmp/XXXX_f.ll ─► .git/irgit/textconv-cache hit: print it
//!                                              └► miss: resident server, else irgit canon
//!                                                 (time-limited), store, print
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: irgit-textconv [--config FILE] FILE\n\
    The command git's diff driver runs (`irgit install` configures it); prints the canonical \
    form of FILE, or FILE unchanged with one line on stderr when it cannot.";

fn main() -> ExitCode {
    // `git diff` as installed (`diff.llvm-ir.command`): the two-sided diff,
    // started as fast as textconv.
    let all: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if all.len() >= 2 && all[0] == "diff" && all[1] == "--smallest" {
        let colour = irgit::git::two_sided::colour_wanted(true);
        return irgit::git::two_sided::run_as_external_diff(&all[2..], colour);
    }
    let mut args = std::env::args_os().skip(1);
    let mut config = None;
    let mut files = Vec::new();
    while let Some(a) = args.next() {
        match a.to_str() {
            Some("--") => files.extend(args.by_ref().map(PathBuf::from)),
            Some("--version") => {
                println!("irgit {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            Some("-h" | "--help") => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            Some("--config") => config = args.next().map(PathBuf::from),
            // The form's id, there for git's textconv cache (`irgit install --git-cache`).
            Some(a) if a.starts_with("--canon-version=") => {}
            _ => files.push(PathBuf::from(a)),
        }
    }
    let [file] = &files[..] else {
        eprintln!("irgit-textconv: expected one FILE\n{USAGE}");
        return ExitCode::from(2);
    };
    irgit::git::textconv::run(
        file,
        config.as_deref(),
        irgit::git::textconv::Worker::Resident,
    );
    ExitCode::SUCCESS
}
