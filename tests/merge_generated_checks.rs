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
    filecheck_passes_with("-passes=instcombine", test)
}

/// Whether `opt PASSES -S < test | FileCheck test` passes.
fn filecheck_passes_with(passes: &str, test: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.ll");
    std::fs::write(&file, test).unwrap();
    let opt = Command::new(llvm_tool("opt"))
        .args([passes, "-S"])
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

/// The fixture with UTC_ARGS irgit's own regeneration does not cover.
fn version_4(text: &str) -> String {
    text.replace("UTC_ARGS: --version 5", "UTC_ARGS: --version 4")
}

#[test]
fn stale_merged_checks_without_a_regenerator_are_a_conflict_naming_the_function() {
    let (clean, text, stderr) = git_merge(
        &version_4(&fixture("base.ll")),
        &version_4(&fixture("ours.ll")),
        &version_4(&fixture("theirs.ll")),
        &[],
    );
    assert!(!clean, "a clean merge that FileCheck rejects:\n{text}");
    assert!(has_conflict_markers(&text, 7), "{text}");
    assert!(
        stderr.contains("update_test_checks.py")
            && stderr.contains("in @f")
            && stderr.contains("RUN line 2")
            && stderr.contains("did not regenerate them: UTC_ARGS `--version 4`"),
        "{stderr}"
    );
}

/// The wrong merge of the issue, merged right: the IR of both sides, and
/// the CHECK lines opt's folding of it needs, written anew once irgit's
/// own regeneration has written each side's checks as they are.
#[test]
fn stale_merged_checks_are_written_anew_for_the_merged_ir() {
    let (clean, text, stderr) = git_merge(
        &fixture("base.ll"),
        &fixture("ours.ll"),
        &fixture("theirs.ll"),
        &[],
    );
    assert!(clean, "{stderr}\n{text}");
    assert!(filecheck_passes(&text), "{text}");
    assert!(
        text.contains("  %a = and i32 %x, 15\n")
            && text.contains("  %c = icmp ult i32 %a, 20\n")
            && text.contains("; CHECK-NEXT:    ret i1 [[D]]\n"),
        "{text}"
    );
    assert!(
        stderr.contains("written anew for the merged IR by irgit's own regeneration"),
        "{stderr}"
    );
}

/// An executable at `dir/name` that leaves `dir/name.ran`, then runs `body`.
fn recording_script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    let script = format!("#!/bin/sh\ntouch '{}.ran'\n{body}\n", path.display());
    std::fs::write(&path, script).unwrap();
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).unwrap();
    path
}

/// `irgit.updateTestChecks` is run as `SCRIPT --opt-binary OPT FILE`; this
/// one regenerates FILE with `irgit regenerate` (irgit's own writer, as
/// no git config reaches it).
#[test]
fn the_script_git_config_names_regenerates_once_it_proves_itself() {
    let tools = tempfile::tempdir().unwrap();
    let body = format!(
        "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null exec '{}' regenerate \"$3\"",
        irgit_bin().display()
    );
    let script = recording_script(tools.path(), "utc", &body);
    let config = [("irgit.updateTestChecks", script.to_str().unwrap())];
    let (base, ours, theirs) = (fixture("base.ll"), fixture("ours.ll"), fixture("theirs.ll"));
    let (clean, text, stderr) = git_merge(&base, &ours, &theirs, &config);
    assert!(clean, "{stderr}\n{text}");
    assert!(filecheck_passes(&text), "{text}");
    assert!(
        tools.path().join("utc.ran").exists(),
        "the script did not run"
    );
    assert!(stderr.contains("(irgit.updateTestChecks)"), "{stderr}");
}

/// A script that does not write the sides' own CHECK lines (this one
/// writes nothing) is not used: the merge conflicts and says why.
#[test]
fn a_regenerator_that_does_not_reproduce_the_sides_is_not_used() {
    let tools = tempfile::tempdir().unwrap();
    let script = recording_script(tools.path(), "utc", "exit 0");
    let config = [("irgit.updateTestChecks", script.to_str().unwrap())];
    let (base, ours, theirs) = (fixture("base.ll"), fixture("ours.ll"), fixture("theirs.ll"));
    let (clean, text, stderr) = git_merge(&base, &ours, &theirs, &config);
    assert!(!clean, "{text}");
    assert!(has_conflict_markers(&text, 7), "{text}");
    assert!(tools.path().join("utc.ran").exists());
    assert!(
        stderr.contains("does not write base's CHECK lines from its own IR as they are"),
        "{stderr}"
    );
}

