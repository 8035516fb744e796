//! End-to-end tests of the git integration: `irgit install` / `uninstall`,
//! textconv through real `git diff`, the pre-commit hook, and `irgit doctor`.
//! Every test drives the real `git` in a temporary repository with a clean
//! environment (no user or system config leaks in) and the built `irgit`
//! first on PATH.

use std::os::unix::fs::PermissionsExt;

use std::process::Command;

mod git_support;
use git_support::Repo;

/// A module and an alpha-equivalent permutation of it: values, arguments and
/// blocks renamed, independent instructions swapped, PHI incomings swapped.
const MOD_A: &str = r#"source_filename = "f.c"
define i32 @f(i32 %a, i32 %b) {
entry:
  %x = add i32 %a, 1
  %y = mul i32 %b, 3
  %c = icmp sgt i32 %x, %y
  br i1 %c, label %then, label %else
then:
  %t = sub i32 %x, %y
  br label %join
else:
  %e = add i32 %y, 7
  br label %join
join:
  %r = phi i32 [ %t, %then ], [ %e, %else ]
  ret i32 %r
}
"#;
const MOD_B: &str = r#"source_filename = "f.c"
define i32 @f(i32 %p, i32 %q) {
start:
  %m = mul i32 %q, 3
  %n = add i32 %p, 1
  %cond = icmp sgt i32 %n, %m
  br i1 %cond, label %yes, label %no
yes:
  %d = sub i32 %n, %m
  br label %out
no:
  %k = add i32 %m, 7
  br label %out
out:
  %v = phi i32 [ %k, %no ], [ %d, %yes ]
  ret i32 %v
}
"#;

/// MOD_A as another run of a compiler may print it: the same names, blocks
/// and independent instructions in another order, the compare mirrored,
/// PHI incomings swapped. The diff view shows no difference (it keeps the
/// names a file has, so MOD_B, renamed, does show).
const MOD_A_REORDERED: &str = r#"source_filename = "f.c"
define i32 @f(i32 %a, i32 %b) {
entry:
  %y = mul i32 %b, 3
  %x = add i32 %a, 1
  %c = icmp slt i32 %y, %x
  br i1 %c, label %then, label %else
else:
  %e = add i32 %y, 7
  br label %join
then:
  %t = sub i32 %x, %y
  br label %join
join:
  %r = phi i32 [ %e, %else ], [ %t, %then ]
  ret i32 %r
}
"#;

fn clang_ir(repo: &Repo, c_source: &str) -> String {
    let dir = repo._tmp.path();
    let c = dir.join("x.c");
    let ll = dir.join("x.ll");
    std::fs::write(&c, c_source).unwrap();
    let o = Command::new("clang-22")
        .args(["-S", "-emit-llvm", "-O0", "-o"])
        .arg(&ll)
        .arg(&c)
        .current_dir(dir)
        .output()
        .expect("clang-22 is installed");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(ll).unwrap()
}

fn llvm_as(repo: &Repo, text: &str, name: &str) -> Vec<u8> {
    let dir = repo._tmp.path();
    let ll = dir.join(format!("{name}.ll"));
    let bc = dir.join(format!("{name}.bc"));
    std::fs::write(&ll, text).unwrap();
    let o = Command::new("/usr/lib/llvm-22/bin/llvm-as")
        .arg(&ll)
        .arg("-o")
        .arg(&bc)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(bc).unwrap()
}

fn changed_lines(diff: &str) -> Vec<&str> {
    diff.lines()
        .filter(|l| {
            (l.starts_with('+') || l.starts_with('-'))
                && !l.starts_with("+++")
                && !l.starts_with("---")
        })
        .collect()
}

// ---------------------------------------------------------------- textconv

#[test]
fn the_permuted_modules_really_are_canonically_equal_and_textually_different() {
    let r = Repo::new();
    assert_ne!(MOD_A, MOD_B);
    assert_eq!(r.canon(MOD_A), r.canon(MOD_B));
}

#[test]
fn diff_log_and_show_see_only_semantic_changes() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    r.write("f.ll", MOD_A);
    r.commit_all("a");
    r.write("f.ll", MOD_A_REORDERED);
    r.commit_all("reordered");
    let edited = MOD_A_REORDERED.replace("add i32 %y, 7", "add i32 %y, 8");
    r.write("f.ll", &edited);
    r.commit_all("one instruction changed");

    // Without textconv the reordering commit is a diff; with it, nothing.
    let raw = r.git(&["diff", "--no-ext-diff", "--no-textconv", "HEAD~2", "HEAD~1"]);
    assert!(changed_lines(&raw).len() > 6, "{raw}");
    let semantic = r.git(&["diff", "HEAD~2", "HEAD~1"]);
    assert!(changed_lines(&semantic).is_empty(), "{semantic}");

    // A one-instruction change is a small diff naming the new constant.
    let d = r.git(&["diff", "HEAD~1", "HEAD"]);
    let lines = changed_lines(&d);
    assert!(!lines.is_empty() && lines.len() <= 6, "{d}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with('+') && l.contains(", 8")),
        "{d}"
    );

    // git show and git log -p use the same driver.
    let show = r.git(&["show", "HEAD~1"]);
    assert!(changed_lines(&show).is_empty(), "{show}");
    let show = r.git(&["show", "HEAD"]);
    assert_eq!(changed_lines(&show), lines);
    let log = r.git(&["log", "-p", "--format=commit %s"]);
    let renamed = log
        .split("commit ")
        .find(|c| c.starts_with("reordered"))
        .unwrap();
    assert!(changed_lines(renamed).is_empty(), "{renamed}");
    assert!(
        log.contains("+  %add.") || log.lines().any(|l| l.starts_with('+') && l.contains(", 8"))
    );
}

#[test]
fn git_merge_runs_the_installed_merge_driver() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    r.write("f.ll", MOD_A);
    r.commit_all("base");
    r.git(&["checkout", "-q", "-b", "side"]);
    r.write("f.ll", MOD_A.replace("mul i32 %b, 3", "mul i32 %b, 5"));
    r.commit_all("side");
    r.git(&["checkout", "-q", "main"]);
    r.write("f.ll", MOD_A.replace("add i32 %y, 7", "add i32 %y, 9"));
    r.commit_all("main");
    let o = r
        .command("git")
        .args(["merge", "-q", "--no-edit", "side"])
        .env("GIT_TRACE", "1")
        .output()
        .unwrap();
    let trace = String::from_utf8_lossy(&o.stderr);
    assert!(trace.contains("exec \"$p\" merge .merge_file_"), "{trace}");
    assert!(o.status.success(), "{trace}");
    // Ours' text with theirs' change: every other byte as ours wrote it.
    let merged = r.git(&["show", "HEAD:f.ll"]);
    let expected = MOD_A
        .replace("mul i32 %b, 3", "mul i32 %b, 5")
        .replace("add i32 %y, 7", "add i32 %y, 9");
    assert_eq!(merged, expected);
}

