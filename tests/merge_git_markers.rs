//! Through real git: when `irgit merge` exits 1, the file it leaves has
//! conflict markers. git then lists the path as unmerged, and the markers
//! are what stops a careless `git add` from committing an invalid module
//! as resolved.
//!
//! ```text
//! base:   declare ptr @alloc(i32)          theirs: (declaration removed, @len internal)
//! ours:   + define ptr @make() { %p = call ptr @alloc(i32 12) ... }
//! git merge-file: clean, without the declaration: `use of undefined value '@alloc'`
//! irgit: the declaration kept (clean), or exit 1 with markers; never exit 1 without
//! ```

mod merge_support;

use std::path::Path;

use merge_support::{canon, has_conflict_markers, try_canon, Repo};

fn case_file(case: &str, name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/merge/working")
        .join(case)
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Merges branch `side` (Right.ll) into `main` (Left.ll) over Base.ll with
/// the driver; returns git's exit code and the merged file.
fn git_merge_case(case: &str) -> (Option<i32>, String, String) {
    let repo = Repo::new();
    repo.install_driver();
    repo.commit_file("m.ll", &case_file(case, "Base.ll"), "base");
    repo.ok(&["checkout", "-q", "-b", "side"]);
    repo.commit_file("m.ll", &case_file(case, "Right.ll"), "theirs");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("m.ll", &case_file(case, "Left.ll"), "ours");
    let out = repo.git(&["merge", "--no-edit", "side"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), repo.read("m.ll"), stderr)
}

#[test]
fn a_deleted_declaration_still_called_is_kept_or_marked() {
    let (code, text, stderr) = git_merge_case("declaration_deleted_but_called");
    match code {
        Some(0) => assert_eq!(
            try_canon(&text, "merged m.ll"),
            Ok(canon(
                &case_file("declaration_deleted_but_called", "Expected.ll"),
                "Expected.ll"
            )),
            "clean but wrong:\n{text}"
        ),
        Some(1) => assert!(
            has_conflict_markers(&text, 7),
            "git merge stopped, but m.ll has no conflict markers:\n{text}\n{stderr}"
        ),
        other => panic!("git merge exited {other:?}: {stderr}"),
    }
}

/// A negative test (IR that LLVM rejects, on purpose): the structured
/// merge cannot run, and git's line merge is clean. LLVM rejects the
/// inputs, so its verdict on the result says nothing: the merge is git's,
/// clean, and git records it as merged.
#[test]
fn a_clean_line_merge_of_invalid_ir_is_gits_clean_merge() {
    let base =
        "; RUN: not llvm-as %s\n; CHECK: error\ndefine void @f() {\n  ret i32 %undefined\n}\n";
    let ours = base.replace("; CHECK: error", "; CHECK: error: value doesn't match");
    let theirs = base.replace("ret i32 %undefined", "ret i64 %undefined");
    let repo = Repo::new();
    repo.install_driver();
    repo.commit_file("neg.ll", base, "base");
    repo.ok(&["checkout", "-q", "-b", "side"]);
    repo.commit_file("neg.ll", &theirs, "theirs");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("neg.ll", &ours, "ours");
    let out = repo.git(&["merge", "--no-edit", "side"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        repo.read("neg.ll"),
        ours.replace("ret i32 %undefined", "ret i64 %undefined"),
        "git's clean result"
    );
    assert!(repo.unmerged().is_empty());
    assert!(
        stderr.contains("base version") && stderr.contains("error:"),
        "{stderr}"
    );
}
