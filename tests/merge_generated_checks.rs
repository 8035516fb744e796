//! Merges of tests whose CHECK lines `update_test_checks.py` wrote: a
//! clean result is one FileCheck passes on, run by real opt and FileCheck
//! of LLVM 22, and nothing runs that the user's git config does not name.
//!
//! `tests/merge/generated_checks/stale-fold/`: ours narrows a mask (`and
//! i32 %x, 15`, checked as `14`), theirs raises a bound (`icmp ult i32 %a,
//! 20`). Each side's checks are what opt prints for its IR; `git merge-file`
//! merges both edits and both checks cleanly, but opt folds the merged
//! function to `ret i1 %d`, so FileCheck fails on git's result.

mod merge_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use merge_support::{git_merge_file, has_conflict_markers, irgit_bin, llvm_tool, Repo};

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/merge/generated_checks/stale-fold")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether `opt -passes=instcombine -S < test | FileCheck test` passes (the
/// fixtures' one RUN line).
fn filecheck_passes(test: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.ll");
    std::fs::write(&file, test).unwrap();
    let opt = Command::new(llvm_tool("opt"))
        .args(["-passes=instcombine", "-S"])
        .stdin(std::fs::File::open(&file).unwrap())
        .output()
        .unwrap();
    let mut check = Command::new(llvm_tool("FileCheck"))
        .arg(&file)
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    check.stdin.take().unwrap().write_all(&opt.stdout).unwrap();
    opt.status.success() && check.wait().unwrap().success()
}

/// Theirs edits only `@g`, and regenerated its checks.
fn theirs_in_g(base: &str) -> String {
    base.replace("mul i32 %v, 2", "mul i32 %v, 4")
        .replace("shl i32 [[V]], 1", "shl i32 [[V]], 2")
}

/// Theirs changes @f too, in a line apart from ours' (the add's constant),
/// with the CHECK line the script writes for it: merged with ours, the
/// checks stay right.
fn theirs_in_f_too(base: &str) -> String {
    base.replace("add i32 %m, 7", "add i32 %m, 9")
        .replace("add i32 [[M]], 7", "add i32 [[M]], 9")
}

/// Merges in a real repository with the irgit driver (and `config`, `git
/// config` pairs); returns (clean, file, stderr).
fn git_merge(
    base: &str,
    ours: &str,
    theirs: &str,
    config: &[(&str, &str)],
) -> (bool, String, String) {
    let repo = Repo::new();
    repo.install_driver();
    for (key, value) in config {
        repo.ok(&["config", key, value]);
    }
    repo.commit_file("t.ll", base, "base");
    repo.ok(&["checkout", "-q", "-b", "theirs"]);
    repo.commit_file("t.ll", theirs, "theirs");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("t.ll", ours, "ours");
    let out = repo.git(&["merge", "-q", "--no-edit", "theirs"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.success(), repo.read("t.ll"), stderr)
}

#[test]
fn the_fixture_is_a_clean_line_merge_that_filecheck_rejects() {
    for side in ["base.ll", "ours.ll", "theirs.ll"] {
        assert!(
            filecheck_passes(&fixture(side)),
            "{side}: its checks are opt's output"
        );
    }
    let (clean, merged, _) = git_merge_file(
        &fixture("base.ll"),
        &fixture("ours.ll"),
        &fixture("theirs.ll"),
    );
    assert!(clean, "git merges it cleanly:\n{merged}");
    assert!(!filecheck_passes(&merged), "and wrongly:\n{merged}");
}

#[test]
fn stale_merged_checks_are_a_conflict_naming_the_function() {
    let (clean, text, stderr) = git_merge(
        &fixture("base.ll"),
        &fixture("ours.ll"),
        &fixture("theirs.ll"),
        &[],
    );
    assert!(!clean, "a clean merge that FileCheck rejects:\n{text}");
    assert!(has_conflict_markers(&text, 7), "{text}");
    assert!(
        stderr.contains("update_test_checks.py")
            && stderr.contains("in @f")
            && stderr.contains("RUN line 2"),
        "{stderr}"
    );
}

#[test]
fn edits_in_two_functions_stay_clean_and_pass_filecheck() {
    let base = fixture("base.ll");
    let (clean, text, stderr) = git_merge(&base, &fixture("ours.ll"), &theirs_in_g(&base), &[]);
    assert!(clean, "{stderr}\n{text}");
    assert!(
        text.contains("and i32 [[X]], 14") && text.contains("shl i32 [[V]], 2"),
        "{text}"
    );
    assert!(filecheck_passes(&text), "{text}");
}

/// A stand-in `opt` at `dir/name` that leaves `dir/name.ran` and then runs
/// LLVM 22's opt with its arguments.
fn recording_opt(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\ntouch '{}.ran'\nexec '{}' \"$@\"\n",
        path.display(),
        llvm_tool("opt").display()
    );
    std::fs::write(&path, script).unwrap();
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).unwrap();
    path
}

