//! The pre-commit hook on every corpus file, driven through real git
//! (`irgit install --hook`, `git add`, `git commit`):
//!
//! - plain clang-22 output (-O0, -O2, -O2 -g), Csmith and llvm-stress
//!   modules, with LLVM's own comments: all committed, in canonical form;
//! - the same modules with user comments added: committed in canonical
//!   form with every user comment (counted in each blob);
//! - lit tests (a `RUN:` line): left byte for byte as they are, and `lit`
//!   passes on the committed blobs; with `hook.lit_tests: canonicalize`
//!   they are stored canonical, with every comment, and still pass.

mod common;
mod git_support;

use common::corpus;
use git_support::Repo;

fn run_lit_on_tree(r: &Repo, dir: &str) {
    let out = tempfile::tempdir().unwrap();
    // The committed blobs, not the work tree: `git archive` of HEAD.
    let tar = out.path().join("head.tar");
    r.git(&["archive", "-o", tar.to_str().unwrap(), "HEAD", dir]);
    let o = std::process::Command::new("tar")
        .arg("-xf")
        .arg(&tar)
        .arg("-C")
        .arg(out.path())
        .output()
        .unwrap();
    assert!(o.status.success());
    let o = std::process::Command::new(common::LIT)
        .arg("-q")
        .arg(out.path().join(dir))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "lit fails on the committed blobs:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn add_lit_files(r: &Repo) -> Vec<(String, String)> {
    let cfg = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lit/lit.cfg.py");
    r.write("lit/lit.cfg.py", std::fs::read(cfg).unwrap());
    let files = common::lit_files();
    for (name, text) in &files {
        r.write(name, text);
    }
    files
}

#[test]
fn the_hook_commits_every_corpus_file_with_every_comment() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    let mut plain = Vec::new();
    let mut annotated = Vec::new();
    for (i, m) in corpus().iter().enumerate() {
        let p = format!("clang/{}.ll", m.name);
        r.write(&p, &m.text);
        plain.push((p, m.text.clone()));
        let a = format!("annotated/{}.ll", m.name);
        let text = common::annotate(&m.text, i as u64 + 1);
        r.write(&a, &text);
        annotated.push((a, text));
    }
    let lit = add_lit_files(&r);
    r.git(&["add", "-A"]);
    let o = r.run("git", &["commit", "-q", "-m", "corpus"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "commit refused:\n{err}");
    let lit_notes = err.lines().filter(|l| l.contains("lit test")).count();
    assert_eq!(lit_notes, lit.len(), "one line per lit test:\n{err}");

    let mut canonical = 0;
    for (p, text) in &plain {
        let blob = r.git(&["show", &format!("HEAD:{p}")]);
        assert_eq!(blob, r.canon(text), "{p} is not stored in canonical form");
        canonical += 1;
    }
    let mut comments = 0;
    for (p, text) in &annotated {
        let blob = r.git(&["show", &format!("HEAD:{p}")]);
        assert_eq!(blob, r.canon(text), "{p} is not stored in canonical form");
        let missing = irgit::comments::missing_fragments(text, &blob);
        assert!(missing.is_empty(), "{p}: lost {missing:?}");
        comments += irgit::comments::user_comment_fragments(text).len();
        let misplaced = common::check_comment_places(&blob);
        assert!(misplaced.is_empty(), "{p}: {misplaced:?}");
    }
    for (p, text) in &lit {
        let blob = r.git(&["show", &format!("HEAD:{p}")]);
        assert_eq!(&blob, text, "lit test {p} was changed");
    }
    println!(
        "committed: {canonical} clang outputs canonical, {} annotated files with {comments} \
         user comments (none missing), {} lit tests unchanged",
        annotated.len(),
        lit.len()
    );
    assert!(canonical >= 40 && comments > 1000);
    run_lit_on_tree(&r, "lit");
}

#[test]
fn lit_tests_are_canonicalized_when_the_settings_say_so() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    r.write(".irgit.yaml", "hook:\n  lit_tests: canonicalize\n");
    let lit = add_lit_files(&r);
    r.git(&["add", "-A"]);
    let o = r.run("git", &["commit", "-q", "-m", "lit"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (p, text) in &lit {
        let blob = r.git(&["show", &format!("HEAD:{p}")]);
        assert_ne!(&blob, text, "{p} was not canonicalized");
        assert_eq!(blob, r.canon(text));
        let missing = irgit::comments::missing_fragments(text, &blob);
        assert!(missing.is_empty(), "{p}: lost {missing:?}");
        assert!(blob.starts_with("; RUN:"), "{p}: the RUN line left the top");
    }
    // These tests check values through FileCheck variables, not names,
    // so they pass on their canonical form too.
    run_lit_on_tree(&r, "lit");
}

#[test]
fn a_refusal_names_the_file_and_the_line() {
    let r = Repo::new();
    r.irgit_ok(&["install", "--hook"]);
    r.write(
        "bad.ll",
        "; a test\ndefine i32 @f(i32 %x) {\n  %y = add i32 %x, %nope\n  ret i32 %y\n}\n",
    );
    r.git(&["add", "-A"]);
    let o = r.run("git", &["commit", "-q", "-m", "bad"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.ll:3:"), "no file:line in:\n{err}");
}
