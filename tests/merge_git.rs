//! End-to-end: real git (`merge`, `rebase`, `cherry-pick`, criss-cross
//! merges with `merge.llvm-ir.recursive`) on branches that edit the same IR
//! file, with irgit configured as the `llvm-ir` merge driver.
//!
//! The history comes from one C program compiled by clang-22 -O0 with
//! different `-D` switches, so an edit renumbers every later `%N` — the
//! reason a line merge fails:
//!
//! ```text
//! main:    %3 = load i32, ptr %x        E1:  %3 = load i32, ptr %x
//!          %4 = mul nsw i32 %3, 3            %4 = mul nsw i32 %3, 7
//!                                            %5 = add nsw i32 %4, 1   ; every later %N shifts
//! ```

mod merge_support;

use std::path::PathBuf;

use merge_support::{canon, compile_c, git_merge_file, has_conflict_markers, Repo};

/// A program with four edit points (E1..E4) in one function, one (E5) in
/// another, and one point (CONFLICT_A / CONFLICT_B) both sides edit.
const PROGRAM: &str = r#"
int work(int x, int n) {
  int s = 0;
#ifdef E1
  s = x * 7 + 1;
#endif
  for (int i = 0; i < n; i++) {
    s += i * x;
#ifdef E2
    s ^= i << 2;
#endif
  }
  int t = s / 3;
#if defined(CONFLICT_A)
  t += 1000;
#elif defined(CONFLICT_B)
  t -= 2000;
#endif
#ifdef E3
  if (t < 0)
    t = -t;
#endif
  int u = t + n;
#ifdef E4
  u = u * u - 5;
#endif
  return u;
}

int aux(int a) {
  int r = a * 5;
#ifdef E5
  r -= 3;
#endif
  return r;
}
"#;

/// The program compiled with the given switches.
fn ir(defines: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let src: PathBuf = dir.path().join("work.c");
    std::fs::write(&src, PROGRAM).unwrap();
    compile_c(&src, "0", defines)
}

/// A repository with the driver installed and `work.ll` at base on `main`.
fn repo_with_base() -> Repo {
    let repo = Repo::new();
    repo.install_driver();
    repo.commit_file("work.ll", &ir(&[]), "base");
    repo
}

fn assert_canon_eq(repo: &Repo, want_defines: &[&str], what: &str) {
    let got = repo.read("work.ll");
    assert!(
        !has_conflict_markers(&got, 7),
        "{what}: conflict markers left in work.ll:\n{got}"
    );
    assert_eq!(
        canon(&got, &format!("work.ll after {what}")),
        canon(&ir(want_defines), "expected"),
        "{what}: merged work.ll differs from the program compiled with {want_defines:?}"
    );
}

/// Precondition of the tests below: a line merge of E1 and E2 conflicts.
#[test]
fn line_merge_cannot_merge_the_two_edits() {
    let (clean, _, _) = git_merge_file(&ir(&[]), &ir(&["E1"]), &ir(&["E2"]));
    assert!(
        !clean,
        "git merge-file merged E1 and E2 cleanly; the tests prove nothing"
    );
}

#[test]
fn git_merge_resolves_what_a_line_merge_cannot() {
    let repo = repo_with_base();
    repo.ok(&["checkout", "-q", "-b", "side"]);
    repo.commit_file("work.ll", &ir(&["E2"]), "E2");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("work.ll", &ir(&["E1"]), "E1");
    repo.ok(&["merge", "-q", "--no-edit", "side"]);
    assert_canon_eq(&repo, &["E1", "E2"], "git merge");
    assert!(repo.unmerged().is_empty());
}

#[test]
fn git_merge_without_driver_conflicts() {
    // Control: the same history without the driver is a textual conflict.
    let repo = Repo::new();
    repo.commit_file("work.ll", &ir(&[]), "base");
    repo.ok(&["checkout", "-q", "-b", "side"]);
    repo.commit_file("work.ll", &ir(&["E2"]), "E2");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("work.ll", &ir(&["E1"]), "E1");
    assert!(!repo
        .git(&["merge", "-q", "--no-edit", "side"])
        .status
        .success());
    assert!(has_conflict_markers(&repo.read("work.ll"), 7));
}

#[test]
fn git_rebase_replays_an_edit_over_another() {
    let repo = repo_with_base();
    repo.ok(&["checkout", "-q", "-b", "topic"]);
    repo.commit_file("work.ll", &ir(&["E3"]), "E3");
    repo.commit_file("work.ll", &ir(&["E3", "E4"]), "E4");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("work.ll", &ir(&["E1"]), "E1");
    repo.ok(&["rebase", "-q", "main", "topic"]);
    assert_canon_eq(&repo, &["E1", "E3", "E4"], "git rebase");
    // The intermediate commit was merged too, not only the tip.
    let mid = repo.ok(&["show", "topic~1:work.ll"]);
    assert_eq!(
        canon(&mid, "topic~1:work.ll"),
        canon(&ir(&["E1", "E3"]), "expected"),
        "rebased first commit is not E1 + E3"
    );
}