/// A script the branch brought (in the repository, where the NOTE line
/// says it is) never runs: with no git config naming one, irgit's own
/// regeneration merges.
#[test]
fn a_script_in_the_repository_never_runs() {
    let marker = tempfile::tempdir().unwrap();
    let ran = marker.path().join("ran");
    let evil = format!(
        "import pathlib\npathlib.Path('{}').write_text('ran')\n",
        ran.display()
    );
    let repo = Repo::new();
    repo.install_driver();
    repo.commit_file("utils/update_test_checks.py", &evil, "the branch's script");
    repo.commit_file("update_test_checks.py", &evil, "and another");
    repo.commit_file("t.ll", &fixture("base.ll"), "base");
    repo.ok(&["checkout", "-q", "-b", "theirs"]);
    repo.commit_file("t.ll", &fixture("theirs.ll"), "theirs");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("t.ll", &fixture("ours.ll"), "ours");
    let out = repo.git(&["merge", "-q", "--no-edit", "theirs"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!ran.exists(), "a script from the repository ran");
    assert!(filecheck_passes(&repo.read("t.ll")));
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
    let run_opt = format!("exec '{}' \"$@\"", llvm_tool("opt").display());
    recording_script(dir, name, &run_opt)
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
    assert!(stderr.contains("its UTC_ARGS name a program"), "{stderr}");
}

#[test]
fn the_command_outside_git_checks_too() {
    let dir = tempfile::tempdir().unwrap();
    let merge = |edit: &dyn Fn(&str) -> String| {
        for name in ["base", "ours", "theirs"] {
            let text = edit(&fixture(&format!("{name}.ll")));
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let out = Command::new(irgit_bin())
            .current_dir(dir.path())
            .args(["merge", "base", "ours", "theirs", "-o", "out"])
            .output()
            .unwrap();
        let text = std::fs::read_to_string(dir.path().join("out")).unwrap();
        (
            out.status.code(),
            text,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, text, stderr) = merge(&version_4);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(has_conflict_markers(&text, 7), "{text}");
    let (code, text, stderr) = merge(&|t: &str| t.to_string());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(filecheck_passes(&text), "{text}");
}

/// `irgit regenerate` on `text` in a directory of its own: (exit code,
/// the file after, stderr).
fn regenerate(text: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.ll"), text).unwrap();
    let out = Command::new(irgit_bin())
        .current_dir(dir.path())
        .args(["regenerate", "t.ll"])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    let after = std::fs::read_to_string(dir.path().join("t.ll")).unwrap();
    (
        out.status.code(),
        after,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A test left with its CHECK lines in conflict (the IR merged): `irgit
/// regenerate` writes them anew and removes the markers; a conflict in
/// the IR itself is left for the user, the file as it was.
#[test]
fn regenerate_resolves_a_test_whose_check_lines_conflict() {
    let (ours, theirs) = (fixture("ours.ll"), fixture("theirs.ll"));
    let checks = |text: &str| -> String {
        let start = text.find("; CHECK-LABEL: define i1 @f(").unwrap();
        let end = text[start..].find("\n;\n").unwrap() + start + 1;
        text[start..end].to_string()
    };
    let merged_ir = ours.replace("icmp ult i32 %a, 10", "icmp ult i32 %a, 20");
    let conflicted = merged_ir.replace(
        &checks(&ours),
        &format!(
            "<<<<<<< ours\n{}=======\n{}>>>>>>> theirs\n",
            checks(&ours),
            checks(&theirs)
        ),
    );
    assert!(has_conflict_markers(&conflicted, 7));
    let (code, after, stderr) = regenerate(&conflicted);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        !has_conflict_markers(&after, 7) && filecheck_passes(&after),
        "{after}"
    );
    assert!(after.contains("; CHECK-NEXT:    ret i1 [[D]]\n"), "{after}");
    assert_eq!(
        regenerate(&after).1,
        after,
        "regenerating again changes nothing"
    );

    let in_ir = format!(
        "{}<<<<<<< ours\n  %w = mul i32 %v, 2\n=======\n  %w = mul i32 %v, 4\n>>>>>>> theirs\n",
        &after[..after.rfind("  %w = mul i32 %v, 2\n").unwrap()]
    ) + "  ret i32 %w\n}\n";
    let (code, left, stderr) = regenerate(&in_ir);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(left, in_ir, "the file is left as it was");
    assert!(stderr.contains("more than its CHECK lines"), "{stderr}");
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

/// `text` (IR with a NOTE and a RUN line, no checks) with its CHECK lines
/// as irgit's own regeneration writes them.
fn with_checks(text: &str) -> String {
    let (code, after, stderr) = regenerate(text);
    assert_eq!(code, Some(0), "{stderr}");
    after
}

/// Each side changes the CHECK lines of its own function only, yet one
/// side's IR makes the other's checks stale: ours changes @f, theirs
/// starts calling @f from @g, and the RUN line inlines it, so theirs'
/// checks of @g show @f's old body. FileCheck fails on the line merge:
/// the CHECK lines are written anew (clean, passing), or, where no
/// regenerator covers the test, the merge conflicts.
#[test]
fn one_sides_ir_making_the_other_sides_checks_stale_is_caught() {
    let head = "; NOTE: Assertions have been autogenerated by utils/update_test_checks.py UTC_ARGS: --version 5\n; RUN: opt < %s -passes=inline -S | FileCheck %s\n\n";
    let f =
        |k: i32| format!("define i32 @f(i32 %x) {{\n  %r = add i32 %x, {k}\n  ret i32 %r\n}}\n\n");
    let g_plain = "define i32 @g(i32 %y) {\n  ret i32 %y\n}\n";
    let g_calls = "define i32 @g(i32 %y) {\n  %c = call i32 @f(i32 %y)\n  ret i32 %c\n}\n";
    let base = with_checks(&format!("{head}{}{g_plain}", f(1)));
    let ours = with_checks(&format!("{head}{}{g_plain}", f(2)));
    let theirs = with_checks(&format!("{head}{}{g_calls}", f(1)));
    let (git_clean, git_text, _) = git_merge_file(&base, &ours, &theirs);
    assert!(
        git_clean && !filecheck_passes_inline(&git_text),
        "{git_text}"
    );

    let (clean, text, stderr) = git_merge(&base, &ours, &theirs, &[]);
    assert!(clean, "{stderr}\n{text}");
    assert!(filecheck_passes_inline(&text), "{text}");
    assert!(text.contains("add i32 [[Y]], 2"), "{text}");

    let (clean, text, stderr) = git_merge(
        &version_4(&base),
        &version_4(&ours),
        &version_4(&theirs),
        &[],
    );
    assert!(!clean, "{text}");
    assert!(stderr.contains("RUN line 2 in @g"), "{stderr}");
}

/// `opt -passes=inline -S < test | FileCheck test`.
fn filecheck_passes_inline(test: &str) -> bool {
    filecheck_passes_with("-passes=inline", test)
}

/// RUN lines with several prefixes: a function both print alike is
/// checked under the prefix they share, one they print differently under
/// each line's own; the result passes FileCheck and regenerates to itself.
#[test]
fn a_prefix_shared_by_run_lines_checks_what_they_print_alike() {
    let test = "; NOTE: Assertions have been autogenerated by utils/update_test_checks.py UTC_ARGS: --version 5\n\
        ; RUN: opt < %s -passes=instcombine -S | FileCheck %s --check-prefixes=CHECK,IC\n\
        ; RUN: opt < %s -S | FileCheck %s --check-prefixes=CHECK,NONE\n\n\
        define i32 @same(i32 %x) {\n  %r = add i32 %x, 1\n  ret i32 %r\n}\n\n\
        define i32 @differs(i32 %x) {\n  %a = mul i32 %x, 2\n  ret i32 %a\n}\n";
    let (code, after, stderr) = regenerate(test);
    assert_eq!(code, Some(0), "{stderr}");
    for line in [
        "; CHECK-LABEL: define i32 @same(",
        "; IC-LABEL: define i32 @differs(",
        "; IC-NEXT:    [[A:%.*]] = shl i32 [[X]], 1",
        "; NONE-LABEL: define i32 @differs(",
        "; NONE-NEXT:    [[A:%.*]] = mul i32 [[X]], 2",
    ] {
        assert!(after.contains(line), "{line}:\n{after}");
    }
    assert!(!after.contains("; IC-LABEL: define i32 @same("), "{after}");
    assert_eq!(
        regenerate(&after).1,
        after,
        "regenerating again changes nothing"
    );
}
