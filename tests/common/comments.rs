//! The properties of the canonical form with comments, shared by
//! `tests/canon_comments.rs` and the canon benchmark: each function checks
//! one file and says what it found.

use irgit_testkit::perturb::Kind;

use super::{canon, corpus};

/// The files checked: lit-style tests as written, corpus modules annotated.
pub fn commented_files() -> Vec<(String, String)> {
    let mut files = super::lit_files();
    for (i, m) in corpus().iter().enumerate() {
        files.push((
            format!("annotated {}", m.name),
            super::annotate(&m.text, i as u64 + 1),
        ));
    }
    files
}

/// One file: every property, with the failures described.
pub fn check_file(name: &str, text: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let c = match canon(text, name) {
        Ok(c) => c,
        Err(e) => return vec![format!("### {name}: canon failed: {e}")],
    };
    let missing = irgit::comments::missing_fragments(text, &c);
    if !missing.is_empty() {
        failures.push(format!("### {name}: comments lost: {missing:?}"));
    }
    let misplaced = super::check_comment_places(&c);
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
            super::first_diff_labeled(&c, &again, 20, "canon(m)", "canon(canon(m))")
        )),
        Err(e) => failures.push(format!("### {name}: canon(canon(m)) failed: {e}")),
    }
    for kind in Kind::ALL {
        let perturbed = super::changed_keeping_comments(text, name, |m| {
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
                super::first_diff(&c, &pc, 20)
            )),
            Err(e) => failures.push(format!("### {name}: {}: {e}", kind.name())),
        }
    }
    failures
}

/// Comment-only edits of one file: (shown, total, first unseen edit).
pub fn comment_edits(name: &str, text: &str, every: usize) -> (usize, usize, Option<String>) {
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

/// Sizes (max of removed, added lines) of the canonical diffs of single
/// edits of `text`, its comments carried along.
pub fn edit_sizes(name: &str, text: &str) -> Vec<usize> {
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
        let Ok(edited) = super::changed_keeping_comments(text, name, |m| {
            irgit_testkit::mutate::apply_all(m, &edits).map_err(|e| e.to_string())
        }) else {
            continue;
        };
        let Ok(c) = canon(&edited, name) else {
            continue;
        };
        let (removed, added) = super::diff_size(&base, &c);
        sizes.push(removed.max(added));
    }
    sizes
}
