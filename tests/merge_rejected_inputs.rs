//! Merges where LLVM 22 rejects an input: irgit's answer is git's own.
//!
//! A golden file whose `target datalayout` a test suite replaced by `"..."`,
//! a test in syntax LLVM 22 no longer reads (`!9 = metadata !{!4}`), a
//! templated `.ll`: no structured merge is possible, and LLVM's verdict on
//! the line merge's result says nothing (it rejects the result as it rejects
//! the input). Each test merges the same three versions in real git twice,
//! once with the irgit driver installed and once without, and asks for the
//! same bytes and the same clean-or-conflict answer, with one line naming
//! the version LLVM rejects.

mod merge_support;

use std::path::Path;

use merge_support::{irgit_bin, Repo};

/// What one `git merge` left: whether it was clean, the file, git's stderr.
struct Merged {
    clean: bool,
    text: String,
    stderr: String,
}

/// Commits `base` as `f.ll`, `theirs` on a branch and `ours` on main, then
/// runs `git merge theirs` (with the irgit driver when `driver`).
fn git_merge(base: &str, ours: &str, theirs: &str, driver: bool) -> Merged {
    let repo = Repo::new();
    if driver {
        repo.install_driver();
    }
    repo.commit_file("f.ll", base, "base");
    repo.ok(&["checkout", "-q", "-b", "theirs"]);
    repo.commit_file("f.ll", theirs, "theirs");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("f.ll", ours, "ours");
    let out = repo.git(&["merge", "-q", "--no-edit", "theirs"]);
    Merged {
        clean: out.status.success(),
        text: repo.read("f.ll"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The driver's own lines in git's stderr.
fn irgit_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("irgit merge:"))
        .collect()
}

fn fixture(name: &str) -> String {
    fixture_in("sanitized-header", name)
}

fn fixture_in(case: &str, name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/merge/rejected")
        .join(case)
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Merges the three versions with and without irgit and checks that irgit
/// answered as git did, naming `rejected` (the side LLVM rejects) once.
fn merges_as_git_does(base: &str, ours: &str, theirs: &str, rejected: &str) -> Merged {
    merges_as_git_does_because(base, ours, theirs, rejected, "error:")
}

/// [`merges_as_git_does`], with the words `why` that LLVM's reason holds.
fn merges_as_git_does_because(
    base: &str,
    ours: &str,
    theirs: &str,
    rejected: &str,
    why: &str,
) -> Merged {
    let git = git_merge(base, ours, theirs, false);
    let irgit = git_merge(base, ours, theirs, true);
    assert_eq!(irgit.clean, git.clean, "irgit: {}", irgit.stderr);
    assert_eq!(irgit.text, git.text, "irgit's result is not git's");
    let lines = irgit_lines(&irgit.stderr);
    assert_eq!(lines.len(), 1, "one line says why: {}", irgit.stderr);
    assert!(
        lines[0].contains(&format!("{rejected} version")) && lines[0].contains(why),
        "the line names the version LLVM rejects and LLVM's reason: {}",
        lines[0]
    );
    irgit
}

#[test]
fn a_sanitized_golden_file_merges_clean_as_git_merges_it() {
    let (base, ours, theirs) = (fixture("base.ll"), fixture("ours.ll"), fixture("theirs.ll"));
    let merged = merges_as_git_does(&base, &ours, &theirs, "base");
    assert!(merged.clean, "{}", merged.stderr);
    assert_eq!(merged.text, fixture("expected.ll"));
}

#[test]
fn the_command_outside_git_exits_0_with_gits_result() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["base", "ours", "theirs"] {
        std::fs::write(dir.path().join(name), fixture(&format!("{name}.ll"))).unwrap();
    }
    let out = std::process::Command::new(irgit_bin())
        .current_dir(dir.path())
        .args(["merge", "base", "ours", "theirs", "-o", "out"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out")).unwrap(),
        fixture("expected.ll")
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("base version") && stderr.contains("base:3:"),
        "{stderr}"
    );
}

#[test]
fn a_conflict_in_a_rejected_file_is_gits_conflict() {
    let base = fixture("base.ll");
    let ours = base.replace("mul nsw i32 %4, 3", "mul nsw i32 %4, 5");
    let theirs = base.replace("mul nsw i32 %4, 3", "mul nsw i32 %4, 7");
    let merged = merges_as_git_does(&base, &ours, &theirs, "base");
    assert!(!merged.clean);
    assert!(merged.text.contains("<<<<<<< HEAD\n"), "{}", merged.text);
}

/// A valid module in which one side writes a node in the syntax LLVM 22 no
/// longer reads: only that side is rejected.
const MODERN: &str = "\
define i32 @f(i32 %x) {
  %1 = add i32 %x, 1
  ret i32 %1
}

define i32 @g(i32 %y) {
  %1 = mul i32 %y, 3
  ret i32 %1
}

!llvm.ident = !{!0}
!0 = !{!\"t\"}
";

#[test]
fn one_rejected_side_gets_gits_answer_naming_that_side() {
    let ours = MODERN.replace("add i32 %x, 1", "add i32 %x, 2");
    let theirs = MODERN.replace("!0 = !{!\"t\"}", "!0 = metadata !{metadata !\"t\"}");
    let merged = merges_as_git_does(MODERN, &ours, &theirs, "theirs");
    assert!(merged.clean, "{}", merged.stderr);
    assert!(
        merged.text.contains("add i32 %x, 2") && merged.text.contains("metadata !{"),
        "{}",
        merged.text
    );
}

/// LLVM reads ours but drops its debug info, which does not verify (a
/// subprogram's `retainedNodes` lists a type), with only a warning: no
/// result can keep that debug info, so ours counts as rejected and git's
/// clean line merge is the answer, with the verifier's reason. (In a real
/// revert of SPIRV-LLVM-Translator's `DW_AT_specification.ll`, the same
/// mechanism made irgit write one conflict where git was clean and right.)
#[test]
fn a_side_whose_debug_info_llvm_drops_gets_gits_answer() {
    let read = |name: &str| fixture_in("invalid-debug-info", name);
    let merged = merges_as_git_does_because(
        &read("base.ll"),
        &read("ours.ll"),
        &read("theirs.ll"),
        "ours",
        "LLVM drops its debug info as invalid: invalid retained nodes",
    );
    assert!(merged.clean, "{}", merged.stderr);
    assert!(
        merged.text.contains("unit: !0, retainedNodes: !26)")
            && merged.text.contains("mul nsw i32 %3, 5, !dbg !24"),
        "{}",
        merged.text
    );
}

#[test]
fn valid_inputs_still_get_the_structured_merge() {
    // Both sides renumber: a line merge conflicts, the structured one not.
    let ours = MODERN.replace(
        "  %1 = add i32 %x, 1\n  ret i32 %1",
        "  %1 = add i32 %x, 1\n  %2 = add i32 %1, 1\n  ret i32 %2",
    );
    let theirs = MODERN.replace("mul i32 %y, 3", "mul i32 %y, 4");
    let merged = git_merge(MODERN, &ours, &theirs, true);
    assert!(merged.clean, "{}", merged.stderr);
    assert!(
        merged.text.contains("%2 = add i32 %1, 1") && merged.text.contains("mul i32 %y, 4"),
        "{}",
        merged.text
    );
    assert!(irgit_lines(&merged.stderr).is_empty(), "{}", merged.stderr);
}
