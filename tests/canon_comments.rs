//! The canonical form with comments (design §6): checked on the lit-style
//! files of `tests/lit/` and on every corpus module (clang-22 -O0/-O2/-O2 -g,
//! Csmith, llvm-stress) with user comments added by `common::annotate`:
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

use common::{canon, corpus};
use irgit_testkit::perturb::Kind;

/// The files checked: lit-style tests as written, corpus modules annotated.
fn commented_files() -> Vec<(String, String)> {
    let mut files = common::lit_files();
    for (i, m) in corpus().iter().enumerate() {
        files.push((
            format!("annotated {}", m.name),
            common::annotate(&m.text, i as u64 + 1),
        ));
    }
    files
}

/// Maps `f` over `items` on two threads, keeping their order.
fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        if i >= items.len() {
                            break;
                        }
                        mine.push((i, f(&items[i])));
                    }
                    mine
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

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

/// One file: every property, with the failures described.
fn check_file(name: &str, text: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let c = match canon(text, name) {
        Ok(c) => c,
        Err(e) => return vec![format!("### {name}: canon failed: {e}")],
    };
    let missing = irgit::comments::missing_fragments(text, &c);
    if !missing.is_empty() {
        failures.push(format!("### {name}: comments lost: {missing:?}"));
    }
    let misplaced = common::check_comment_places(&c);
    if !misplaced.is_empty() {
        failures.push(format!(
            "### {name}: {} comment(s) misplaced, first: {}",
            misplaced.len(),
            misplaced[0]
        ));
    }
    match canon(&c, name) {
        Ok(again) if again == c => {}
        Ok(again) => failures.push(format!(
            "### {name}: not idempotent\n\n```diff\n{}\n```",
            common::first_diff_labeled(&c, &again, 20, "canon(m)", "canon(canon(m))")
        )),
        Err(e) => failures.push(format!("### {name}: canon(canon(m)) failed: {e}")),
    }
    for kind in Kind::ALL {
        let perturbed = common::changed_keeping_comments(text, name, |m| {
            irgit_testkit::perturb::apply(m, kind, 1)
        });
        let outcome = perturbed.and_then(|p| {
            let lost = irgit::comments::missing_fragments(text, &p);
            if !lost.is_empty() {
                return Err(format!("the perturbed text lost comments {lost:?}"));
            }
            canon(&p, name)
        });
        match outcome {
            Ok(pc) if pc == c => {}
            Ok(pc) => failures.push(format!(
                "### {name}: {} changes the canonical form\n\n```diff\n{}\n```",
                kind.name(),
                common::first_diff(&c, &pc, 20)
            )),
            Err(e) => failures.push(format!("### {name}: {}: {e}", kind.name())),
        }
    }
    failures
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

/// Comment-only edits of one file: (shown, total, first unseen edit).
fn comment_edits(name: &str, text: &str, every: usize) -> (usize, usize, Option<String>) {
    let base = canon(text, name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let lines: Vec<&str> = text.lines().collect();
    let mut edits: Vec<(String, String)> = Vec::new();
    let mut seen = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = irgit::comments::layout::comment_start(line) else {
            continue;
        };
        let comment = &line[at..];
        if irgit::comments::is_printer_comment(comment) {
            continue;
        }
        seen += 1;
        if seen % every != 0 {
            continue;
        }
        let with_line = |new: Option<String>| {
            let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            match new {
                Some(l) => v[i] = l,
                None => {
                    v.remove(i);
                }
            }
            v.join("\n") + "\n"
        };
        let whole_line = line[..at].trim().is_empty();
        // Change one word, drop the comment, add a note after it.
        edits.push((
            format!("line {}: edit {comment:?}", i + 1),
            with_line(Some(format!("{line} (edited)"))),
        ));
        edits.push((
            format!("line {}: delete {comment:?}", i + 1),
            with_line(if whole_line {
                None
            } else {
                Some(line[..at].trim_end().to_string())
            }),
        ));
        edits.push((
            format!("line {}: add a note above {comment:?}", i + 1),
            with_line(Some(format!("; a new note\n{line}"))),
        ));
    }
    let mut shown = 0;
    let mut first_unseen = None;
    for (what, edited) in &edits {
        match canon(edited, name) {
            Ok(c) if c != base => shown += 1,
            Ok(_) => {
                first_unseen.get_or_insert_with(|| format!("{name}: {what}"));
            }
            Err(e) => {
                first_unseen.get_or_insert_with(|| format!("{name}: {what}: canon failed: {e}"));
            }
        }
    }
    (shown, edits.len(), first_unseen)
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
    let sizes = par_map(&files, |(name, text)| {
        let mut sizes = Vec::new();
        let base = canon(text, name).unwrap();
        for seed in 1..=4u64 {
            let s = irgit::ir::Session::new();
            let m = s.parse(text.as_bytes(), name).unwrap();
            let edits = irgit_testkit::mutate::pick_edits(&m, seed, 1);
            drop(m);
            if edits.is_empty() {
                continue;
            }
            let Ok(edited) = common::changed_keeping_comments(text, name, |m| {
                irgit_testkit::mutate::apply_all(m, &edits).map_err(|e| e.to_string())
            }) else {
                continue;
            };
            let Ok(c) = canon(&edited, name) else {
                continue;
            };
            let (removed, added) = common::diff_size(&base, &c);
            sizes.push(removed.max(added));
        }
        sizes
    });
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