#[test]
fn the_opt_named_by_git_config_is_the_one_that_runs() {
    let tools = tempfile::tempdir().unwrap();
    let opt = recording_opt(tools.path(), "opt");
    let base = fixture("base.ll");
    let config = [("irgit.opt", opt.to_str().unwrap())];
    let theirs = theirs_in_f_too(&base);
    let (clean, text, stderr) = git_merge(&base, &fixture("ours.ll"), &theirs, &config);
    assert!(clean, "{stderr}");
    assert!(filecheck_passes(&text), "{text}");
    assert!(
        tools.path().join("opt.ran").exists(),
        "irgit.opt was not used"
    );
}

#[test]
fn nothing_the_branch_brought_runs() {
    let tools = tempfile::tempdir().unwrap();
    let evil = recording_opt(tools.path(), "evil");
    let base = fixture("base.ll");
    // An opt path in UTC_ARGS, and a RUN line that loads a plugin.
    let with = |text: &str| {
        text.replace(
            "UTC_ARGS: --version 5",
            &format!("UTC_ARGS: --version 5 --opt-binary {}", evil.display()),
        )
        .replace(
            "; RUN: opt < %s",
            "; RUN: opt -load-pass-plugin=plugin.so < %s",
        )
    };
    let (base, ours, theirs) = (
        with(&base),
        with(&fixture("ours.ll")),
        with(&theirs_in_f_too(&base)),
    );
    let (clean, text, stderr) = git_merge(&base, &ours, &theirs, &[]);
    assert!(
        !clean,
        "a RUN line irgit refuses to run cannot pass:\n{text}"
    );
    assert!(has_conflict_markers(&text, 7), "{text}");
    assert!(stderr.contains("-load-pass-plugin"), "{stderr}");
    assert!(
        !tools.path().join("evil.ran").exists(),
        "the opt of UTC_ARGS ran"
    );
}

#[test]
fn the_command_outside_git_checks_too() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["base", "ours", "theirs"] {
        std::fs::write(dir.path().join(name), fixture(&format!("{name}.ll"))).unwrap();
    }
    let out = Command::new(irgit_bin())
        .current_dir(dir.path())
        .args(["merge", "base", "ours", "theirs", "-o", "out"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.path().join("out")).unwrap();
    assert!(has_conflict_markers(&text, 7), "{text}");
}

/// A RUN line irgit does not run (another project's tool) says nothing
/// either way. Edits in two functions keep each function's CHECK block
/// with its own IR: clean, as git is (downstream tests of 2 real histories
/// conflicted here although git was clean and right). Edits in one
/// function cannot be checked: a conflict naming it.
#[test]
fn a_run_line_irgit_cannot_run_holds_back_only_a_function_both_sides_changed() {
    let downstream = |text: &str| text.replace("; RUN: opt < %s", "; RUN: igc_opt < %s");
    let base = downstream(&fixture("base.ll"));
    let ours = downstream(&fixture("ours.ll"));
    let (clean, text, stderr) = git_merge(&base, &ours, &theirs_in_g(&base), &[]);
    assert!(clean, "{stderr}\n{text}");
    assert!(
        text.contains("and i32 [[X]], 14") && text.contains("shl i32 [[V]], 2"),
        "{text}"
    );
    let (clean, text, stderr) = git_merge(&base, &ours, &theirs_in_f_too(&base), &[]);
    assert!(!clean, "{text}");
    assert!(has_conflict_markers(&text, 7), "{text}");
    assert!(
        stderr.contains("both sides changed @f") && stderr.contains("igc_opt"),
        "{stderr}"
    );
}

/// A RUN line that fails on ours' own version (an option of another
/// project's opt) cannot tell a stale merge: the message says so, and
/// does not call the merged test failing.
#[test]
fn a_run_line_failing_on_ours_too_is_not_called_a_failure_of_the_merge() {
    let downstream = |text: &str| {
        text.replace(
            "; RUN: opt < %s -passes=instcombine",
            "; RUN: opt < %s --some-downstream-option -passes=instcombine",
        )
    };
    let base = downstream(&fixture("base.ll"));
    let ours = downstream(&fixture("ours.ll"));
    let (clean, text, stderr) = git_merge(&base, &ours, &theirs_in_f_too(&base), &[]);
    assert!(!clean, "{text}");
    assert!(
        stderr.contains("fail on ours' own version too")
            && !stderr.contains("the merged test fails"),
        "{stderr}"
    );
}
