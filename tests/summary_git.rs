//! `irgit diff` with real git: two revisions of a path read through
//! libgit2, and `irgit install --diff-summary` making `git diff` call
//! `irgit diff` as its external diff (7 arguments, 9 for a rename, /dev/null
//! for an added file), with `uninstall --diff-summary` and `doctor`.
//! Every test runs git in a temporary repository with a clean environment.
//!
//! ```text
//! git diff             -> irgit diff a/k.ll b/k.ll / functions: 1 changed, 2 unchanged ...
//! git diff --no-ext-diff -> diff --git a/k.ll b/k.ll (canonical text, textconv)
//! ```

mod git_support;

use std::process::Command;

use git_support::{Repo, IRGIT};

const V1: &str = r#"source_filename = "k.c"

define i32 @scale(i32 %x) {
entry:
  %a = mul i32 %x, 3
  %b = add i32 %a, 1
  ret i32 %b
}

define i32 @keep(i32 %x) {
entry:
  %a = xor i32 %x, 5
  ret i32 %a
}

define i32 @helper(i32 %x, i32 %y) {
entry:
  %s = sub i32 %x, %y
  %m = mul i32 %s, %s
  %r = ashr i32 %m, 2
  ret i32 %r
}
"#;

/// `scale` edited, `helper` renamed `diffsq`.
fn v2() -> String {
    V1.replace("%b = add i32 %a, 1", "%b = add i32 %a, 9")
        .replace("@helper", "@diffsq")
}

