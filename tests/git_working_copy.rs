//! The hook, the clean filter and the drivers in a working copy people live
//! in: clang-22's own output, drivers git finds without `PATH`, conflict
//! styles, hunk headers, help and messages. Every test drives the real
//! `git` in a temporary repository (see `git_support`).

mod git_support;
use git_support::{clang, Repo};

/// The C file `c_file` beside this test, compiled by clang-22 at `opt_level`.
fn clang_output(repo: &Repo, c_file: &str, opt_level: &str) -> String {
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/working_copy")
        .join(c_file);
    clang(repo, &std::fs::read_to_string(source).unwrap(), opt_level)
}

fn hook_repo() -> Repo {
    let repo = Repo::new();
    repo.irgit_ok(&["install", "--hook"]);
    repo.write("README", "hello\n");
    repo.commit_all("init");
    repo
}

/// `git commit -a -m MSG` (after `git add -A`): whether it succeeded, and its stderr.
fn commit(repo: &Repo, msg: &str) -> (bool, String) {
    repo.git(&["add", "-A"]);
    let out = repo.run("git", &["commit", "-q", "-m", msg]);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// ------------------------------------------------ item 1: clang-22's own output

#[test]
fn clang_22_output_with_llvm_assume_is_stored_in_canonical_form() {
    let repo = hook_repo();
    let ir = clang_output(&repo, "intrinsic_groups.c", "-O2");
    assert!(
        ir.contains("@llvm.assume"),
        "the fixture needs an llvm.assume"
    );
    assert!(
        ir.contains("@llvm.va_start"),
        "and intrinsics sharing a group"
    );
    repo.write("groups.ll", &ir);
    let (ok, err) = commit(&repo, "clang output");
    assert!(ok, "{err}");
    assert!(!err.contains("another syntax"), "{err}");
    assert_eq!(repo.git(&["show", "HEAD:groups.ll"]), repo.canon(&ir));
}

// ------------------------------------------------ item 4: drivers git finds

const SUM_C: &str = "int sum(int *a, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++)\n    s += a[i] * 3;\n  return s;\n}\n";

/// `source` compiled by clang-22 at -O0.
fn clang_o0(repo: &Repo, source: &str) -> String {
    clang(repo, source, "-O0")
}

/// Runs git; its status, stdout and stderr.
fn git_full(repo: &Repo, args: &[&str]) -> (bool, String, String) {
    let out = repo.run_in(&repo.root, "git", args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// With `sum.ll` changed: `git status` lists it, and `git diff` works;
/// the diff and its stderr.
fn status_and_diff(repo: &Repo) -> (String, String) {
    let (ok, status, err) = git_full(repo, &["status", "--porcelain"]);
    assert!(ok, "{err}");
    assert_eq!(status, " M sum.ll\n");
    let (ok, diff, err) = git_full(repo, &["diff"]);
    assert!(ok, "{err}");
    (diff, err)
}

#[test]
fn git_runs_the_drivers_without_irgit_on_path() {
    let mut repo = hook_repo();
    let ir = clang_o0(&repo, SUM_C);
    repo.write("sum.ll", &ir);
    repo.commit_all("sum");
    // An IDE, cron or another shell: irgit is not on PATH.
    repo.path_env = "/usr/bin:/bin".into();
    repo.write("sum.ll", ir.replace(", 3\n", ", 5\n"));
    let (diff, _) = status_and_diff(&repo);
    let changed: Vec<&str> = diff
        .lines()
        .filter(|l| (l.starts_with('+') || l.starts_with('-')) && !l.starts_with("+++"))
        .filter(|l| !l.starts_with("---"))
        .collect();
    assert_eq!(changed.len(), 2, "the canonical diff is one line:\n{diff}");
    let (ok, _, err) = git_full(&repo, &["commit", "-q", "-a", "-m", "five"]);
    assert!(ok, "{err}");
    let stored = repo.git(&["show", "HEAD:sum.ll"]);
    assert_eq!(stored, repo.canon(&ir.replace(", 3\n", ", 5\n")));
    let (ok, report) = repo.doctor();
    assert!(ok, "{report}");
    assert!(!report.contains("PATH"), "{report}");
}

/// A copy of irgit and irgit-textconv in a folder of the test's own.
fn irgit_copy(repo: &Repo) -> std::path::PathBuf {
    let dir = repo._tmp.path().join("moved-bin");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["irgit", "irgit-textconv"] {
        std::fs::copy(git_support::bin_dir().join(name), dir.join(name)).unwrap();
    }
    dir
}

#[test]
fn a_deleted_irgit_degrades_instead_of_breaking_git() {
    let mut repo = Repo::new();
    let copy = irgit_copy(&repo);
    let copied = copy.join("irgit");
    let out = repo.run(copied.to_str().unwrap(), &["install", "--hook"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ir = clang_o0(&repo, SUM_C);
    repo.write("sum.ll", &ir);
    repo.commit_all("sum");
    repo.git(&["branch", "side"]);
    std::fs::remove_dir_all(&copy).unwrap();
    repo.path_env = "/usr/bin:/bin".into();

    // status, diff and commit work, and say once what is missing.
    repo.write("sum.ll", ir.replace(", 3\n", ", 5\n"));
    let (diff, err) = status_and_diff(&repo);
    assert!(diff.contains("+  %") && diff.contains(", 5"), "{diff}");
    assert!(err.contains("is missing: showing git's own diff"), "{err}");
    let (ok, _, err) = git_full(&repo, &["commit", "-q", "-a", "-m", "five"]);
    assert!(ok, "{err}");
    assert!(
        err.contains("is missing: IR is committed as written"),
        "{err}"
    );

    // A merge gets git's line merge: a conflict with markers, not "ours".
    repo.git(&["checkout", "-q", "side"]);
    repo.write("sum.ll", ir.replace(", 3\n", ", 7\n"));
    repo.git(&["commit", "-q", "-a", "-m", "seven"]);
    let (ok, _, err) = git_full(&repo, &["merge", "-q", "main"]);
    assert!(!ok, "a conflict: {err}");
    let merged = String::from_utf8(repo.read("sum.ll")).unwrap();
    assert!(
        merged.contains("<<<<<<<") && merged.contains(", 5"),
        "{merged}"
    );
    repo.git(&["merge", "--abort"]);

    // doctor names the command git runs; `irgit install` makes it current.
    repo.path_env = format!("{}:/usr/bin:/bin", git_support::bin_dir().display());
    let (ok, report) = repo.doctor();
    assert!(!ok, "{report}");
    assert!(
        report.contains("moved-bin/irgit") && report.contains("is missing"),
        "{report}"
    );
    repo.irgit_ok(&["install", "--hook"]);
    let (ok, report) = repo.doctor();
    assert!(ok, "{report}");
    let textconv = repo.git(&["config", "diff.llvm-ir.textconv"]);
    assert!(
        textconv.contains(&*git_support::bin_dir().to_string_lossy()),
        "{textconv}"
    );
}

// ------------------------------------------------ item 7: git's conflict style

const CONFLICT_IR: &str =
    "define i32 @f(i32 %a) {\nentry:\n  %x = add i32 %a, 1\n  ret i32 %x\n}\n";

#[test]
fn ir_conflicts_take_gits_default_style_like_the_c_files_beside_them() {
    let repo = Repo::new();
    repo.irgit_ok(&["install"]);
    repo.write("f.ll", CONFLICT_IR);
    repo.write("f.c", "int f(int a) {\n  return a + 1;\n}\n");
    repo.commit_all("base");
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("f.ll", CONFLICT_IR.replace("%a, 1", "%a, 3"));
    repo.write("f.c", "int f(int a) {\n  return a + 3;\n}\n");
    repo.commit_all("three");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("f.ll", CONFLICT_IR.replace("%a, 1", "%a, 2"));
    repo.write("f.c", "int f(int a) {\n  return a + 2;\n}\n");
    repo.commit_all("two");
    let (ok, _, err) = git_full(&repo, &["merge", "-q", "side"]);
    assert!(!ok, "{err}");
    for file in ["f.c", "f.ll"] {
        let text = String::from_utf8(repo.read(file)).unwrap();
        assert!(text.contains("<<<<<<< HEAD"), "{file}:\n{text}");
        assert!(
            !text.contains("|||||||"),
            "{file} has a base section:\n{text}"
        );
    }
    // A configured style still wins, for both.
    repo.git(&["config", "merge.conflictStyle", "diff3"]);
    repo.git(&["checkout", "-m", "--", "f.c", "f.ll"]);
    for file in ["f.c", "f.ll"] {
        let text = String::from_utf8(repo.read(file)).unwrap();
        assert!(text.contains("|||||||"), "{file}:\n{text}");
    }
}

// ------------------------------------------------ item 8: hunk headers

#[test]
fn hunk_headers_name_the_function() {
    let repo = Repo::new();
    repo.irgit_ok(&["install"]);
    let ir = clang_o0(&repo, SUM_C);
    repo.write("sum.ll", &ir);
    repo.commit_all("sum");
    repo.write("sum.ll", ir.replace(", 3\n", ", 5\n"));
    let diff = repo.git(&["diff"]);
    let headers: Vec<&str> = diff.lines().filter(|l| l.starts_with("@@ ")).collect();
    assert!(!headers.is_empty(), "{diff}");
    for header in headers {
        let name = header.rsplit("@@").next().unwrap().trim();
        assert!(
            name.starts_with("define") && name.ends_with("@sum"),
            "{header}\n{diff}"
        );
    }
}

// ------------------------------------------------ item 2: the hook says what it renamed

const HAND_WRITTEN: &str = "define i32 @sum(i32 %n) {\nentry:\n  br label %loop\n\nloop:\n  %i = phi i32 [ 0, %entry ], [ %next, %loop ]\n  %acc = phi i32 [ 0, %entry ], [ %total, %loop ]\n  %total = add i32 %acc, %i\n  %next = add i32 %i, 1\n  %done = icmp eq i32 %next, %n\n  br i1 %done, label %exit, label %loop\n\nexit:\n  ret i32 %total\n}\n";

#[test]
fn the_hook_says_which_names_the_commit_renames_and_how_to_keep_them() {
    let repo = hook_repo();
    repo.write("sum.ll", HAND_WRITTEN);
    let (ok, err) = commit(&repo, "hand-written");
    assert!(ok, "{err}");
    let stored = repo.git(&["show", "HEAD:sum.ll"]);
    assert!(!stored.contains("%acc"), "{stored}");
    assert!(
        err.contains("sum.ll: stored in canonical form") && err.contains("%loop"),
        "{err}"
    );
    assert!(err.contains("rename_values: false"), "{err}");
    assert_eq!(
        repo.read("sum.ll"),
        HAND_WRITTEN.as_bytes(),
        "the work tree keeps them"
    );

    // The setting it offers keeps the names, and then there is nothing to say.
    repo.write(
        ".irgit.yaml",
        "canon:\n  rename_values: false\n  rename_blocks: false\n",
    );
    repo.write("kept.ll", HAND_WRITTEN.replace("@sum", "@kept"));
    let (ok, err) = commit(&repo, "names kept");
    assert!(ok, "{err}");
    let stored = repo.git(&["show", "HEAD:kept.ll"]);
    assert!(
        stored.contains("%acc = phi") && stored.contains("loop:"),
        "{stored}"
    );
    assert!(!err.contains("renamed"), "{err}");
}

// ------------------------------------------------ item 9: help and messages

#[test]
fn every_subcommand_help_has_examples() {
    let repo = Repo::new();
    for command in [
        "canon",
        "merge",
        "textconv",
        "doctor",
        "install",
        "uninstall",
        "hook",
        "filter-process",
        "diff",
    ] {
        let help = repo.irgit_ok(&[command, "--help"]);
        let examples = help.split("Examples:").nth(1).unwrap_or("");
        assert!(
            examples
                .lines()
                .filter(|l| l.trim_start().starts_with("irgit "))
                .count()
                >= 1,
            "`irgit {command} --help` has no example:\n{help}"
        );
    }
}

#[test]
fn install_global_hook_explains_what_to_run() {
    let repo = Repo::new();
    let out = repo.irgit(&["install", "--global", "--hook"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("irgit install --global")
            && err.contains("`irgit install --hook` inside each"),
        "{err}"
    );
    assert!(!err.contains("cannot be used with"), "{err}");
    assert!(
        !repo.home.join(".gitconfig").exists(),
        "nothing was written"
    );
}

#[test]
fn doctor_names_the_pattern_not_a_made_up_file() {
    let repo = Repo::new();
    repo.irgit_ok(&["install", "--hook"]);
    let (ok, report) = repo.doctor();
    assert!(ok, "{report}");
    assert!(report.contains("`*.ll`"), "{report}");
    assert!(!report.contains("probe"), "{report}");
}

#[test]
fn a_standalone_merge_blames_the_file_that_is_not_ir() {
    let repo = Repo::new();
    repo.write("b.txt", "a\nb\n");
    repo.write("o2.txt", "a\nB\n");
    repo.write("t.txt", "a\nb\nc\n");
    let out = repo.irgit(&["merge", "b.txt", "o2.txt", "t.txt", "-o", "m.txt"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("base version: not valid LLVM IR: b.txt:1:1"),
        "{err}"
    );
    assert!(!err.contains("o2.txt:1:1"), "{err}");
}

#[test]
fn irgit_diff_of_a_path_missing_at_the_revision_is_an_error() {
    let repo = Repo::new();
    repo.write("README", "hello\n");
    repo.commit_all("init");
    repo.write("new.ll", CONFLICT_IR);
    let out = repo.irgit(&["diff", "HEAD", "--", "new.ll"]);
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("new.ll: not in HEAD"), "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

// ------------------------------------------------ item 6: stderr of git log -p

#[test]
fn git_log_p_says_once_per_file_why_it_shows_ir_as_written() {
    let repo = Repo::new();
    repo.irgit_ok(&["install"]);
    for version in 1..=4 {
        repo.write(
            "bad.ll",
            format!("define i32 @f() {{\n  ret i32 %missing{version}\n}}\n"),
        );
        repo.write(
            "good.ll",
            CONFLICT_IR.replace("%a, 1", &format!("%a, {version}")),
        );
        repo.commit_all(&format!("v{version}"));
    }
    let (ok, log, err) = git_full(&repo, &["log", "-p"]);
    assert!(ok, "{err}");
    assert!(
        log.contains("+  ret i32 %missing3"),
        "git shows the text:\n{log}"
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("irgit textconv: bad.ll: "), "{err}");
    assert!(lines[0].ends_with("showing bad.ll as written"), "{err}");
    assert!(!err.contains("/tmp/") && !err.contains("git-blob"), "{err}");
    // Another git command says it again, once.
    let (ok, _, err) = git_full(&repo, &["show", "HEAD"]);
    assert!(ok, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

// ------------------------------------------------ item 3: what only git's size check sees

#[test]
fn irgit_refresh_clears_a_change_only_the_size_check_sees() {
    let repo = hook_repo();
    let ir = clang_o0(&repo, SUM_C);
    repo.write("sum.ll", &ir);
    repo.write("other.ll", CONFLICT_IR);
    repo.commit_all("ir");
    // git writes the canonical text into the work tree (as a checkout,
    // merge or stash pop does); then the compiler writes the same IR again.
    std::fs::remove_file(repo.root.join("sum.ll")).unwrap();
    repo.git(&["checkout", "--", "sum.ll"]);
    assert_eq!(
        repo.git(&["show", "HEAD:sum.ll"]).as_bytes(),
        repo.read("sum.ll")
    );
    repo.write("sum.ll", &ir);
    repo.write("other.ll", CONFLICT_IR.replace("%a, 1", "%a, 2"));
    assert_eq!(repo.git(&["diff", "--", "sum.ll"]), "", "no change to show");
    let (ok, report) = repo.doctor();
    assert!(ok, "{report}");
    assert!(
        report.contains("look modified to `git status` only by their size, e.g. sum.ll")
            && report.contains("`irgit refresh`"),
        "{report}"
    );
    let out = repo.irgit_ok(&["refresh"]);
    assert!(out.contains("sum.ll: unchanged"), "{out}");
    assert!(out.contains("other.ll: modified"), "{out}");
    assert_eq!(repo.git(&["status", "--porcelain"]), " M other.ll\n");
    assert_eq!(repo.git(&["diff", "--cached"]), "", "nothing was staged");
    assert_eq!(
        repo.read("sum.ll"),
        ir.as_bytes(),
        "the work tree is untouched"
    );
    let (_, report) = repo.doctor();
    assert!(!report.contains("irgit refresh"), "{report}");
}

// ------------------------------------------------ item 10: other clients

const TWO_LINES: &str = "define i32 @f(i32 %a) {\nentry:\n  %x = add i32 %a, 1\n  %y = mul i32 %x, 2\n  ret i32 %y\n}\n";

#[test]
fn git_difftool_runs_irgit_diff() {
    let repo = Repo::new();
    repo.git(&[
        "config",
        "difftool.irgit.cmd",
        "irgit diff \"$LOCAL\" \"$REMOTE\"",
    ]);
    repo.write("f.ll", TWO_LINES);
    repo.commit_all("one");
    repo.write("f.ll", TWO_LINES.replace("%a, 1", "%a, 5"));
    let (ok, out, err) = git_full(&repo, &["difftool", "-y", "-t", "irgit", "--", "f.ll"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("functions: 1 changed") && out.contains("@f"),
        "{out}"
    );
}

#[test]
fn git_mergetool_runs_irgit_merge() {
    let repo = Repo::new();
    repo.git(&[
        "config",
        "mergetool.irgit.cmd",
        "irgit merge \"$BASE\" \"$LOCAL\" \"$REMOTE\" -o \"$MERGED\"",
    ]);
    repo.git(&["config", "mergetool.irgit.trustExitCode", "true"]);
    repo.git(&["config", "mergetool.keepBackup", "false"]);
    repo.write("f.ll", TWO_LINES);
    repo.commit_all("base");
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("f.ll", TWO_LINES.replace("%x, 2", "%x, 3"));
    repo.commit_all("side");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("f.ll", TWO_LINES.replace("%a, 1", "%a, 5"));
    repo.commit_all("main");
    // Without irgit's merge driver, git's line merge conflicts on the
    // neighbouring lines; the merge tool resolves them.
    let (ok, _, _) = git_full(&repo, &["merge", "-q", "side"]);
    assert!(!ok, "git's line merge conflicts");
    let (ok, out, err) = git_full(&repo, &["mergetool", "-y", "-t", "irgit", "--", "f.ll"]);
    assert!(ok, "{out}{err}");
    let merged = String::from_utf8(repo.read("f.ll")).unwrap();
    assert!(!merged.contains("<<<<<<<"), "{merged}");
    assert!(
        merged.contains("%a, 5") && merged.contains("%x, 3"),
        "{merged}"
    );
    assert_eq!(repo.git(&["diff", "--name-only", "--diff-filter=U"]), "");
}

// ------------------------------------------------ item 5: git's textconv cache, opt-in

fn has_ref(repo: &Repo, name: &str) -> bool {
    repo.run("git", &["rev-parse", "-q", "--verify", name])
        .status
        .success()
}

#[test]
fn git_cache_is_opt_in_and_doctor_drops_its_stale_entries() {
    let repo = Repo::new();
    repo.irgit_ok(&["install", "--git-cache"]);
    assert_eq!(
        repo.git(&["config", "diff.llvm-ir.cachetextconv"]),
        "true\n"
    );
    let textconv = repo.git(&["config", "diff.llvm-ir.textconv"]);
    assert!(textconv.contains("--canon-version="), "{textconv}");
    let ir = clang_o0(&repo, SUM_C);
    repo.write("sum.ll", &ir);
    repo.commit_all("sum");
    repo.write("sum.ll", ir.replace(", 3\n", ", 5\n"));
    repo.commit_all("five");
    let canonical_log = repo.git(&["log", "-p"]);
    assert!(
        has_ref(&repo, "refs/notes/textconv/llvm-ir"),
        "git filled its cache"
    );
    let (ok, report) = repo.doctor();
    assert!(ok, "{report}");

    // A fallback (a time-out) is kept by git's cache; doctor finds it.
    repo.write("sum.ll", ir.replace(", 3\n", ", 7\n"));
    repo.commit_all("seven");
    repo.write(".irgit.yaml", "textconv:\n  timeout_seconds: 0.000001\n");
    repo.git(&["log", "-p", "-1"]);
    std::fs::remove_file(repo.root.join(".irgit.yaml")).unwrap();
    let (ok, report) = repo.doctor();
    assert!(!ok, "{report}");
    assert!(
        report.contains("refs/notes/textconv/llvm-ir holds")
            && report.contains("differ from what irgit shows now"),
        "{report}"
    );
    let fixed = repo.irgit_ok(&["doctor", "--fix"]);
    assert!(
        fixed.contains("fixed: dropped refs/notes/textconv/llvm-ir"),
        "{fixed}"
    );
    assert!(!has_ref(&repo, "refs/notes/textconv/llvm-ir"));
    let log = repo.git(&["log", "-p"]);
    assert!(
        log.ends_with(&canonical_log),
        "the history shows canonical text again"
    );

    // Other settings: doctor asks for a new install, which starts a new cache.
    repo.write(".irgit.yaml", "canon:\n  rename_values: false\n");
    let (ok, report) = repo.doctor();
    assert!(
        !ok && report.contains("irgit install --git-cache"),
        "{report}"
    );
    repo.irgit_ok(&["install", "--git-cache"]);
    let (ok, report) = repo.doctor();
    assert!(
        !ok && report.contains("another textconv command"),
        "{report}"
    );
    repo.irgit_ok(&["doctor", "--fix"]);
    let (ok, report) = repo.doctor();
    assert!(ok, "{report}");

    // Without --git-cache, install goes back to irgit's own cache.
    repo.irgit_ok(&["install"]);
    assert_eq!(
        repo.git(&["config", "diff.llvm-ir.cachetextconv"]),
        "false\n"
    );
}
