//! `-X ours` / `-X theirs` (`--strategy-option`) through real git, with
//! irgit as the `llvm-ir` merge driver: git does not pass strategy options
//! to drivers, so the driver reads them from the git command that runs it
//! (or from the rebase's state on `--continue`). Both branches change the
//! same instruction; each also has an edit the other does not touch:
//!
//! ```text
//! base:  %t = add i32 %s, 7     main: %t = add i32 %s, 1000   side: %t = sub i32 %s, 2000
//! main also edits @ours_only, side edits @theirs_only
//! git merge -X theirs side  ─►  %t = sub i32 %s, 2000, and both other edits, exit 0
//! ```

mod merge_support;

use merge_support::{canon, has_conflict_markers, Repo};

/// A module of three functions: `@both` (the instruction both sides
/// change), `@ours_only` and `@theirs_only`.
const BASE: &str = "define i32 @both(i32 %s) {
entry:
  %u = mul i32 %s, 3
  %t = add i32 %u, 7
  %v = xor i32 %t, 5
  ret i32 %v
}

define i32 @ours_only(i32 %a) {
entry:
  %r = shl i32 %a, 2
  ret i32 %r
}

define i32 @theirs_only(i32 %b) {
entry:
  %r = lshr i32 %b, 1
  ret i32 %r
}
";

fn main_version() -> String {
    BASE.replace("%t = add i32 %u, 7", "%t = add i32 %u, 1000")
        .replace("shl i32 %a, 2", "shl i32 %a, 5")
}

fn side_version() -> String {
    BASE.replace("%t = add i32 %u, 7", "%t = sub i32 %u, 2000")
        .replace("lshr i32 %b, 1", "lshr i32 %b, 4")
}

/// Both branches' edits, with the clash resolved to `winner`'s instruction.
fn merged_with(winner: &str) -> String {
    BASE.replace("%t = add i32 %u, 7", winner)
        .replace("shl i32 %a, 2", "shl i32 %a, 5")
        .replace("lshr i32 %b, 1", "lshr i32 %b, 4")
}

/// A repository with the driver installed, `m.ll` at base, branch `side`
/// with side's edit and `main` (checked out) with main's.
fn diverged() -> Repo {
    let repo = Repo::new();
    repo.install_driver();
    repo.commit_file("m.ll", BASE, "base");
    repo.ok(&["checkout", "-q", "-b", "side"]);
    repo.commit_file("m.ll", &side_version(), "side: sub 2000, lshr 4");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("m.ll", &main_version(), "main: add 1000, shl 5");
    repo
}

/// `m.ll` is clean, merged, and means `want`.
fn assert_resolved(repo: &Repo, want: &str, what: &str) {
    let got = repo.read("m.ll");
    assert!(
        !has_conflict_markers(&got, 7),
        "{what}: markers left:\n{got}"
    );
    assert!(repo.unmerged().is_empty(), "{what}: unmerged paths remain");
    assert_eq!(
        canon(&got, what),
        canon(want, "expected"),
        "{what}: wrong result:\n{got}"
    );
}

/// Control: without `-X` the same merge stops on the shared instruction.
#[test]
fn without_a_strategy_option_the_instruction_conflicts() {
    let repo = diverged();
    let out = repo.git(&["merge", "--no-edit", "side"]);
    assert_eq!(out.status.code(), Some(1), "the merge should conflict");
    assert!(has_conflict_markers(&repo.read("m.ll"), 7));
}

#[test]
fn git_merge_x_theirs_takes_theirs_instruction_and_merges_the_rest() {
    let repo = diverged();
    repo.ok(&["merge", "--no-edit", "-X", "theirs", "side"]);
    assert_resolved(
        &repo,
        &merged_with("%t = sub i32 %u, 2000"),
        "merge -X theirs",
    );
    let text = repo.read("m.ll");
    assert!(
        text.contains("define i32 @both(i32 %s) {") && text.contains("shl i32 %a, 5"),
        "not written in main's text:\n{text}"
    );
}

#[test]
fn git_merge_strategy_option_ours_takes_ours_instruction() {
    let repo = diverged();
    repo.ok(&["merge", "--no-edit", "--strategy-option=ours", "side"]);
    assert_resolved(
        &repo,
        &merged_with("%t = add i32 %u, 1000"),
        "merge --strategy-option=ours",
    );
}

#[test]
fn git_cherry_pick_x_theirs_takes_the_picked_instruction() {
    let repo = diverged();
    repo.ok(&["cherry-pick", "-Xtheirs", "side"]);
    assert_resolved(
        &repo,
        &merged_with("%t = sub i32 %u, 2000"),
        "cherry-pick -Xtheirs",
    );
}

/// A history whose `side` first deletes `notes.txt`, which `main`
/// changes (a modify/delete conflict, which `-X` does not resolve), then
/// makes side's IR edit.
fn diverged_with_a_stop_first() -> Repo {
    let repo = Repo::new();
    repo.install_driver();
    repo.write("notes.txt", "one\n");
    repo.commit_file("m.ll", BASE, "base");
    repo.ok(&["checkout", "-q", "-b", "side"]);
    repo.ok(&["rm", "-q", "notes.txt"]);
    repo.ok(&["commit", "-q", "-m", "side: no notes"]);
    repo.commit_file("m.ll", &side_version(), "side: sub 2000, lshr 4");
    repo.ok(&["checkout", "-q", "main"]);
    repo.write("notes.txt", "one\ntwo\n");
    repo.commit_file("m.ll", &main_version(), "main: add 1000, shl 5");
    repo
}

/// Runs `start` (a rebase or cherry-pick of side's two commits with `-X
/// theirs`), which stops on `notes.txt`; resolves that and continues with
/// `resume`. The IR edit is replayed by the resumed command, whose command
/// line has no `-X`: the driver finds it in the saved state.
fn favours_theirs_after_a_stop(checkout: &str, start: &[&str], resume: &[&str]) {
    let repo = diverged_with_a_stop_first();
    repo.ok(&["checkout", "-q", checkout]);
    let stopped = repo.git(start);
    assert!(
        !stopped.status.success(),
        "{start:?} should stop on notes.txt"
    );
    repo.ok(&["rm", "-q", "notes.txt"]);
    repo.ok(resume);
    assert_resolved(
        &repo,
        &merged_with("%t = sub i32 %u, 2000"),
        &format!("{start:?}, then {resume:?}"),
    );
}

#[test]
fn git_rebase_x_theirs_still_favours_theirs_after_continue() {
    favours_theirs_after_a_stop(
        "side",
        &["rebase", "-X", "theirs", "main"],
        &["rebase", "--continue"],
    );
}

#[test]
fn git_cherry_pick_x_theirs_still_favours_theirs_after_continue() {
    favours_theirs_after_a_stop(
        "main",
        &["cherry-pick", "-X", "theirs", "main..side"],
        &["cherry-pick", "--continue"],
    );
}
