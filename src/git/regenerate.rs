//! `irgit regenerate FILE...`: after a merge left a generated test in
//! conflict (or with stale checks), and the user has the right opt, its
//! CHECK lines are written anew for its IR, its conflict markers inside
//! CHECK lines removed, and every other line left as written.
//!
//! ```text
//! <<<<<<< ours                                   ; CHECK-NEXT:    [[A:%.*]] = and i32 [[X]], 14
//! ; CHECK-NEXT:    [[A:%.*]] = and i32 [[X]], 14  ; CHECK-NEXT:    ret i1 [[D]]
//! =======                              ─►         (what opt prints for the merged IR)
//! ; CHECK-NEXT:    [[C:%.*]] = icmp ...
//! >>>>>>> theirs
//! ```
//!
//! The opt and the script are those the user's git config names
//! (`irgit.opt`, `irgit.updateTestChecks`), as for the merge.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::checks::regenerate::{
    passing, prefixes_of, regenerated, regenerator_name, without_checks,
};
use crate::merge::render::{regions, Markers, Region};

/// Regenerates each file in place; exit 1 when one could not be.
pub fn run(files: &[PathBuf]) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let tools = crate::git::llvm_tools::configured(&cwd);
    let mut failed = false;
    for file in files {
        match regenerate_file(file, &tools) {
            Ok(()) => eprintln!(
                "irgit regenerate: {}: CHECK lines written anew by {}; FileCheck passes",
                file.display(),
                regenerator_name(&tools)
            ),
            Err(why) => {
                eprintln!(
                    "irgit regenerate: {}: {why}; the file is left as it was",
                    file.display()
                );
                failed = true;
            }
        }
    }
    match failed {
        true => ExitCode::from(1),
        false => ExitCode::SUCCESS,
    }
}

/// One file: its conflicts resolved where they hold only CHECK lines, its
/// checks regenerated and checked by FileCheck, then written.
fn regenerate_file(file: &Path, tools: &crate::checks::filecheck::Tools) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| crate::io_problem(&e))?;
    let prefixes = prefixes_of(&text);
    let resolved = without_check_conflicts(&text, &prefixes)?;
    let result = passing(
        regenerated(&without_checks(&resolved, &prefixes), tools)?,
        tools,
    )?;
    std::fs::write(file, result).map_err(|e| crate::io_problem(&e))
}

/// `text` with each conflict whose sides differ only in CHECK lines of
/// `prefixes` replaced by ours' side (its checks are written anew); an
/// error naming the first conflict that differs in anything else.
fn without_check_conflicts(text: &str, prefixes: &[String]) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    for region in regions(text, &Markers::default()) {
        match region {
            Region::Outside(l) => out.push_str(l),
            Region::Conflict { ours, theirs, .. } => {
                let [ours, theirs] = [ours, theirs].map(|s| without_checks(&s.concat(), prefixes));
                if ours != theirs {
                    return Err(
                        "a conflict differs in more than its CHECK lines: resolve it first".into(),
                    );
                }
                out.push_str(&ours);
            }
        }
    }
    Ok(out)
}
