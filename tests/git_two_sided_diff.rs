//! `git diff` as `irgit install` sets it up: git's external diff sees both
//! versions and prints the smaller of git's own diff and the views' diff,
//! never longer than git's (issue: "at worst, git's own answer"). Real git,
//! real clang-22 output, real LLVM.
//!
//! ```text
//! tests/two_sided/template-side: a template (`@MASK@`) filled in
//!   git alone: 2 changed lines; the views' diff: more             ─► git's diff, byte for byte
//! tests/two_sided/one-side-rejected: old syntax (`metadata !{!4}`) modernized
//!   git alone: 2 changed lines; the views' diff: 2 (read upgraded)
//! structs.c at -O0, one statement inserted: every `%N` below renumbered
//!   git alone: many lines; the views' diff: few                  ─► the views' diff
//! ```

mod git_support;

use std::path::Path;

use git_support::Repo;

/// `+`/`-` lines of a diff, without its `---`/`+++` header lines.
fn changed_lines(diff: &str) -> usize {
    diff.lines()
        .filter(|l| {
            (l.starts_with('+') || l.starts_with('-'))
                && !l.starts_with("+++")
                && !l.starts_with("---")
        })
        .count()
}

fn fixture(case: &str, name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/two_sided")
        .join(case)
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A repository with irgit installed (defaults) and `old` committed as
/// `rel`, then `new` written over it in the work tree.
fn changed(rel: &str, old: &[u8], new: &[u8]) -> Repo {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    r.write(rel, old);
    r.commit_all("old");
    r.write(rel, new);
    r
}

/// git's own diff, without irgit.
fn git_alone(r: &Repo, rel: &str) -> String {
    r.git(&["diff", "--no-ext-diff", "--no-textconv", "--", rel])
}

#[test]
fn install_sets_up_the_external_diff_for_text_ir() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    let command = r.git(&["config", "diff.llvm-ir.command"]);
    assert!(command.contains(" diff --smallest"), "{command}");
    let (ok, doctor) = r.doctor();
    assert!(ok, "{doctor}");
    assert!(
        doctor.contains("the smaller of git's own diff and the views' diff"),
        "{doctor}"
    );
}

/// A template (`@MASK@` where the build writes a constant), which no
/// version of LLVM reads, filled in: git's own diff, header and all.
#[test]
fn a_side_llvm_rejects_gets_gits_own_diff() {
    let case = "template-side";
    let r = changed("t.ll", &fixture(case, "old.ll"), &fixture(case, "new.ll"));
    let shown = r.git(&["diff", "--", "t.ll"]);
    let git = git_alone(&r, "t.ll");
    assert_eq!(changed_lines(&git), 2, "{git}");
    assert_eq!(shown, git, "irgit's diff is git's own, header and all");
    // textconv alone (git log -p, --no-ext-diff) shows more: the file LLVM
    // rejects as written beside its neighbour's numbered values named.
    let textconv = r.git(&["diff", "--no-ext-diff", "--", "t.ll"]);
    assert!(changed_lines(&textconv) > changed_lines(&git), "{textconv}");
}

/// A test in metadata syntax LLVM 22 no longer reads (`metadata !{!4}`)
/// modernized: the older version is read upgraded, so textconv alone
/// (git log -p) shows what git shows, no longer one version as written and
/// the other with its numbered values named (42 lines for git's 2).
#[test]
fn a_side_in_old_metadata_syntax_shows_what_git_shows() {
    let case = "one-side-rejected";
    let r = changed("t.ll", &fixture(case, "old.ll"), &fixture(case, "new.ll"));
    let git = git_alone(&r, "t.ll");
    let textconv = r.git(&["diff", "--no-ext-diff", "--", "t.ll"]);
    assert_eq!(changed_lines(&git), 2, "{git}");
    assert_eq!(changed_lines(&textconv), 2, "{textconv}");
    assert!(changed_lines(&r.git(&["diff", "--", "t.ll"])) <= 2);
}

/// structs.c at -O0, and the same with one statement inserted into one
/// function: textual IR as clang-22 writes it.
fn compiled_pair() -> (String, String) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/structs.c");
    let text = std::fs::read_to_string(&src).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let compile = |source: &str| {
        let c = dir.path().join("structs.c");
        std::fs::write(&c, source).unwrap();
        let out = std::process::Command::new("clang-22")
            .current_dir(dir.path())
            .args(["-S", "-emit-llvm", "-O0", "-o", "-", "structs.c"])
            .output()
            .expect("clang-22");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let open = text.find("{\n").expect("a function body") + 2;
    let edited = format!(
        "{}  volatile int irgit_probe = 3; (void)irgit_probe;\n{}",
        &text[..open],
        &text[open..]
    );
    (compile(&text), compile(&edited))
}