/// The files of irgit's textconv cache, with their modification times.
fn cache_entries(r: &Repo) -> Vec<(std::path::PathBuf, std::time::SystemTime)> {
    fn walk(d: &std::path::Path, out: &mut Vec<(std::path::PathBuf, std::time::SystemTime)>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push((p, e.metadata().unwrap().modified().unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(&r.root.join(".git/irgit/textconv-cache"), &mut out);
    out.sort();
    out
}

#[test]
fn textconv_cache_is_irgits_own_filled_once_and_reused() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    r.write("f.ll", MOD_A);
    r.commit_all("a");
    r.write("f.ll", MOD_A.replace("mul i32 %b, 3", "mul i32 %b, 5"));
    r.commit_all("b");
    let first = r.git(&["diff", "HEAD~1", "HEAD"]);
    let entries = cache_entries(&r);
    assert_eq!(entries.len(), 2, "one entry per side: {entries:?}");
    // The entry of the new side is its canonical text, under the BLAKE3
    // hash of the blob's bytes.
    let blob = r.run("git", &["cat-file", "blob", "HEAD:f.ll"]).stdout;
    let key = blake3::hash(&blob).to_hex();
    let new_side = entries
        .iter()
        .find(|(p, _)| p.ends_with(format!("{}/{}", &key[..2], &key[2..])))
        .expect("keyed by the BLAKE3 hash of the blob");
    let cached = std::fs::read_to_string(&new_side.0).unwrap();
    assert!(cached.contains("mul i32 %b, 5"), "{cached}");
    let second = r.git(&["diff", "HEAD~1", "HEAD"]);
    assert_eq!(first, second);
    assert_eq!(cache_entries(&r), entries, "cache was rewritten");
    // git's own cache is not used.
    let notes = r.run(
        "git",
        &["rev-parse", "--verify", "-q", "refs/notes/textconv/llvm-ir"],
    );
    assert!(notes.stdout.is_empty());
}

/// The commits of the issue: `a.c` edited once, its -O0 IR committed twice.
fn two_clang_commits(r: &Repo) {
    r.write("a.ll", clang_ir(r, "int f(int x){return x+1;}\n"));
    r.commit_all("1");
    r.write("a.ll", clang_ir(r, "int f(int x){return x*3+1;}\n"));
    r.commit_all("2");
}

fn show_with_stderr(r: &Repo) -> (String, String) {
    let o = r.run("git", &["show", "--format=", "HEAD", "--", "a.ll"]);
    assert!(o.status.success());
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn a_fallback_is_not_what_git_shows_once_its_cause_is_gone() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    two_clang_commits(&r);
    let raw = r.git(&["show", "--no-textconv", "--format=", "HEAD", "--", "a.ll"]);
    let (canonical, err) = show_with_stderr(&r);
    assert!(err.is_empty(), "{err}");
    assert_ne!(changed_lines(&canonical), changed_lines(&raw));
    let causes = [
        (
            "bad settings",
            "canon:\n  keep_comment: false\n",
            "keep_comment",
        ),
        (
            "time limit",
            "textconv:\n  timeout_seconds: 0.000001\n",
            "took longer",
        ),
    ];
    for (cause, yaml, says) in causes {
        // Cached canonical texts are shown without any work: start empty.
        let _ = std::fs::remove_dir_all(r.root.join(".git/irgit/textconv-cache"));
        r.write(".irgit.yaml", yaml);
        let (shown, err) = show_with_stderr(&r);
        assert_eq!(changed_lines(&shown), changed_lines(&raw), "{cause}");
        assert!(err.contains(says), "{cause}: {err}");
        std::fs::remove_file(r.root.join(".irgit.yaml")).unwrap();
        let (shown, err) = show_with_stderr(&r);
        assert_eq!(shown, canonical, "{cause}: the fallback outlived its cause");
        assert!(err.is_empty(), "{cause}: {err}");
    }
    // A setting that changes the form shows in the next diff, and back.
    r.write(".irgit.yaml", "canon:\n  rename_values: false\n");
    let (shown, _) = show_with_stderr(&r);
    assert_ne!(shown, canonical);
    assert!(!shown.contains("%arg0"), "{shown}");
    std::fs::remove_file(r.root.join(".irgit.yaml")).unwrap();
    assert_eq!(show_with_stderr(&r).0, canonical);
}

#[test]
fn an_unparseable_blob_is_never_cached() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    r.write("f.ll", MOD_A);
    r.commit_all("a");
    let broken = MOD_A_REORDERED.replace("ret i32 %r", "ret i32 %nowhere");
    r.write("f.ll", &broken);
    r.commit_all("broken");
    let d = r.git(&["diff", "HEAD~1", "HEAD"]);
    assert!(d.contains("+  ret i32 %nowhere"), "{d}");
    // Only the good side was stored.
    assert_eq!(cache_entries(&r).len(), 1);
    r.write("f.ll", MOD_A_REORDERED);
    r.commit_all("fixed");
    assert!(changed_lines(&r.git(&["diff", "HEAD~2", "HEAD"])).is_empty());
}

#[test]
fn changed_canon_settings_show_in_the_next_diff_without_a_reinstall() {
    let r = Repo::new();
    let config_before = r.read(".git/config");
    r.irgit_ok(&["install", "--hook"]);
    r.write("f.ll", MOD_A);
    r.write(".irgit.yaml", "hook:\n  mode: off\n");
    r.commit_all("a");
    r.write("f.ll", MOD_A_REORDERED);
    r.commit_all("b");
    assert!(changed_lines(&r.git(&["diff", "HEAD~1", "HEAD"])).is_empty());

    // Keeping the input's block order makes the reordering visible: a new form.
    r.write(
        ".irgit.yaml",
        "hook:\n  mode: off\ncanon:\n  reorder_blocks: false\n",
    );
    let d = r.git(&["diff", "HEAD~1", "HEAD"]);
    assert!(changed_lines(&d).iter().any(|l| l.contains("then:")), "{d}");
    let (ok, out) = r.doctor();
    assert!(ok, "{out}");

    r.irgit_ok(&["uninstall"]);
    assert_eq!(r.read(".git/config"), config_before);
}

#[test]
fn bitcode_diffs_as_canonical_text() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    r.write("f.bc", llvm_as(&r, MOD_A, "a"));
    r.commit_all("a");
    r.write("f.bc", llvm_as(&r, MOD_A_REORDERED, "b"));
    r.commit_all("permuted");
    r.write(
        "f.bc",
        llvm_as(
            &r,
            &MOD_A_REORDERED.replace("sub i32 %x, %y", "sub i32 %y, %x"),
            "c",
        ),
    );
    r.commit_all("edit");
    assert!(changed_lines(&r.git(&["diff", "HEAD~2", "HEAD~1"])).is_empty());
    let d = r.git(&["diff", "HEAD~1", "HEAD"]);
    assert!(!d.contains("Binary files"), "{d}");
    assert!(
        changed_lines(&d).iter().any(|l| l.contains("sub i32")),
        "{d}"
    );
    // Without the driver git sees binary content.
    let raw = r.git(&["diff", "--no-textconv", "HEAD~1", "HEAD"]);
    assert!(raw.contains("Binary files"), "{raw}");
}