#[test]
fn revisions_of_a_path_are_read_from_git() {
    let r = Repo::new();
    r.write("ir/k.ll", V1);
    r.commit_all("v1");
    r.write("ir/k.ll", v2());
    r.commit_all("v2");
    let out = r.irgit_ok(&["diff", "HEAD~1", "HEAD", "--", "ir/k.ll"]);
    assert!(
        out.starts_with("functions: 1 changed, 1 renamed, 1 unchanged\n"),
        "{out}"
    );
    assert!(out.contains("renamed   @helper -> @diffsq"), "{out}");
    // From a subdirectory, PATH is relative to it.
    let sub = r.root.join("ir");
    let out2 = r.ok_in(&sub, IRGIT, &["diff", "HEAD~1", "HEAD", "--", "k.ll"]);
    assert_eq!(out, out2);
    // One revision: against the work tree.
    r.write("ir/k.ll", V1);
    let back = r.irgit_ok(&["diff", "--json", "HEAD", "--", "ir/k.ll"]);
    let v: serde_json::Value = serde_json::from_str(&back).unwrap();
    assert_eq!(v["old"], "HEAD:ir/k.ll");
    assert_eq!(v["summary"]["renamed"], 1);
    // Nothing changed between a revision and itself.
    let same = r.irgit_ok(&["diff", "HEAD", "HEAD", "--", "ir/k.ll"]);
    assert_eq!(same, "functions: 3 unchanged\n");
    // A path in one revision only is added; in none, an error.
    r.write("ir/new.ll", V1);
    r.commit_all("add");
    let added = r.irgit_ok(&["diff", "HEAD~1", "HEAD", "--", "ir/new.ll"]);
    assert!(added.starts_with("functions: 3 added"), "{added}");
    let o = r.run_in(
        &r.root,
        IRGIT,
        &["diff", "HEAD~2", "HEAD~1", "--", "ir/new.ll"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("in neither revision"));
    let o = r.run_in(
        &r.root,
        IRGIT,
        &["diff", "nosuchrev", "HEAD", "--", "ir/k.ll"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nosuchrev: not a revision"));
}

#[test]
fn git_diff_runs_irgit_diff_after_install_diff_summary() {
    let r = Repo::new();
    r.write("ir/k.ll", V1);
    r.write("notes.txt", "hello\n");
    r.commit_all("v1");
    let config_before = std::fs::read_to_string(r.root.join(".git/config")).unwrap();
    let installed = r.irgit_ok(&["install", "--diff-summary"]);
    assert!(
        installed.contains("diff.llvm-ir.command = irgit diff"),
        "{installed}"
    );
    assert_eq!(
        r.git(&["config", "diff.llvm-bc.command"]).trim(),
        "irgit diff"
    );
    // Idempotent.
    let again = r.irgit_ok(&["install", "--diff-summary"]);
    assert!(again.contains("nothing changed"), "{again}");
    r.commit_all("install");

    // A work-tree edit: git calls `irgit diff` with its 7 arguments.
    r.write("ir/k.ll", v2());
    r.write("notes.txt", "hello again\n");
    let d = r.git(&["diff"]);
    assert!(d.contains("irgit diff a/ir/k.ll b/ir/k.ll\n"), "{d}");
    assert!(
        d.contains("functions: 1 changed, 1 renamed, 1 unchanged"),
        "{d}"
    );
    // Other files keep git's own diff.
    assert!(d.contains("+hello again"), "{d}");
    // --stat through the configured command.
    r.git(&["config", "diff.llvm-ir.command", "irgit diff --stat"]);
    let s = r.git(&["diff", "--", "ir/k.ll"]);
    assert!(s.contains(" @helper => @diffsq"), "{s}");
    r.git(&["config", "diff.llvm-ir.command", "irgit diff"]);
    // Without the external diff: the canonical text (textconv).
    let plain = r.git(&["diff", "--no-ext-diff", "--", "ir/k.ll"]);
    assert!(
        plain.starts_with("diff --git a/ir/k.ll b/ir/k.ll"),
        "{plain}"
    );
    assert!(!plain.contains("functions:"), "{plain}");
    r.commit_all("v2");
    // git log -p keeps the canonical text; --ext-diff asks for the summary.
    let log = r.git(&["log", "-p", "-1"]);
    assert!(!log.contains("functions:"), "{log}");
    let log = r.git(&["log", "-p", "-1", "--ext-diff", "--", "ir/k.ll"]);
    assert!(log.contains("functions: 1 changed, 1 renamed"), "{log}");

    // A rename of the file: 9 arguments.
    r.git(&["mv", "ir/k.ll", "ir/kernel.ll"]);
    r.write("ir/kernel.ll", V1);
    r.commit_all("move");
    let m = r.git(&["diff", "-M50%", "HEAD~1", "HEAD"]);
    assert!(m.contains("irgit diff a/ir/k.ll b/ir/kernel.ll"), "{m}");
    assert!(m.contains("renamed   @diffsq -> @helper"), "{m}");

    // Bitcode goes through the `llvm-bc` driver's command.
    let bc = |text: &str, name: &str| {
        let ll = r.root.join(format!("{name}.tmp.ll"));
        std::fs::write(&ll, text).unwrap();
        let o = Command::new("/usr/lib/llvm-22/bin/llvm-as")
            .arg(&ll)
            .arg("-o")
            .arg(r.root.join("ir/k.bc"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::remove_file(ll).unwrap();
    };
    bc(V1, "v1");
    r.commit_all("bitcode");
    bc(&v2(), "v2");
    let b = r.git(&["diff", "--", "ir/k.bc"]);
    assert!(b.contains("irgit diff a/ir/k.bc b/ir/k.bc"), "{b}");
    assert!(b.contains("renamed   @helper -> @diffsq"), "{b}");
    r.git(&["checkout", "--", "ir/k.bc"]);

    // An added file: /dev/null on the old side.
    r.write("ir/extra.ll", V1);
    r.git(&["add", "ir/extra.ll"]);
    let a = r.git(&["diff", "--cached"]);
    assert!(a.contains("functions: 3 added"), "{a}");

    // Invalid IR: one line, and git goes on (exit 0) to the next file.
    r.write("ir/bad.ll", "this is not IR\n");
    r.git(&["add", "ir/bad.ll"]);
    r.commit_all("more");
    r.write("ir/bad.ll", "still not IR\n");
    r.write("ir/extra.ll", v2());
    let o = r.run_in(&r.root, "git", &["diff"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("ir/bad.ll: not compared as LLVM IR: "),
        "{out}"
    );
    assert!(
        out.contains("irgit diff a/ir/extra.ll b/ir/extra.ll"),
        "{out}"
    );

    // doctor knows about it.
    let doctor = r.run_in(&r.root, IRGIT, &["doctor"]);
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        text.contains("ok: `git diff` shows irgit's function summary"),
        "{text}"
    );
    r.git(&["config", "--unset", "diff.llvm-bc.command"]);
    let doctor = r.run_in(&r.root, IRGIT, &["doctor"]);
    assert!(!doctor.status.success());
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        text.contains("problem: the diff summary is half installed: diff.llvm-bc.command"),
        "{text}"
    );
    r.git(&["config", "diff.llvm-bc.command", "vimdiff"]);
    let text = String::from_utf8_lossy(&r.run_in(&r.root, IRGIT, &["doctor"]).stdout).into_owned();
    assert!(
        text.contains("diff.llvm-bc.command = \"vimdiff\" runs another program"),
        "{text}"
    );
    r.git(&["config", "diff.llvm-bc.command", "irgit diff"]);

    // uninstall --diff-summary: only the commands go.
    let u = r.irgit_ok(&["uninstall", "--diff-summary"]);
    assert!(
        u.contains("diff.llvm-ir.command is irgit's default again"),
        "{u}"
    );
    assert!(u.contains("restored diff.llvm-bc.command"), "{u}");
    assert!(r
        .git(&["config", "diff.llvm-ir.command"])
        .contains("diff --smallest"));
    let o = r.run_in(&r.root, "git", &["config", "diff.llvm-bc.command"]);
    assert!(!o.status.success(), "the bitcode command is unset");
    assert!(r
        .git(&["config", "diff.llvm-ir.textconv"])
        .contains("irgit-textconv"));
    let d = r.git(&["diff", "--", "ir/extra.ll"]);
    assert!(d.starts_with("diff --git"), "{d}");
    let again = r.irgit_ok(&["uninstall", "--diff-summary"]);
    assert!(again.contains("nothing to undo"), "{again}");
    // The full uninstall still restores the config as it was.
    r.irgit_ok(&["uninstall"]);
    let config_after = std::fs::read_to_string(r.root.join(".git/config")).unwrap();
    assert_eq!(config_before, config_after);
}

/// As git's external diff (`irgit install --diff-matched`), a side that is
/// not IR gets git's own line diff after one line saying why, for text and
/// bitcode, added and deleted files, in `git diff` and `git show --ext-diff`;
/// git never stops (every call exits 0).
#[test]
fn the_external_diff_shows_git_s_own_diff_for_files_that_are_not_ir() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--diff-matched"]);
    r.write("bad.ll", "this is not IR\nsecond line\n");
    r.write("k.bc", b"BC\xc0\xde\0garbage");
    r.write("gone.ll", V1);
    r.commit_all("v1");
    r.write("bad.ll", "this is not IR\nline two\n");
    r.write("k.bc", b"BC\xc0\xde\0other garbage");
    r.write("new-bad.ll", "added, not IR\n");
    std::fs::remove_file(r.root.join("gone.ll")).unwrap();
    r.git(&["add", "-A"]);
    let o = r.run_in(&r.root, "git", &["diff", "--cached"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("bad.ll: not compared as LLVM IR: "), "{out}");
    assert!(
        out.contains("--- a/bad.ll\n+++ b/bad.ll\n@@ -1,2 +1,2 @@\n this is not IR\n-second line\n+line two\n"),
        "{out}"
    );
    assert!(
        out.contains("Binary files a/k.bc and b/k.bc differ\n"),
        "{out}"
    );
    assert!(
        out.contains("--- /dev/null\n+++ b/new-bad.ll\n@@ -0,0 +1 @@\n+added, not IR\n"),
        "{out}"
    );
    // A deleted IR file is compared as IR: its functions go.
    assert!(out.contains("irgit diff a/gone.ll b/gone.ll"), "{out}");
    assert!(out.contains("-define i32 @scale(i32 %x)"), "{out}");
    r.commit_all("v2");
    let show = r.git(&["show", "--ext-diff", "--format="]);
    assert!(show.contains("-second line\n+line two\n"), "{show}");
    // Without --ext-diff, `git show` keeps textconv (bad.ll as written).
    let plain = r.git(&["show", "--format=", "--", "bad.ll"]);
    assert!(plain.starts_with("diff --git a/bad.ll b/bad.ll"), "{plain}");
}

/// The alias the README documents: the matched diff in `git log -p`
/// without installing it as `git diff`'s external diff.
#[test]
fn the_documented_alias_shows_the_matched_diff_in_the_log() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    r.write("k.ll", V1);
    r.commit_all("v1");
    r.write("k.ll", v2());
    r.commit_all("v2");
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let alias = readme
        .lines()
        .find_map(|l| l.trim().strip_prefix("git config --global alias.irlog "))
        .expect("the README documents alias.irlog");
    let value = alias.trim().trim_matches('\'');
    r.git(&["config", "alias.irlog", value]);
    let log = r.git(&["irlog", "-1"]);
    assert!(log.contains("irgit diff a/k.ll b/k.ll"), "{log}");
    assert!(log.contains("\n--- a/k.ll\n+++ b/k.ll\n"), "{log}");
    // The plain log is unchanged: textconv.
    let plain = r.git(&["log", "-p", "-1"]);
    assert!(plain.contains("diff --git a/k.ll b/k.ll"), "{plain}");
    assert!(!plain.contains("irgit diff a/k.ll"), "{plain}");
}
