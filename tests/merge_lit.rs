//! Merging lit tests, as people do: each side adds a test function with its
//! CHECK lines, or edits a different function and its CHECK lines. The
//! merge is clean, both sides are there, the file is ours' text with
//! theirs' changes, and `lit` passes on the merged file — through
//! `irgit merge` and through a real `git merge` with the driver installed.

mod common;
mod git_support;

use git_support::Repo;

const BASE: &str = "\
; RUN: opt -S -passes=instcombine %s | FileCheck %s
; instcombine folds on small integer functions.

define i32 @add_zero(i32 %x) {
; CHECK-LABEL: @add_zero(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret i32 [[X:%.*]]
;
entry:
  %a = add i32 %x, 0 ; folds to %x
  ret i32 %a
}

define i32 @mul_two(i32 %x) {
; CHECK-LABEL: @mul_two(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[M:%.*]] = shl i32 [[X:%.*]], 1
; CHECK-NEXT:    ret i32 [[M]]
;
entry:
  %m = mul i32 %x, 2 ; becomes a shift
  ret i32 %m
}
";

const OURS_FUNCTION: &str = "
define i32 @sub_self(i32 %x) {
; CHECK-LABEL: @sub_self(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret i32 0
;
entry:
  %s = sub i32 %x, %x ; always zero
  ret i32 %s
}
";

const THEIRS_FUNCTION: &str = "
define i32 @or_zero(i32 %x) {
; CHECK-LABEL: @or_zero(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret i32 [[X:%.*]]
;
entry:
  %o = or i32 %x, 0
  ret i32 %o
}
";

/// Ours edits @add_zero (and its CHECK), theirs edits @mul_two (and its).
fn edits() -> (String, String, String) {
    let ours = BASE
        .replace(
            "  %a = add i32 %x, 0 ; folds to %x",
            "  %a = xor i32 %x, 0 ; folds to %x too",
        )
        .replace("; instcombine folds", "; instcombine (ours) folds");
    let theirs = BASE
        .replace(
            "%m = mul i32 %x, 2 ; becomes a shift",
            "%m = mul i32 %x, 4 ; becomes a shift by 2",
        )
        .replace("shl i32 [[X:%.*]], 1", "shl i32 [[X:%.*]], 2");
    let expected = ours
        .replace(
            "%m = mul i32 %x, 2 ; becomes a shift",
            "%m = mul i32 %x, 4 ; becomes a shift by 2",
        )
        .replace("shl i32 [[X:%.*]], 1", "shl i32 [[X:%.*]], 2");
    (ours, theirs, expected)
}

fn lit_passes(dir: &std::path::Path, file: &str, text: &str) {
    let cfg = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lit/lit.cfg.py");
    std::fs::copy(cfg, dir.join("lit.cfg.py")).unwrap();
    std::fs::write(dir.join(file), text).unwrap();
    let o = std::process::Command::new(common::LIT)
        .arg("-q")
        .arg(dir.join(file))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "lit fails on the merged file:\n{text}\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn irgit_merge(base: &str, ours: &str, theirs: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    for (f, t) in [("b.ll", base), ("o.ll", ours), ("t.ll", theirs)] {
        std::fs::write(dir.path().join(f), t).unwrap();
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_irgit"))
        .current_dir(dir.path())
        .args(["merge", "b.ll", "o.ll", "t.ll", "-o", "m.ll"])
        .output()
        .unwrap();
    (
        o.status.code(),
        std::fs::read_to_string(dir.path().join("m.ll")).unwrap_or_default(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn the_lit_test_itself_passes() {
    lit_passes(tempfile::tempdir().unwrap().path(), "base.ll", BASE);
    let (ours, theirs, _) = edits();
    let with_both = format!("{BASE}{OURS_FUNCTION}{THEIRS_FUNCTION}");
    for t in [ours, theirs, with_both] {
        lit_passes(tempfile::tempdir().unwrap().path(), "t.ll", &t);
    }
}

#[test]
fn each_side_adds_a_test_function_and_both_are_kept() {
    let ours = format!("{BASE}{OURS_FUNCTION}");
    let theirs = format!("{BASE}{THEIRS_FUNCTION}");
    let (code, merged, err) = irgit_merge(BASE, &ours, &theirs);
    assert_eq!(code, Some(0), "{err}\n{merged}");
    assert_eq!(merged, format!("{BASE}{OURS_FUNCTION}{THEIRS_FUNCTION}"));
    lit_passes(tempfile::tempdir().unwrap().path(), "merged.ll", &merged);
}

#[test]
fn each_side_edits_a_function_and_its_checks() {
    let (ours, theirs, expected) = edits();
    let (code, merged, err) = irgit_merge(BASE, &ours, &theirs);
    assert_eq!(code, Some(0), "{err}\n{merged}");
    assert_eq!(merged, expected);
    lit_passes(tempfile::tempdir().unwrap().path(), "merged.ll", &merged);
}

#[test]
fn a_real_git_merge_of_two_lit_branches() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    r.write("test/fold.ll", BASE);
    r.write(
        "test/lit.cfg.py",
        std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lit/lit.cfg.py"),
        )
        .unwrap(),
    );
    r.commit_all("base");
    let (ours, theirs, _) = edits();
    r.git(&["checkout", "-q", "-b", "theirs"]);
    r.write("test/fold.ll", format!("{theirs}{THEIRS_FUNCTION}"));
    r.commit_all("theirs: mul by 4, or_zero");
    r.git(&["checkout", "-q", "main"]);
    r.write("test/fold.ll", format!("{ours}{OURS_FUNCTION}"));
    r.commit_all("ours: xor, sub_self");
    let o = r.run("git", &["merge", "-q", "--no-edit", "theirs"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let merged = r.git(&["show", "HEAD:test/fold.ll"]);
    let (_, _, expected) = edits();
    assert_eq!(
        merged,
        format!("{expected}{OURS_FUNCTION}{THEIRS_FUNCTION}")
    );
    lit_passes(tempfile::tempdir().unwrap().path(), "fold.ll", &merged);
}

/// A test whose CHECK line names a value (`opt` keeps names).
const NAMED: &str = "\
; RUN: opt -S %s | FileCheck %s

; CHECK-LABEL: @f(
; CHECK: %sum = add i32 %x, %y
define i32 @f(i32 %x, i32 %y) {
entry:
  %sum = add i32 %x, %y
  %twice = mul i32 %sum, 2
  ret i32 %twice
}
";

const NAMED_NEW_TEST: &str = "
; CHECK-LABEL: @g(
; CHECK: %diff = sub i32 %x, %y
define i32 @g(i32 %x, i32 %y) {
entry:
  %diff = sub i32 %x, %y
  ret i32 %diff
}
";

fn renamed_sum(text: &str) -> String {
    text.replace("%sum", "%total")
}

/// Theirs renames `%sum` to `%total` in the IR and its CHECK line; ours
/// adds a test. The rename is a change like any other: it comes in, and
/// the merged test passes.
#[test]
fn a_rename_one_side_made_comes_in_with_its_check_line() {
    let ours = format!("{NAMED}{NAMED_NEW_TEST}");
    let theirs = renamed_sum(NAMED);
    let (code, merged, err) = irgit_merge(NAMED, &ours, &theirs);
    assert_eq!(code, Some(0), "{err}\n{merged}");
    assert_eq!(merged, renamed_sum(&ours));
    lit_passes(tempfile::tempdir().unwrap().path(), "merged.ll", &merged);
}

/// Theirs renames `%sum` (IR and CHECK), ours edits the line that uses it:
/// both changed that line, so a conflict, or a clean result whose test
/// passes (the merge once exited 0 here with theirs' CHECK line and ours'
/// `%sum`, so `lit` failed on the result).
#[test]
fn a_rename_against_an_edit_of_the_same_line_is_never_a_failing_test() {
    let ours = NAMED.replace("mul i32 %sum, 2", "mul i32 %sum, 3");
    let theirs = renamed_sum(NAMED);
    let (code, merged, err) = irgit_merge(NAMED, &ours, &theirs);
    match code {
        Some(1) => assert!(merged.contains("<<<<<<<"), "{err}\n{merged}"),
        Some(0) => lit_passes(tempfile::tempdir().unwrap().path(), "merged.ll", &merged),
        c => panic!("exit {c:?}: {err}"),
    }
}

/// Both sides rename one value differently: a conflict.
#[test]
fn two_different_renames_of_one_value_conflict() {
    let ours = format!("{}{NAMED_NEW_TEST}", NAMED.replace("%sum", "%acc"));
    let theirs = renamed_sum(NAMED);
    let (code, merged, err) = irgit_merge(NAMED, &ours, &theirs);
    assert_eq!(code, Some(1), "{err}\n{merged}");
    assert!(
        merged.contains("%acc") && merged.contains("%total"),
        "{merged}"
    );
}

/// As above, with ours' edit right next to theirs' renamed lines, where a
/// line merge of the inputs conflicts: the rename still comes in.
#[test]
fn a_rename_next_to_an_edit_comes_in() {
    let ours = NAMED.replace(
        "  ret i32 %twice\n",
        "  %plus = add i32 %twice, 1\n  ret i32 %plus\n",
    );
    let theirs = renamed_sum(NAMED);
    let (code, merged, err) = irgit_merge(NAMED, &ours, &theirs);
    assert_eq!(code, Some(0), "{err}\n{merged}");
    assert_eq!(merged, renamed_sum(&ours));
    lit_passes(tempfile::tempdir().unwrap().path(), "merged.ll", &merged);
}
