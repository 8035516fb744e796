//! The canonical form with comments (`docs/architecture.md`, *Comments*):
//! checked on the lit-style files of `tests/lit/` and on every corpus module
//! (clang-22 -O0/-O2/-O2 -g, Csmith, llvm-stress) with user comments added by
//! `common::annotate`:
//!
//! - every user comment is in the canonical form, at its anchor's place
//!   (each annotation says what it annotates, checked by
//!   `common::check_comment_places`);
//! - invariance: perturbing the module (comments carried along with their
//!   objects) does not change the canonical form; idempotence; validity;
//! - locality: one edit changes few lines, comments present;
//! - a change made only to a user comment always shows in the canonical form.
//!
//! Failing cases go to `target/tmp/CANON_FAILURES.md`.

mod common;

use std::process::Command;

use common::comments::{check_file, comment_edits, commented_files, edit_sizes};
use common::corpus;
use common::par_map;

#[test]
fn lit_files_pass_under_lit() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lit");
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    let out = Command::new(common::LIT)
        .arg("-q")
        .arg(dir.path())
        .output()
        .expect("run lit (Debian's llvm-22-tools)");
    assert!(
        out.status.success(),
        "lit failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(common::lit_files().len() >= 7);
}

#[test]
fn comments_keep_their_places_through_every_property() {
    let files = commented_files();
    let results = par_map(&files, |(name, text)| check_file(name, text));
    let failures: Vec<String> = results.into_iter().flatten().collect();
    common::report_failures("comments", &failures);
    println!(
        "{} files with comments, {} failure(s)",
        files.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failure(s); first:\n{}",
        failures.len(),
        failures[0]
    );
}

#[test]
fn every_comment_only_edit_shows_in_the_canonical_form() {
    let mut files: Vec<(String, String, usize)> = common::lit_files()
        .into_iter()
        .map(|(n, t)| (n, t, 1))
        .collect();
    for (i, m) in corpus()
        .iter()
        .enumerate()
        .filter(|(_, m)| m.name.starts_with("c/"))
    {
        files.push((
            format!("annotated {}", m.name),
            common::annotate(&m.text, i as u64 + 1),
            4,
        ));
    }
    let results = par_map(&files, |(n, t, every)| comment_edits(n, t, *every));
    let shown: usize = results.iter().map(|r| r.0).sum();
    let total: usize = results.iter().map(|r| r.1).sum();
    let unseen: Vec<String> = results.into_iter().filter_map(|r| r.2).collect();
    println!("comment-only edits shown: {shown}/{total}");
    assert!(total > 300, "only {total} edits tried");
    assert_eq!(shown, total, "not shown, first: {:?}", unseen.first());
}

#[test]
fn one_edit_changes_few_lines_with_comments_present() {
    let files = commented_files();
    let sizes = par_map(&files, |(name, text)| edit_sizes(name, text));
    let mut all: Vec<usize> = sizes.into_iter().flatten().collect();
    all.sort_unstable();
    let median = common::median(&all);
    println!(
        "locality with comments: {} edits, changed lines median {median}, p90 {}",
        all.len(),
        common::percentile(&all, 90.0)
    );
    assert!(all.len() > 100, "only {} edits measured", all.len());
    assert!(median <= 3, "median {median} changed lines per edit");
}