#[test]
fn git_cherry_pick_applies_one_edit() {
    let repo = repo_with_base();
    repo.ok(&["checkout", "-q", "-b", "other"]);
    repo.commit_file("work.ll", &ir(&["E4"]), "E4");
    let pick = repo.ok(&["rev-parse", "HEAD"]);
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("work.ll", &ir(&["E2"]), "E2");
    repo.ok(&["cherry-pick", pick.trim()]);
    assert_canon_eq(&repo, &["E2", "E4"], "git cherry-pick");
}

#[test]
fn overlapping_edits_leave_markers_and_an_unmerged_path() {
    let repo = repo_with_base();
    stop_on_a_conflict(&repo);
    let text = repo.read("work.ll");
    assert!(has_conflict_markers(&text, 7), "no markers:\n{text}");
    assert!(
        text.contains("1000") && text.contains("2000"),
        "a side is missing:\n{text}"
    );
    let stages: Vec<u8> = repo
        .unmerged()
        .into_iter()
        .filter(|(_, p)| p == "work.ll")
        .map(|(s, _)| s)
        .collect();
    assert_eq!(
        stages,
        vec![1, 2, 3],
        "work.ll should be unmerged with 3 stages"
    );
}

#[test]
fn conflict_marker_size_follows_the_attribute() {
    let repo = repo_with_base();
    repo.write(
        ".gitattributes",
        "*.ll merge=llvm-ir conflict-marker-size=11\n",
    );
    repo.ok(&["commit", "-q", "-am", "bigger markers"]);
    stop_on_a_conflict(&repo);
    let text = repo.read("work.ll");
    assert!(
        has_conflict_markers(&text, 11),
        "no size-11 markers:\n{text}"
    );
    assert!(!has_conflict_markers(&text, 7));
}

/// Criss-cross history: X1 = base+E1, Y1 = base+E2, both merged into each
/// other (two merge bases), then X3 = +E3 and Y3 = +E5. Merging Y3 into X3
/// makes git merge the two bases first with `merge.llvm-ir.recursive`.
#[test]
fn criss_cross_merge_with_two_merge_bases() {
    let repo = repo_with_base();
    repo.ok(&["checkout", "-q", "-b", "y"]);
    repo.commit_file("work.ll", &ir(&["E2"]), "Y1: E2");
    repo.ok(&["checkout", "-q", "-b", "x", "main"]);
    repo.commit_file("work.ll", &ir(&["E1"]), "X1: E1");
    let x1 = repo.ok(&["rev-parse", "HEAD"]).trim().to_string();
    repo.ok(&["merge", "-q", "--no-edit", "y"]);
    assert_canon_eq(&repo, &["E1", "E2"], "merge of Y1 into X1");
    repo.ok(&["checkout", "-q", "y"]);
    repo.ok(&["merge", "-q", "--no-edit", &x1]);
    assert_canon_eq(&repo, &["E1", "E2"], "merge of X1 into Y1");
    repo.commit_file("work.ll", &ir(&["E1", "E2", "E5"]), "Y3: E5");
    repo.ok(&["checkout", "-q", "x"]);
    repo.commit_file("work.ll", &ir(&["E1", "E2", "E3"]), "X3: E3");
    let bases = repo.ok(&["merge-base", "--all", "x", "y"]);
    assert_eq!(
        bases.lines().count(),
        2,
        "history should have two merge bases"
    );
    repo.ok(&["merge", "-q", "--no-edit", "y"]);
    assert_canon_eq(&repo, &["E1", "E2", "E3", "E5"], "criss-cross merge");
}

/// git ≥ 2.44 passes its conflict labels (%S %X %Y) to the driver: the markers
/// name the branches as git's own line merge would, not "ours"/"theirs".
#[test]
fn conflict_markers_carry_the_labels_git_passes() {
    let repo = repo_with_base();
    stop_on_a_conflict(&repo);
    let text = repo.read("work.ll");
    let label = |marker: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix(marker))
            .map(|rest| rest.trim().to_string())
            .collect()
    };
    let (ours, theirs) = (label("<<<<<<< "), label(">>>>>>> "));
    assert!(!ours.is_empty(), "no markers:\n{text}");
    assert!(ours.iter().all(|l| l == "HEAD"), "ours labels {ours:?}");
    assert!(
        theirs.iter().all(|l| l == "side"),
        "theirs labels {theirs:?}"
    );
    let base = label("||||||| ");
    assert!(
        base.iter().all(|l| l != "base" && !l.is_empty()),
        "base labels {base:?}"
    );
}