#[test]
fn textconv_shows_unparseable_input_unchanged_and_exits_zero() {
    let r = Repo::new();
    let truncated = &MOD_A[..MOD_A.len() / 2];
    let conflict = format!("<<<<<<< ours\n{MOD_A}=======\n{MOD_B}>>>>>>> theirs\n");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("garbage.ll", b"\x00\xffnot IR at all\x01".to_vec()),
        ("truncated.ll", truncated.as_bytes().to_vec()),
        ("conflict.ll", conflict.into_bytes()),
    ];
    for (name, bytes) in &cases {
        r.write(name, bytes);
        let o = r.irgit(&["textconv", "--canon-version=1", name]);
        assert!(o.status.success(), "{name}: {:?}", o.status);
        assert_eq!(&o.stdout, bytes, "{name}");
    }
    // And through git: the diff of a broken file still shows its lines.
    r.irgit_ok(&["install"]);
    r.write("t.ll", truncated);
    r.commit_all("t");
    r.write("t.ll", format!("{truncated}  ; more\n"));
    let d = r.git(&["diff"]);
    assert!(
        changed_lines(&d)
            .iter()
            .any(|l| l.starts_with('+') && l.ends_with("; more")),
        "{d}"
    );
}

/// LLVM parses an empty file as a valid empty module; textconv must still
/// show the empty bytes, not a module header.
#[test]
fn textconv_shows_an_empty_file_as_empty() {
    let r = Repo::new();
    r.write("empty.ll", "");
    let o = r.irgit(&["textconv", "--canon-version=1", "empty.ll"]);
    assert!(o.status.success());
    assert_eq!(o.stdout, b"");
}

/// A module without `source_filename` must not print git's temporary path:
/// both sides of a diff would differ in their header.
#[test]
fn textconv_output_does_not_depend_on_the_file_name() {
    let r = Repo::new();
    let module = "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n";
    r.write("a.ll", module);
    r.write("b.ll", module);
    let a = r.irgit(&["textconv", "--canon-version=1", "a.ll"]);
    let b = r.irgit(&["textconv", "--canon-version=1", "b.ll"]);
    assert!(a.status.success() && b.status.success());
    assert_eq!(a.stdout, b.stdout);
    assert!(!String::from_utf8_lossy(&a.stdout).contains("a.ll"));
}

// ---------------------------------------------------------------- the hook

const C_SOURCE: &str = "int sum(int *a, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++)\n    s += a[i];\n  return s;\n}\n";

fn hook_repo() -> Repo {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    r.write("README", "hello\n");
    r.commit_all("init");
    r
}

#[test]
fn hook_stores_the_canonical_form_and_keeps_the_leading_comment_block() {
    let r = hook_repo();
    let ir = clang_ir(&r, C_SOURCE);
    let header = "; Copyright 2026 Test\n; Generated from x.c, do not edit by hand.\n\n";
    let input = format!("{header}{ir}");
    r.write("sum.ll", &input);
    r.commit_all("add sum");
    let committed = r.git(&["show", "HEAD:sum.ll"]);
    assert_eq!(committed, format!("{header}{}", r.canon(&ir)));
    assert_ne!(committed, input);
    // The clean filter stored the canonical form on `git add`; the work tree
    // keeps what was written, and git sees it as clean.
    assert_eq!(r.read("sum.ll"), input.as_bytes());
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    // Idempotent: committing the canonical file again changes nothing.
    r.write("sum.ll", &committed);
    r.git(&["commit", "-q", "--allow-empty", "-m", "again"]);
    assert_eq!(r.git(&["show", "HEAD:sum.ll"]), committed);
}

#[test]
fn hook_canonicalizes_only_the_staged_part_of_a_partially_staged_file() {
    let r = hook_repo();
    let staged = MOD_B.to_string();
    let worktree = format!("{MOD_B}\ndefine i32 @unstaged() {{\n  ret i32 42\n}}\n");
    r.write("f.ll", &worktree);
    // Simulate `git add -p`: the index gets `staged`, the worktree keeps more.
    let blob_file = r._tmp.path().join("staged.ll");
    std::fs::write(&blob_file, &staged).unwrap();
    let id = r.git(&["hash-object", "-w", blob_file.to_str().unwrap()]);
    r.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("100644,{},f.ll", id.trim()),
    ]);
    r.git(&["commit", "-q", "-m", "partial"]);
    assert_eq!(r.git(&["show", "HEAD:f.ll"]), r.canon(&staged));
    assert_eq!(r.read("f.ll"), worktree.as_bytes(), "unstaged part lost");
    assert!(r.git(&["diff", "--no-textconv"]).contains("+  ret i32 42"));
}

