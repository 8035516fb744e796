//! Merges from the real history of a compiler's golden files and
//! hand-written tests (`tests/merge/real_history/<case>/`, from tinygo:
//! see the README there), replayed as the real-history bench does: a
//! revert of a commit, or its re-application. Each was written wholly in
//! canonical form once, or conflicted where git is clean and right. The
//! merge must be clean, in ours' text, never the
//! canonical form: where `written.ll` is there, the result is its bytes
//! (checked by hand: ours' lines, and theirs' change placed in them or,
//! where ours is in another dialect, the entities it touches written
//! anew); elsewhere `diff ours result` is no larger than `diff base
//! theirs`. Where `expected.ll` is there (v2 for a re-application), the
//! result is the same module.
//!
//! ```text
//! base: define internal void @"main.f$1"(ptr %context)   theirs: define hidden void @"main.f$1"(ptr %context)
//! ours: the same function, blocks and functions elsewhere (a new compiler's output)
//! result: ours' text with `define hidden void @"main.f$1"(ptr %context)`, not
//!         `define hidden void @"main.f$1"(ptr %arg0)` in canonical form
//! ```

mod common;
mod merge_support;

use std::path::{Path, PathBuf};

use merge_support::{canon, merge_as_driver, Outcome};

const MARKER: usize = 7;

fn cases() -> Vec<PathBuf> {
    merge_support::case_dirs(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge/real_history"),
    )
}

fn read(dir: &Path, name: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(name)).ok()
}

/// What is wrong with the merge of one case (`None`: nothing).
fn problem(dir: &Path) -> Option<String> {
    let input = |name| read(dir, name).unwrap_or_else(|| panic!("{}: no {name}", dir.display()));
    let (base, ours, theirs) = (input("base.ll"), input("ours.ll"), input("theirs.ll"));
    let run = merge_as_driver(&base, &ours, &theirs, MARKER);
    if run.outcome(MARKER) != Outcome::Clean {
        return Some(format!("not clean: {}", run.stderr.trim()));
    }
    if run.stderr.contains("canonical form") {
        return Some(format!("written in canonical form: {}", run.stderr.trim()));
    }
    if let Some(text) = read(dir, "written.ll") {
        return (text != run.output).then(|| {
            format!(
                "not the text expected:\n{}",
                common::first_diff_labeled(&text, &run.output, 30, "written.ll", "result")
            )
        });
    }
    let (removed, added) = common::diff_size(&base, &theirs);
    let (gone, new) = common::diff_size(&ours, &run.output);
    if gone + new > removed + added {
        return Some(format!(
            "not in ours' text: diff ours result -{gone} +{new}, diff base theirs -{removed} \
             +{added}:\n{}",
            common::first_diff_labeled(&ours, &run.output, 30, "ours", "result")
        ));
    }
    let expected = read(dir, "expected.ll")?;
    (canon(&run.output, "result.ll") != canon(&expected, "expected.ll")).then(|| {
        format!(
            "not the expected module:\n{}",
            common::first_diff_labeled(&expected, &run.output, 30, "expected", "result")
        )
    })
}

#[test]
fn real_history_merges_are_written_in_ours_text() {
    let all = cases();
    assert!(all.len() >= 4, "only {} cases", all.len());
    let problems: Vec<String> = all
        .iter()
        .filter_map(|dir| {
            let name = dir.file_name().unwrap().to_string_lossy().to_string();
            problem(dir).map(|p| format!("{name}: {p}"))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