/// A repository stopped on the CONFLICT_A / CONFLICT_B conflict, with
/// Branch `side` and `main` change the same line differently; merging
/// `side` into `main` must stop on the conflict.
fn stop_on_a_conflict(repo: &Repo) {
    repo.ok(&["checkout", "-q", "-b", "side"]);
    repo.commit_file("work.ll", &ir(&["CONFLICT_B"]), "B");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("work.ll", &ir(&["CONFLICT_A"]), "A");
    let out = repo.git(&["merge", "--no-edit", "side"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "git merge should stop on a conflict: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `merge.conflictStyle` set to `style` (unset when `None`).
fn repo_stopped_on_a_conflict(style: Option<&str>) -> Repo {
    let repo = repo_with_base();
    if let Some(s) = style {
        repo.ok(&["config", "merge.conflictStyle", s]);
    }
    stop_on_a_conflict(&repo);
    repo
}

fn has_base_section(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("||||||| "))
}

/// git passes a driver no style: `merge.conflictStyle` is read from git's
/// config, as git's own line merge reads it.
#[test]
fn merge_conflict_style_comes_from_git_config() {
    let repo = repo_stopped_on_a_conflict(Some("merge"));
    let text = repo.read("work.ll");
    assert!(has_conflict_markers(&text, 7), "no markers:\n{text}");
    assert!(!has_base_section(&text), "merge style with a base:\n{text}");

    let repo = repo_stopped_on_a_conflict(Some("zdiff3"));
    let text = repo.read("work.ll");
    assert!(has_base_section(&text), "zdiff3 without a base:\n{text}");
    let ours = text
        .split("<<<<<<< ")
        .nth(1)
        .and_then(|s| s.split("||||||| ").next())
        .unwrap();
    assert!(
        !ours
            .lines()
            .skip(1)
            .any(|l| l.trim_start().starts_with("define ")),
        "zdiff3 keeps lines both sides share inside the markers:\n{text}"
    );
}

/// `git checkout --conflict=STYLE FILE` re-creates the conflict in that
/// style through the driver, whatever the config says.
#[test]
fn git_checkout_conflict_recreates_the_conflict_in_the_style_asked() {
    let repo = repo_stopped_on_a_conflict(None);
    assert!(
        !has_base_section(&repo.read("work.ll")),
        "git's default style, merge"
    );
    repo.ok(&["checkout", "--conflict=diff3", "work.ll"]);
    assert!(has_base_section(&repo.read("work.ll")), "--conflict=diff3");
    repo.ok(&["checkout", "--conflict=merge", "work.ll"]);
    let text = repo.read("work.ll");
    assert!(has_conflict_markers(&text, 7), "no markers:\n{text}");
    assert!(!has_base_section(&text), "--conflict=merge:\n{text}");
    assert!(text.contains("1000") && text.contains("2000"), "{text}");

    repo.ok(&["config", "merge.conflictStyle", "merge"]);
    repo.ok(&["checkout", "--conflict", "diff3", "work.ll"]);
    assert!(has_base_section(&repo.read("work.ll")), "--conflict diff3");
    repo.ok(&["restore", "--conflict=merge", "work.ll"]);
    assert!(
        !has_base_section(&repo.read("work.ll")),
        "restore --conflict"
    );
}

/// The hand-written case of issue 20: ours adds a parameter to `@helper`
/// and updates its caller; theirs adds a call of `@helper` with the old
/// signature in `@g`. LLVM accepts both together (a call may have another
/// type than its callee), so only a check of the calls catches it.
const HELPER_BASE: &str = "define i32 @helper(i32 %x) {
entry:
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @f(i32 %a) {
entry:
  %c = call i32 @helper(i32 %a)
  ret i32 %c
}

define i32 @g(i32 %y) {
entry:
  %s = add i32 %y, 1
  ret i32 %s
}
";

#[test]
fn a_call_with_the_signature_the_other_side_changed_is_the_marked_conflict() {
    let repo = Repo::new();
    repo.install_driver();
    repo.commit_file("h.ll", HELPER_BASE, "base");
    repo.ok(&["checkout", "-q", "-b", "side"]);
    let theirs = HELPER_BASE.replace(
        "  %s = add i32 %y, 1",
        "  %h = call i32 @helper(i32 %y)\n  %s = add i32 %h, 1",
    );
    repo.commit_file("h.ll", &theirs, "a new call in @g");
    repo.ok(&["checkout", "-q", "main"]);
    let ours = HELPER_BASE
        .replace("@helper(i32 %x)", "@helper(i32 %x, i32 %k)")
        .replace("mul i32 %x, 3", "mul i32 %x, %k")
        .replace("@helper(i32 %a)", "@helper(i32 %a, i32 3)");
    repo.commit_file("h.ll", &ours, "a parameter for @helper");
    let out = repo.git(&["merge", "--no-edit", "side"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("theirs calls @helper with the old signature in @g"),
        "stderr does not say what clashes: {stderr}"
    );
    let text = repo.read("h.ll");
    let theirs_section = text
        .split("=======\n")
        .nth(1)
        .and_then(|s| s.split(">>>>>>> ").next())
        .unwrap_or_else(|| panic!("no conflict:\n{text}"));
    assert!(
        theirs_section.contains("call i32 @helper(i32 %y)"),
        "the clashing call is not in the marked hunk:\n{text}"
    );
    assert!(
        text.contains("define i32 @helper(i32 %x, i32 %k) {") && !text.contains("%arg0"),
        "not written in ours' text:\n{text}"
    );
    assert_eq!(text.matches("<<<<<<< ").count(), 1, "{text}");
}