#[test]
fn hook_keeps_interior_comments_at_their_lines() {
    let r = hook_repo();
    let input = MOD_A.replace(
        "  %y = mul i32 %b, 3\n",
        "  ; the scale\n  %y = mul i32 %b, 3 ; scale by three\n",
    );
    r.write("f.ll", &input);
    r.git(&["add", "f.ll"]);
    let o = r.run("git", &["commit", "-q", "-m", "x"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let committed = r.git(&["show", "HEAD:f.ll"]);
    assert_eq!(committed, r.canon(&input));
    // The note sits on the line above the multiply, the trailing comment
    // on the multiply itself, whatever the canonical names are.
    let lines: Vec<&str> = committed.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(" = mul i32 ") && l.ends_with(" ; scale by three"))
        .unwrap_or_else(|| panic!("trailing comment not on the mul line:\n{committed}"));
    assert_eq!(lines[at - 1], "  ; the scale", "{committed}");
}

#[test]
fn hook_refuses_a_file_that_does_not_parse() {
    let r = hook_repo();
    r.write("bad.ll", "define i32 @f( {\n  ret i32 0\n");
    r.git(&["add", "bad.ll"]);
    let o = r.run("git", &["commit", "-q", "-m", "x"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.ll") && err.contains("not valid LLVM IR"),
        "{err}"
    );
    assert_eq!(r.git(&["rev-list", "--count", "HEAD"]).trim(), "1");
}

/// A module that declares the current debug-info version and does not
/// verify: LLVM's parser would end the hook (`Broken module found`). The
/// hook refuses it like any invalid file, and a lit test of that kind (the
/// Verifier's own tests are) is committed as written.
#[test]
fn hook_handles_invalid_ir_that_declares_the_debug_info_version() {
    let body = "define i32 @f(i32 %a) {\nentry:\n  %x = add i32 %y, 1\n  %y = add i32 %a, 1\n  ret i32 %x\n}\n\n!llvm.module.flags = !{!0}\n!0 = !{i32 2, !\"Debug Info Version\", i32 3}\n";
    let r = hook_repo();
    r.write("bad.ll", body);
    r.git(&["add", "bad.ll"]);
    let o = r.run("git", &["commit", "-q", "-m", "x"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("bad.ll") && err.contains("does not verify") && !err.contains("LLVM ERROR"),
        "{err}"
    );
    assert_eq!(r.git(&["rev-list", "--count", "HEAD"]).trim(), "1");

    let lit = format!("; RUN: not opt -S %s\n{body}");
    r.git(&["rm", "-q", "--cached", "bad.ll"]);
    r.write("Verifier/dominance.ll", &lit);
    r.git(&["add", "Verifier/dominance.ll"]);
    let o = r.run("git", &["commit", "-q", "-m", "lit"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(r.git(&["show", "HEAD:Verifier/dominance.ll"]), lit);
}

#[test]
fn hook_leaves_commits_without_ir_untouched() {
    let r = hook_repo();
    r.write("notes.txt", "; not IR ; at all\n");
    r.write("fake.ll.txt", "garbage\n");
    r.git(&["add", "notes.txt", "fake.ll.txt"]);
    let index = r.read(".git/index");
    let o = r.irgit(&["hook", "pre-commit"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(r.read(".git/index"), index, "index was rewritten");
    r.git(&["commit", "-q", "-m", "text"]);
    assert_eq!(r.git(&["show", "HEAD:notes.txt"]), "; not IR ; at all\n");
}

#[test]
fn hook_leaves_bitcode_bytes_alone_but_refuses_broken_bitcode() {
    let r = hook_repo();
    let bc = llvm_as(&r, MOD_B, "b");
    r.write("f.bc", &bc);
    r.commit_all("bc");
    let o = r.run("git", &["cat-file", "blob", "HEAD:f.bc"]);
    assert_eq!(o.stdout, bc);
    r.write("f.bc", &bc[..bc.len() / 2]);
    r.git(&["add", "f.bc"]);
    let o = r.run("git", &["commit", "-q", "-m", "broken"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("f.bc"));
}

#[test]
fn hook_check_mode_refuses_non_canonical_files_without_rewriting() {
    let r = hook_repo();
    r.write(".irgit.yaml", "hook:\n  mode: check\n");
    r.write("f.ll", MOD_A);
    r.git(&["add", "."]);
    let o = r.run("git", &["commit", "-q", "-m", "x"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("f.ll: not in canonical form"));
    r.write("f.ll", r.canon(MOD_A));
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "-m", "canonical"]);
}

#[test]
fn hook_policy_can_allow_invalid_ir_or_switch_the_hook_off() {
    let r = hook_repo();
    r.write(".irgit.yaml", "hook:\n  invalid_ir: allow\n");
    r.write("bad.ll", "this is not IR\n");
    r.git(&["add", "."]);
    let o = r.run("git", &["commit", "-q", "-m", "allowed"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.ll") && err.contains("warning"), "{err}");
    assert_eq!(r.git(&["show", "HEAD:bad.ll"]), "this is not IR\n");

    r.write(".irgit.yaml", "hook:\n  mode: off\n");
    r.write("f.ll", MOD_A);
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "-m", "off"]);
    assert_eq!(r.git(&["show", "HEAD:f.ll"]), MOD_A);
}

#[test]
fn hook_works_for_commit_all_and_commit_with_paths() {
    let r = hook_repo();
    r.write("f.ll", MOD_A);
    r.git(&["add", "f.ll"]);
    r.git(&["commit", "-q", "-m", "a"]);
    // `git commit -a`: git points the hook at the locked index.
    r.write("f.ll", MOD_B.replace("add i32 %m, 7", "add i32 %m, 9"));
    r.git(&["commit", "-q", "-a", "-m", "b"]);
    let b = r.git(&["show", "HEAD:f.ll"]);
    assert_eq!(b, r.canon(&MOD_B.replace("add i32 %m, 7", "add i32 %m, 9")));
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    // `git commit <path>`: a temporary index, and the main index updated after.
    r.write("g.ll", MOD_B);
    r.git(&["add", "g.ll"]);
    r.write("g.ll", MOD_B.replace("mul i32 %q, 3", "mul i32 %q, 4"));
    r.git(&["commit", "-q", "-m", "g", "g.ll"]);
    let g = r.git(&["show", "HEAD:g.ll"]);
    assert_eq!(g, r.canon(&MOD_B.replace("mul i32 %q, 3", "mul i32 %q, 4")));
    assert_eq!(
        r.git(&["status", "--porcelain"]),
        "",
        "main index left stale"
    );
}

#[test]
fn hook_accepts_llvm_stress_modules_and_is_idempotent() {
    let r = hook_repo();
    for seed in [1, 7, 42] {
        let o = Command::new("/usr/lib/llvm-22/bin/llvm-stress")
            .args(["-size", "300", &format!("-seed={seed}")])
            .output()
            .expect("llvm-stress is installed");
        assert!(o.status.success());
        let text = String::from_utf8(o.stdout).unwrap();
        let name = format!("stress{seed}.ll");
        r.write(&name, &text);
        r.git(&["add", &name]);
        r.git(&["commit", "-q", "-m", &name]);
        let committed = r.git(&["show", &format!("HEAD:{name}")]);
        assert_eq!(committed, r.canon(&text), "{name}");
        // Committing the canonical form again is a no-op for the hook.
        let index = r.read(".git/index");
        let o = r.irgit(&["hook", "pre-commit"]);
        assert!(o.status.success());
        assert_eq!(r.read(".git/index"), index);
    }
}

#[test]
fn hook_install_follows_core_hooks_path() {
    let r = Repo::new();
    r.git(&["config", "core.hooksPath", "githooks"]);
    r.irgit_ok(&["install", "--hook"]);
    assert!(r.read("githooks/pre-commit").starts_with(b"#!/bin/sh"));
    r.write("f.ll", MOD_A);
    r.commit_all("a");
    assert_eq!(r.git(&["show", "HEAD:f.ll"]), r.canon(MOD_A));
    r.irgit_ok(&["uninstall"]);
    assert!(r.read_opt("githooks/pre-commit").is_none());
}

// ---------------------------------------------------------------- install

fn snapshot(r: &Repo) -> Vec<Option<Vec<u8>>> {
    [
        ".git/config",
        ".gitattributes",
        ".git/hooks/pre-commit",
        ".git/hooks/pre-commit.irgit-chained",
        ".git/irgit-install.yaml",
    ]
    .iter()
    .map(|p| r.read_opt(p))
    .collect()
}

#[test]
fn install_twice_is_install_once() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    let once = snapshot(&r);
    let out = r.irgit_ok(&["install", "--hook"]);
    assert!(out.contains("nothing changed"), "{out}");
    assert_eq!(snapshot(&r), once);
    let config = String::from_utf8(once[0].clone().unwrap()).unwrap();
    assert_eq!(config.matches("[diff \"llvm-ir\"]").count(), 1);
    // The drivers run irgit by its full path, so git finds it without PATH.
    let bin = git_support::bin_dir().display().to_string();
    let textconv = r.git(&["config", "diff.llvm-ir.textconv"]);
    assert!(
        textconv.contains(&format!("p='{bin}/irgit-textconv'")),
        "{textconv}"
    );
    assert!(config.contains("cachetextconv = false\n"));
    let driver = r.git(&["config", "merge.llvm-ir.driver"]);
    assert!(
        driver.contains(&format!("p='{bin}/irgit'"))
            && driver.contains("exec \"$p\" merge %O %A %B %L %P"),
        "{driver}"
    );
}

#[test]
fn uninstall_restores_config_attributes_and_chained_hook_byte_for_byte() {
    let r = Repo::new();
    r.git(&["config", "diff.llvm-ir.textconv", "cat"]);
    r.git(&["config", "core.autocrlf", "false"]);
    r.write(".gitattributes", "*.png binary\n*.txt text"); // no final newline
    let user_hook =
        "#!/bin/sh\necho user-hook-ran > \"$(git rev-parse --git-dir)/user-hook-ran\"\n";
    r.write(".git/hooks/pre-commit", user_hook);
    std::fs::set_permissions(
        r.root.join(".git/hooks/pre-commit"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let before = snapshot(&r);

    r.irgit_ok(&["install", "--hook"]);
    assert!(r
        .git(&["config", "diff.llvm-ir.textconv"])
        .contains("/irgit-textconv'"));
    // Both hooks run on commit: irgit's, then the chained one.
    r.write("f.ll", MOD_A);
    r.commit_all("with hooks");
    assert!(r.root.join(".git/user-hook-ran").exists());
    assert_eq!(r.git(&["show", "HEAD:f.ll"]), r.canon(MOD_A));
    // The .gitattributes was committed as install left it; restore needs the worktree as it was.
    r.irgit_ok(&["uninstall"]);
    assert_eq!(snapshot(&r), before);
    assert_eq!(
        r.git(&["config", "diff.llvm-ir.textconv"]).trim(),
        "cat",
        "previous value restored"
    );
}

#[test]
fn uninstall_after_later_user_edits_undoes_only_its_own_changes() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    r.git(&["config", "user.signingkey", "ABC"]);
    let mut attrs = r.read(".gitattributes");
    attrs.extend_from_slice(b"*.md text\n");
    r.write(".gitattributes", &attrs);
    r.irgit_ok(&["uninstall"]);
    assert_eq!(r.read(".gitattributes"), b"*.md text\n");
    let config = String::from_utf8(r.read(".git/config")).unwrap();
    assert!(!config.contains("llvm"), "{config}");
    assert!(config.contains("signingkey = ABC"), "{config}");
}

#[test]
fn global_install_writes_global_config_and_attributes_and_uninstall_restores_them() {
    let r = Repo::new();
    std::fs::write(r.home.join(".gitconfig"), "[user]\n\tname = Someone\n").unwrap();
    r.irgit_ok(&["install", "--global"]);
    let attrs = r.home.join(".config/git/attributes");
    assert!(std::fs::read_to_string(&attrs)
        .unwrap()
        .contains("*.ll diff=llvm-ir merge=llvm-ir"));
    assert!(std::fs::read_to_string(r.home.join(".gitconfig"))
        .unwrap()
        .contains("[merge \"llvm-ir\"]"));
    // A repository without local config uses the global setup.
    r.write("f.ll", MOD_A);
    r.commit_all("a");
    r.write("f.ll", MOD_A_REORDERED);
    assert!(changed_lines(&r.git(&["diff"])).is_empty());
    r.irgit_ok(&["uninstall", "--global"]);
    assert_eq!(
        std::fs::read_to_string(r.home.join(".gitconfig")).unwrap(),
        "[user]\n\tname = Someone\n"
    );
    assert!(!attrs.exists());
    assert!(
        !r.home.join(".config").exists(),
        "created directories left behind"
    );
}

#[test]
fn install_uses_patterns_from_the_command_line_or_the_config_file() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--pattern", "ir/*.txt", "--pattern", "*.bc"]);
    assert_eq!(
        String::from_utf8(r.read(".gitattributes")).unwrap(),
        "ir/*.txt diff=llvm-ir merge=llvm-ir\n*.bc -text diff=llvm-bc -merge\n"
    );
    r.irgit_ok(&["uninstall"]);
    r.write(".irgit.yaml", "files:\n  text: [\"*.ir\"]\n  bitcode: []\n");
    r.irgit_ok(&["install"]);
    assert_eq!(
        String::from_utf8(r.read(".gitattributes")).unwrap(),
        "*.ir diff=llvm-ir merge=llvm-ir\n"
    );
}

#[test]
fn bad_settings_are_refused_naming_file_and_key() {
    let r = Repo::new();
    r.write(".irgit.yaml", "hook:\n  mode: always\n");
    let o = r.irgit(&["install"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(".irgit.yaml") && err.contains("always"),
        "{err}"
    );
    assert!(r.read_opt(".gitattributes").is_none());
    r.write(".irgit.yaml", "files:\n  txt: [\"*.ll\"]\n");
    let err = String::from_utf8_lossy(&r.irgit(&["install"]).stderr).into_owned();
    assert!(err.contains("txt"), "{err}");
}

// ---------------------------------------------------------------- doctor

#[test]
fn doctor_is_happy_with_a_full_install() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    let (ok, out) = r.doctor();
    assert!(ok, "{out}");
    assert!(!out.contains("problem:"), "{out}");
}

/// `hook.mode: previous-names` stores HEAD's names through the clean
/// filter: installed without it (`irgit install`, no `--hook`), doctor
/// says so and how to fix it; with it, doctor is content.
#[test]
fn doctor_says_previous_names_needs_the_clean_filter() {
    let r = Repo::new();
    r.write(".irgit.yaml", "hook:\n  mode: previous-names\n");
    r.irgit_ok(&["install"]);
    let (ok, out) = r.doctor();
    assert!(!ok, "{out}");
    assert!(
        out.contains("previous-names") && out.contains("irgit install --hook"),
        "{out}"
    );
    r.irgit_ok(&["install", "--hook"]);
    let (ok, out) = r.doctor();
    assert!(ok, "{out}");
}

#[test]
fn doctor_detects_irgit_missing_from_path() {
    let mut r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    // An older install's commands find irgit on PATH.
    r.git(&[
        "config",
        "merge.llvm-ir.driver",
        "irgit merge %O %A %B %L %P --base-label %S --ours-label %X --theirs-label %Y",
    ]);
    r.path_env = "/usr/bin:/bin".into();
    let (ok, out) = r.doctor();
    assert!(!ok);
    assert!(
        out.contains("`irgit`") && out.contains("not on PATH"),
        "{out}"
    );
}

#[test]
fn doctor_detects_another_irgit_version_on_path() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    let fake = r._tmp.path().join("old-bin");
    std::fs::create_dir_all(&fake).unwrap();
    std::fs::write(fake.join("irgit"), "#!/bin/sh\necho irgit 0.0.1\n").unwrap();
    std::fs::set_permissions(fake.join("irgit"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = r.run(fake.join("irgit").to_str().unwrap(), &[]);
    assert!(out.status.success());
    // The drivers name a full path: git runs that one, whatever PATH says.
    let driver = r.git(&["config", "merge.llvm-ir.driver"]);
    let bin = git_support::bin_dir().display().to_string();
    let old = driver.trim().replace(&bin, &fake.display().to_string());
    r.git(&["config", "merge.llvm-ir.driver", &old]);
    let (ok, out) = r.doctor();
    assert!(!ok);
    assert!(out.contains("\"irgit 0.0.1\""), "{out}");
}

#[test]
fn doctor_detects_a_driver_named_in_attributes_but_not_configured() {
    let r = Repo::new();
    r.write(".gitattributes", "*.ll diff=llvm-ir merge=llvm-ir\n");
    let (ok, out) = r.doctor();
    assert!(!ok);
    assert!(
        out.contains("names merge driver \"llvm-ir\", which is not configured"),
        "{out}"
    );
    assert!(out.contains("merges these files as plain text"), "{out}");
}

#[test]
fn doctor_detects_a_configured_driver_whose_program_is_missing() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    r.git(&[
        "config",
        "merge.llvm-ir.driver",
        "irgit-gone merge %O %A %B %L %P",
    ]);
    let (ok, out) = r.doctor();
    assert!(!ok);
    assert!(
        out.contains("`irgit-gone`") && out.contains("keeps \"ours\""),
        "{out}"
    );
}

#[test]
fn doctor_detects_an_older_install_that_relies_on_gits_textconv_cache() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    r.git(&[
        "config",
        "diff.llvm-ir.textconv",
        "irgit textconv --canon-version=0",
    ]);
    r.git(&["config", "diff.llvm-ir.cachetextconv", "true"]);
    let (ok, out) = r.doctor();
    assert!(!ok);
    assert!(out.contains("an older install"), "{out}");
    assert!(out.contains("git's textconv cache keeps"), "{out}");
    r.irgit_ok(&["install", "--hook"]);
    let (ok, out) = r.doctor();
    assert!(ok, "{out}");
}

#[test]
fn doctor_notes_a_missing_hook_and_detects_an_inert_one() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    let (ok, out) = r.doctor();
    assert!(
        ok,
        "the hook is optional:
{out}"
    );
    assert!(out.contains("note: no pre-commit hook"), "{out}");
    r.irgit_ok(&["install", "--hook"]);
    std::fs::set_permissions(
        r.root.join(".git/hooks/pre-commit"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let (ok, out) = r.doctor();
    assert!(!ok);
    assert!(out.contains("is not executable"), "{out}");
}

#[test]
fn doctor_detects_tracked_ir_without_attributes() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook", "--pattern", "*.ll"]);
    r.write("f.bc", llvm_as(&r, MOD_A, "a"));
    r.git(&["add", "f.bc"]);
    let (ok, out) = r.doctor();
    assert!(!ok);
    assert!(
        out.contains("have no irgit diff driver, e.g. f.bc"),
        "{out}"
    );
}

// ---------------------------------------------------------------- textconv limits

/// A module LLVM needs well over a tenth of a second to canonicalize.
fn huge_module() -> String {
    let o = Command::new("/usr/lib/llvm-22/bin/llvm-stress")
        .args(["-size", "80000", "-seed=3"])
        .output()
        .expect("llvm-stress is installed");
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn textconv_past_its_time_limit_shows_the_input_unchanged_with_one_line() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    let big = huge_module();
    r.write(".irgit.yaml", "textconv:\n  timeout_seconds: 0.05\n");
    r.write("big.ll", &big);
    r.commit_all("big");
    r.write(
        "big.ll",
        format!("{big}\ndefine i32 @added() {{\n  ret i32 7\n}}\n"),
    );
    r.commit_all("edit");
    let start = std::time::Instant::now();
    let o = r.run("git", &["diff", "HEAD~1", "HEAD"]);
    let took = start.elapsed();
    assert!(o.status.success());
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    let raw = r.git(&["diff", "--no-textconv", "HEAD~1", "HEAD"]);
    assert_eq!(changed_lines(&shown), changed_lines(&raw));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let notes: Vec<&str> = err.lines().collect();
    assert_eq!(
        notes.len(),
        1,
        "one line for the file, not one per side:\n{err}"
    );
    for n in notes {
        assert!(
            n.contains("big.ll")
                && n.contains("took longer than 0.05 s")
                && n.contains("textconv.timeout_seconds"),
            "{n}"
        );
    }
    // Both sides would take far longer than the limit each, and were cut.
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
}

// ---------------------------------------------------------------- hook: lit tests, markers, dialect

/// Commits everything staged; the hook's stderr and whether it succeeded.
fn try_commit(r: &Repo, msg: &str) -> (bool, String) {
    r.git(&["add", "-A"]);
    let o = r.run("git", &["commit", "-q", "-m", msg]);
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn hook_commits_every_lit_test_as_written_valid_or_not() {
    let r = hook_repo();
    let tests = [
        (
            "negative.ll",
            "; RUN: not llvm-as < %s 2>&1 | FileCheck %s\n; CHECK: use of undefined value\n\
             define i32 @f() {\n  ret i32 %nope\n}\n",
        ),
        (
            "split.ll",
            "; RUN: split-file %s %t\n; RUN: llvm-link -S %t/a.ll %t/b.ll | FileCheck %s\n\
             ; CHECK: define\n;--- a.ll\ndefine i32 @f() {\n  ret i32 0\n}\n\
             ;--- b.ll\ndefine i32 @f() {\n  ret i32 1\n}\n",
        ),
        (
            "old.ll",
            "; RUN: opt -S %s | FileCheck %s\n; CHECK: load\n\
             define i32 @f(i32* %p) {\n  %v = load i32* %p\n  ret i32 %v\n}\n",
        ),
        (
            "crlf.ll",
            "; RUN: opt -S %s\r\ndefine i32 @f(i32 %x) {\r\n  %3 = add i32 %x, 1\r\n  ret i32 %3\r\n}\r\n",
        ),
    ];
    for (name, text) in tests {
        r.write(name, text);
    }
    let (ok, err) = try_commit(&r, "lit tests");
    assert!(ok, "{err}");
    for (name, text) in tests {
        assert_eq!(r.git(&["show", &format!("HEAD:{name}")]), text, "{name}");
    }
    assert_eq!(err.lines().count(), tests.len(), "one line each:\n{err}");
}

#[test]
fn hook_refuses_conflict_markers_in_every_setting() {
    let r = hook_repo();
    let marked = format!("; RUN: opt -S %s\n<<<<<<< ours\n{MOD_A}=======\n{MOD_B}>>>>>>> theirs\n");
    for yaml in [
        "",
        "hook:\n  invalid_ir: allow\n",
        "hook:\n  lit_tests: canonicalize\n  invalid_ir: allow\n",
    ] {
        r.write(".irgit.yaml", yaml);
        for (name, text) in [
            ("lit.ll", marked.clone()),
            (
                "plain.ll",
                marked.replace("; RUN: opt -S %s\n", "; plain\n"),
            ),
        ] {
            r.write(name, &text);
            let (ok, err) = try_commit(&r, "markers");
            assert!(!ok, "{yaml}: {name} committed:\n{err}");
            assert!(
                err.contains(&format!("{name}:2: has conflict markers"))
                    && err.contains("hook.invalid_ir: allow included"),
                "{yaml}: {err}"
            );
            std::fs::remove_file(r.root.join(name)).unwrap();
            r.git(&["add", "-A"]);
        }
    }
}

#[test]
fn hook_refusals_name_the_setting_and_its_notes_stand_on_their_own_line() {
    let r = hook_repo();
    r.write("bad.ll", "define i32 @f() {\n  ret i32 %nope\n}\n");
    let (ok, err) = try_commit(&r, "bad");
    assert!(!ok);
    assert!(
        err.contains("set hook.invalid_ir: allow in .irgit.yaml"),
        "{err}"
    );
    r.write(".irgit.yaml", "hook:\n  invalid_ir: allow\n");
    let (ok, err) = try_commit(&r, "bad allowed");
    assert!(ok, "{err}");
    let note = err
        .lines()
        .find(|l| l.contains("hook.invalid_ir: allow"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(note.contains("bad.ll: committed as written"), "{note}");
    for l in err.lines() {
        assert!(!(l.contains('^') && l.contains("committed")), "glued: {l}");
    }
}

const OLD_DIALECT: &str = "define i32 @first(i32* nocapture readonly %p) #0 {\n  %v = load i32, i32* %p, align 4\n  ret i32 %v\n}\n\nattributes #0 = { nounwind readonly }\n";

#[test]
fn hook_keeps_a_file_that_llvm_22_writes_in_another_syntax() {
    let r = hook_repo();
    r.write("old.ll", OLD_DIALECT);
    let (ok, err) = try_commit(&r, "old syntax");
    assert!(ok, "{err}");
    assert_eq!(r.git(&["show", "HEAD:old.ll"]), OLD_DIALECT);
    assert_eq!(r.read("old.ll"), OLD_DIALECT.as_bytes());
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].contains("old.ll: LLVM 22 writes it in another syntax (line 1: `define")
            && lines[0].contains("hook.dialect: upgrade"),
        "{err}"
    );
    // The setting stores LLVM 22's form.
    r.write(".irgit.yaml", "hook:\n  dialect: upgrade\n");
    r.write("old.ll", format!("{OLD_DIALECT}; again\n"));
    let (ok, err) = try_commit(&r, "upgraded");
    assert!(ok, "{err}");
    let stored = r.git(&["show", "HEAD:old.ll"]);
    assert!(
        stored.contains("ptr") && !stored.contains("i32*"),
        "{stored}"
    );
}

#[test]
fn hook_keeps_crlf_line_endings() {
    let r = hook_repo();
    let crlf = MOD_B.replace('\n', "\r\n");
    r.write("f.ll", &crlf);
    let (ok, err) = try_commit(&r, "crlf");
    assert!(ok, "{err}");
    let stored = r.git(&["show", "HEAD:f.ll"]);
    assert_eq!(stored, r.canon(MOD_B).replace('\n', "\r\n"));
    assert_ne!(stored, crlf);
}

// ---------------------------------------------------------------- the clean filter

fn commit_count(r: &Repo) -> String {
    r.git(&["rev-list", "--count", "HEAD"]).trim().to_string()
}

#[test]
fn regenerating_identical_ir_is_not_a_change() {
    let r = hook_repo();
    let ir = clang_ir(&r, C_SOURCE);
    r.write("sum.ll", &ir);
    r.commit_all("sum");
    assert_eq!(r.git(&["show", "HEAD:sum.ll"]), r.canon(&ir));
    // The same clang command again: unmodified, no diff, nothing to commit.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    r.write("sum.ll", &ir);
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    assert_eq!(r.git(&["diff", "--stat"]), "");
    let before = commit_count(&r);
    let o = r.run("git", &["commit", "-q", "-a", "-m", "regen"]);
    assert!(!o.status.success(), "an empty commit was made");
    assert_eq!(commit_count(&r), before);
    // An alpha-equivalent module of another size: git's status trusts the
    // size until the index is refreshed, but there is no diff and nothing
    // to commit.
    r.write("f.ll", MOD_A);
    r.commit_all("f");
    r.write("f.ll", MOD_B);
    assert_eq!(r.git(&["diff", "--stat"]), "");
    let before = commit_count(&r);
    let o = r.run("git", &["commit", "-q", "-a", "-m", "regen"]);
    assert!(!o.status.success(), "an empty commit was made");
    assert_eq!(commit_count(&r), before);
    r.git(&["add", "f.ll"]);
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    // A real change is still one.
    r.write("f.ll", MOD_B.replace("add i32 %m, 7", "add i32 %m, 8"));
    assert_eq!(r.git(&["status", "--porcelain"]), " M f.ll\n");
}

#[test]
fn with_autocrlf_a_committed_file_is_not_modified() {
    let r = Repo::new();
    r.git(&["config", "core.autocrlf", "true"]);
    r.irgit_ok(&["install", "--hook"]);
    let crlf = clang_ir(&r, C_SOURCE).replace('\n', "\r\n");
    r.write("sum.ll", &crlf);
    r.commit_all("sum");
    let stored = r.git(&["show", "HEAD:sum.ll"]);
    assert!(!stored.contains('\r'), "git stores LF");
    assert_eq!(stored, r.canon(&crlf.replace("\r\n", "\n")));
    assert_eq!(r.git(&["status", "--porcelain"]), "");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    r.write("sum.ll", &crlf);
    assert_eq!(r.git(&["status", "--porcelain"]), "");
}

#[test]
fn a_commit_whose_ir_canonicalizes_to_head_stops_with_a_clear_message() {
    let r = hook_repo();
    // The hook alone, without the clean filter.
    r.git(&["config", "--unset", "filter.llvm-ir.process"]);
    r.write("f.ll", MOD_A);
    r.commit_all("a");
    r.write("f.ll", MOD_B);
    let before = commit_count(&r);
    let o = r.run("git", &["commit", "-q", "-a", "-m", "regen"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("f.ll: canonically equal to what HEAD has"),
        "{err}"
    );
    assert_eq!(commit_count(&r), before);
    // With another change beside it, the commit goes through.
    r.write("README", "changed\n");
    r.git(&["commit", "-q", "-a", "-m", "readme"]);
}

// ---------------------------------------------------------------- doctor, --help, error messages

/// The setup commands among the examples of `irgit --help` and `irgit
/// install --help`: every line that runs `irgit install` or `git config`.
fn setup_examples(r: &Repo) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for help in [vec!["--help"], vec!["install", "--help"]] {
        let text = r.irgit_ok(&help);
        for line in text.lines() {
            let command = line.split(" #").next().unwrap_or("").trim();
            if !(command.starts_with("irgit install") || command.starts_with("git config")) {
                continue;
            }
            let words = command
                .split_whitespace()
                .map(|w| w.trim_matches('\'').to_string())
                .collect();
            out.push(words);
        }
    }
    out
}

#[test]
fn every_setup_example_of_help_passes_doctor() {
    let examples = setup_examples(&Repo::new());
    assert!(examples.len() >= 4, "{examples:?}");
    for words in examples {
        let r = Repo::new();
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let program = if words[0] == "irgit" {
            git_support::IRGIT
        } else {
            "git"
        };
        let o = r.run(program, &args);
        assert!(
            o.status.success(),
            "{words:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let (ok, out) = r.doctor();
        assert!(ok, "{words:?}:\n{out}");
    }
}

#[test]
fn doctor_notes_a_gitattributes_the_hook_cannot_see_yet() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    let (ok, out) = r.doctor();
    assert!(ok, "{out}");
    assert!(
        out.contains("note: the pre-commit hook reads attributes from the index"),
        "{out}"
    );
    r.git(&["add", ".gitattributes"]);
    let (ok, out) = r.doctor();
    assert!(ok && !out.contains("note:"), "{out}");
}

#[test]
fn errors_name_the_command_and_the_file_in_words() {
    let r = Repo::new();
    let stderr = |o: std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let e = stderr(r.irgit(&["canon", "missing.ll"]));
    assert_eq!(e, "irgit canon: missing.ll: no such file\n");
    r.write("b.ll", MOD_A);
    r.write("c.ll", MOD_B);
    let e = stderr(r.irgit(&["merge", "a.ll", "b.ll", "c.ll"]));
    assert_eq!(e, "irgit merge: a.ll: no such file\n");
    let e = stderr(r.run_in(&r.home, git_support::IRGIT, &["hook", "pre-commit"]));
    assert!(
        e.starts_with("irgit pre-commit: ") && e.contains("not inside a git repository"),
        "{e}"
    );
    assert!(!e.contains("class=") && !e.contains("code="), "{e}");
}

#[test]
fn doctor_outside_a_repository_says_so_in_one_line() {
    let r = Repo::new();
    let o = r.run_in(&r.home, git_support::IRGIT, &["doctor"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with(&format!(
            "irgit doctor: {}: not inside a git work tree",
            r.home.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("run `irgit doctor` in the repository"),
        "{err}"
    );
    assert!(!err.contains("class=") && o.stdout.is_empty(), "{err}");
}

#[test]
fn doctor_notes_a_driver_line_without_conflict_labels() {
    let r = Repo::new();
    r.irgit_ok(&["install"]);
    r.git(&[
        "config",
        "merge.llvm-ir.driver",
        "irgit merge %O %A %B %L %P",
    ]);
    let (ok, out) = r.doctor();
    assert!(ok, "an old driver line still merges:\n{out}");
    assert!(
        out.contains("note: merge.llvm-ir.driver") && out.contains("passes no conflict labels"),
        "{out}"
    );
    assert!(out.contains("run `irgit install` again"), "{out}");
}

#[test]
fn passes_names_a_missing_file_without_the_os_error_code() {
    let r = Repo::new();
    let o = r.irgit(&["passes", "interact", "instcombine", "gvn", "nope.ll"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(
        err.trim_end(),
        "irgit passes: nope.ll: no such file",
        "{err}"
    );
    let o = r.irgit(&["passes", "matrix", "instcombine,gvn", "nope.ll"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains("nope.ll: no such file") && !err.contains("os error"),
        "{err}"
    );
}

/// git starts the diff driver for every side of every file it shows: it
/// must not load LLVM (a shared library of 150 MB) to answer from its cache.
#[test]
fn the_diff_driver_does_not_link_llvm() {
    let exe = env!("CARGO_BIN_EXE_irgit-textconv");
    let out = Command::new("ldd").arg(exe).output().expect("run ldd");
    let libs = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "ldd {exe}");
    assert!(
        !libs.contains("libLLVM") && !libs.contains("libstdc++"),
        "{exe} links:\n{libs}"
    );
}
