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