#[test]
fn a_recompiled_file_shows_the_views_diff_when_it_is_smaller() {
    let (old, new) = compiled_pair();
    let r = changed("s.ll", old.as_bytes(), new.as_bytes());
    let shown = r.git(&["diff", "--", "s.ll"]);
    let git = git_alone(&r, "s.ll");
    let textconv = r.git(&["diff", "--no-ext-diff", "--", "s.ll"]);
    assert!(changed_lines(&shown) > 0, "the change shows");
    assert!(
        changed_lines(&shown) <= changed_lines(&git),
        "never longer than git's:\n{shown}"
    );
    assert_eq!(
        changed_lines(&shown),
        changed_lines(&git).min(changed_lines(&textconv))
    );
    assert!(
        shown.starts_with("diff --git a/s.ll b/s.ll\nindex "),
        "{shown}"
    );
}

#[test]
fn gits_other_commands_keep_working() {
    let (old, new) = compiled_pair();
    let r = changed("s.ll", old.as_bytes(), new.as_bytes());
    let stat = r.git(&["diff", "--stat"]);
    assert!(stat.contains("s.ll"), "{stat}");
    r.commit_all("new");
    let log = r.git(&["log", "-p", "-1"]);
    assert!(log.contains("diff --git a/s.ll b/s.ll"), "{log}");
    let show = r.git(&["show", "--ext-diff", "HEAD"]);
    assert!(
        changed_lines(&show) > 0 && show.contains("diff --git a/s.ll b/s.ll"),
        "{show}"
    );
    let raw = r.git(&["show", "--no-ext-diff", "--no-textconv", "HEAD"]);
    assert!(changed_lines(&show) <= changed_lines(&raw));
    // An added and a deleted file.
    r.write("added.ll", old.as_bytes());
    r.git(&["add", "added.ll"]);
    let added = r.git(&["diff", "--cached"]);
    assert!(
        added.contains("new file mode 100644") && added.contains("--- /dev/null"),
        "{added}"
    );
}

/// A golden file whose `target` strings a test suite replaced by `"..."`:
/// LLVM 22 rejects it as written, and the view carries those two lines
/// around the parse, so textconv (`git log -p`) shows the canonical view,
/// with the header as written.
#[test]
fn a_sanitized_header_is_carried_through_the_view() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge/rejected/sanitized-header");
    let read = |name: &str| std::fs::read(case.join(name)).unwrap();
    let r = changed("g.ll", &read("base.ll"), &read("ours.ll"));
    let view = r.run(git_support::IRGIT, &["textconv", "g.ll"]);
    let text = String::from_utf8_lossy(&view.stdout);
    assert!(
        view.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&view.stderr)
    );
    assert!(
        text.contains("target datalayout = \"...\"\ntarget triple = \"...\"\n"),
        "{text}"
    );
    let as_written = String::from_utf8_lossy(&read("ours.ll")).into_owned();
    assert_ne!(text, as_written, "a view, not the file as written");
    let textconv = r.git(&["diff", "--no-ext-diff", "--", "g.ll"]);
    assert_eq!(changed_lines(&textconv), 2, "{textconv}");
}

/// git prefers a driver's command to `GIT_EXTERNAL_DIFF` (which `git
/// difftool` sets too): irgit's command steps aside for it, so a user's own
/// external diff and `git difftool` run as without irgit, with git's 7
/// arguments. Also when irgit is gone (the installed command's fallback).
#[test]
fn the_users_external_diff_runs_as_without_irgit() {
    let r = changed(
        "k.ll",
        b"define i32 @f() {\n  ret i32 1\n}\n",
        b"define i32 @f() {\n  ret i32 2\n}\n",
    );
    let script = r.root.join("my-diff.sh");
    std::fs::write(&script, "#!/bin/sh\necho \"my diff of $1 ($#): $2 $5\"\n").unwrap();
    let run = |r: &Repo| {
        let out = r
            .command("git")
            .args(["diff", "--", "k.ll"])
            .env("GIT_EXTERNAL_DIFF", format!("sh {}", script.display()))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let shown = run(&r);
    assert!(shown.starts_with("my diff of k.ll (7): "), "{shown}");
    assert!(shown.trim_end().ends_with(" k.ll"), "{shown}");
    // The installed command without the program it names.
    let command = r.git(&["config", "diff.llvm-ir.command"]);
    let gone = command.replacen(
        &*git_support::bin_dir().to_string_lossy(),
        "/nonexistent",
        1,
    );
    r.git(&["config", "diff.llvm-ir.command", gone.trim_end()]);
    let shown = run(&r);
    assert!(shown.starts_with("my diff of k.ll (7): "), "{shown}");
}
