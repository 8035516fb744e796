//! `hook: { mode: previous-names }`: the hook and the clean filter store a
//! staged IR file as the compiler wrote it, in the names the version at
//! `HEAD` used wherever values match, so that git's own diff (what a web
//! page of the commit shows) holds only the change.
//!
//! ```text
//! HEAD                         work tree (a statement inserted)   stored
//!   %5 = load i32, ptr %3        %5 = load i32, ptr %2              %new.5 = load i32, ptr %2
//!   %6 = add nsw i32 %5, 1       %6 = load i32, ptr %3              %5 = load i32, ptr %3
//!                                %7 = add nsw i32 %6, 1             %6 = add nsw i32 %5, 1
//! ```
//!
//! The text is `irgit diff --matched`'s new side
//! ([`crate::summary::matched::new_text_in_old_names`]). It is stored only
//! when it is provably the file: LLVM parses and verifies both, their
//! canonical forms (comments included) are equal, and no comment is lost.
//! It must also be a fixed point, so that `git status` never shows a
//! phantom change: written in `HEAD`'s names again it is the same bytes
//! (the hook cleans the blob the filter stored), and once committed, the
//! compiler's text written in its names is again the same bytes. Anything
//! else (no such file at `HEAD`, a version LLVM rejects, a check that
//! fails, a text whose diff from `HEAD` would be longer than the
//! compiler's own) stores the file exactly as written, with one line
//! saying why.

use std::path::Path;

use crate::canon;
use crate::comments;
use crate::compare::model::{local_definitions, own_label, relabelled};
use crate::config::CanonOptions;
use crate::ir::Session;
use crate::summary::matched::{fresh_name, new_text_in_old_names, FRESH_PREFIX};

/// The blob `HEAD` has at `path`, if any.
pub(crate) fn head_blob(repo: &git2::Repository, path: &str) -> Option<Vec<u8>> {
    let tree = repo.head().ok()?.peel_to_tree().ok()?;
    let entry = tree.get_path(Path::new(path)).ok()?;
    let blob = repo.find_blob(entry.id()).ok()?;
    Some(blob.content().to_vec())
}

/// The one line the hook and the filter print for a file stored as written.
pub(crate) fn as_written_note(path: &str, why: &str) -> String {
    let why = why.lines().next().unwrap_or_default().trim();
    format!("{path}: stored as written (hook.mode: previous-names): {why}")
}

/// What to store for `input` (LF text that LLVM accepts), given `HEAD`'s
/// version of the file: `input` in `HEAD`'s names, proved the same module
/// and a fixed point (the module doc); `Err(why)` when it must be stored as
/// written.
pub(crate) fn in_head_names(
    path: &str,
    input: &str,
    head: Option<&[u8]>,
) -> Result<String, String> {
    let head = head.ok_or("HEAD has no such file")?;
    let head = String::from_utf8_lossy(head).replace("\r\n", "\n");
    if head == input {
        return Ok(head);
    }
    let head_label = format!("HEAD:{path}");
    let write = |old: &str, new: &str| {
        new_text_in_old_names(old.as_bytes(), new.as_bytes(), &head_label, path)
            .map(|text| without_numbering_gaps(&text))
            .map_err(|e| format!("cannot be written in HEAD's names: {e}"))
    };
    let settled = |old: &str, new: &str| -> Result<String, String> {
        let mut text = new.to_string();
        for _ in 0..SETTLING_ROUNDS {
            if text == old {
                return Ok(text);
            }
            let next = write(old, &text)?;
            if next == text {
                return Ok(text);
            }
            same_module(path, input, &next)?;
            text = next;
        }
        Err("its text in HEAD's names does not settle (written so again, it changes again)".into())
    };
    let stored = settled(&head, input)?;
    if stored != input && settled(&stored, input)? != stored {
        return Err("once committed, the compiler's text would not read as committed".into());
    }
    if stored == input {
        return Ok(stored);
    }
    let (renamed, as_compiled) = (changed_lines(&head, &stored), changed_lines(&head, input));
    if renamed > as_compiled {
        return Err(format!(
            "its diff in HEAD's names would be longer than the compiler's own \
             ({renamed} changed lines against {as_compiled})"
        ));
    }
    Ok(stored)
}

/// Removed + added lines of a line diff of `old` and `new`.
fn changed_lines(old: &str, new: &str) -> usize {
    let (old, new): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let common = crate::compare::diff::common(&old, &new).len();
    old.len() + new.len() - 2 * common
}

/// How many times the text is written in `HEAD`'s names again, at most,
/// before it must be a fixed point: the matched writer pairs a text already
/// in `HEAD`'s names a little better than the compiler's text.
const SETTLING_ROUNDS: usize = 3;

/// `text` with `HEAD`'s numbers in the order LLVM requires
/// ([`numbers_in_order`]), then each new value the matched writer names
/// `%new.N` numbered where its function's numbers leave a gap just before
/// it (an old value no longer there). LLVM reads a gap left (`%3`, `%5`);
/// the matched writer reads such numbers as written.
///
/// ```text
/// 7:  %new.10 = load i32, ptr %6  %9 = load i32, ptr %4   ->   7:  %8 = load ...  %9 = load ...
/// ```
fn without_numbering_gaps(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut function: Vec<&str> = Vec::new();
    for line in text.split('\n') {
        if line.starts_with("define ") || !function.is_empty() {
            function.push(line);
            if line == "}" {
                let ordered = numbers_in_order(&function);
                let ordered: Vec<&str> = ordered.iter().map(String::as_str).collect();
                out.extend(gaps_filled(&ordered));
                function.clear();
            }
        } else {
            out.push(line.to_string());
        }
    }
    out.extend(function.iter().map(|l| l.to_string()));
    out.join("\n")
}

/// One function with the numbered values that break LLVM's rule (each
/// number greater than the one before) renamed `new.N`: where the compiler
/// reordered values, `HEAD`'s numbers come out of order. The longest run of
/// numbers already in order keeps them; a renamed value takes a number
/// again where [`gaps_filled`] finds a gap for it.
///
/// ```text
/// %4 = load i32, ptr %1   %3 = load i32, ptr %0   ->   %new.4 = load ...   %3 = load ...
/// ```
fn numbers_in_order(lines: &[&str]) -> Vec<String> {
    let defs = local_definitions(lines);
    let out_of_order = out_of_order_numbers(&defs);
    if out_of_order.is_empty() {
        return lines.iter().map(|l| l.to_string()).collect();
    }
    let mut taken: std::collections::HashSet<String> = defs
        .iter()
        .filter_map(|d| d.1)
        .map(str::to_string)
        .collect();
    let mut renames: std::collections::HashMap<&str, String> = Default::default();
    for number in out_of_order {
        let fresh = fresh_name(number, |n| taken.contains(n));
        taken.insert(fresh.clone());
        renames.insert(number, fresh);
    }
    lines.iter().map(|l| renamed_line(l, &renames)).collect()
}

/// The numbered local definitions (past the arguments and an unlabelled
/// entry block, which LLVM numbers first) outside the longest strictly
/// increasing run of their numbers.
fn out_of_order_numbers<'a>(defs: &[(usize, Option<&'a str>)]) -> Vec<&'a str> {
    let mut floor = 0usize;
    let mut body: Vec<(&str, usize)> = Vec::new();
    for &(line, name) in defs {
        let number = name.and_then(|n| n.parse::<usize>().ok().map(|k| (n, k)));
        match (line, name, number) {
            (_, None, _) => floor += 1,
            (0, _, Some((_, k))) => floor = floor.max(k + 1),
            (_, _, Some(pair)) => body.push(pair),
            _ => {}
        }
    }
    let kept = longest_increasing(&body, floor);
    body.iter()
        .enumerate()
        .filter(|(i, _)| !kept.contains(i))
        .map(|(_, &(name, _))| name)
        .collect()
}

/// The indices of a longest strictly increasing subsequence of `items`'
/// numbers, all at least `floor` (patience sorting).
fn longest_increasing(items: &[(&str, usize)], floor: usize) -> std::collections::HashSet<usize> {
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; items.len()];
    for (i, &(_, k)) in items.iter().enumerate() {
        if k < floor {
            continue;
        }
        let at = tails.partition_point(|&t| items[t].1 < k);
        before[i] = at.checked_sub(1).map(|p| tails[p]);
        if at == tails.len() {
            tails.push(i);
        } else {
            tails[at] = i;
        }
    }
    let mut kept = std::collections::HashSet::new();
    let mut at = tails.last().copied();
    while let Some(i) = at {
        kept.insert(i);
        at = before[i];
    }
    kept
}

/// One function (its `define` line to its `}`) with its gaps filled.
fn gaps_filled(lines: &[&str]) -> Vec<String> {
    let defs = local_definitions(lines);
    let number = |name: Option<&str>| match name {
        None => Some(None),
        Some(n) => n.parse::<usize>().ok().map(Some),
    };
    let mut renames: std::collections::HashMap<&str, String> = Default::default();
    let mut expected = 0usize;
    for (k, &(_, name)) in defs.iter().enumerate() {
        match number(name) {
            Some(Some(n)) => expected = n + 1,
            Some(None) => expected += 1,
            None => {
                let fresh = name.filter(|n| is_new_value(n));
                let next = defs[k + 1..].iter().find_map(|d| number(d.1).flatten());
                if let (Some(fresh), Some(next)) = (fresh, next) {
                    if next > expected {
                        renames.insert(fresh, expected.to_string());
                        expected += 1;
                    }
                }
            }
        }
    }
    if renames.is_empty() {
        return lines.iter().map(|l| l.to_string()).collect();
    }
    lines.iter().map(|l| renamed_line(l, &renames)).collect()
}

/// A name the matched writer gives a new unnamed value: `new.N`, or
/// `new.N.K` where the file had a `new.N` already.
fn is_new_value(name: &str) -> bool {
    name.strip_prefix(FRESH_PREFIX).is_some_and(|n| {
        n.split('.')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// `line` with its references to (and its label of) the renamed values
/// renamed; a label line's `; preds = ...` kept at LLVM's column 50.
fn renamed_line(line: &str, renames: &std::collections::HashMap<&str, String>) -> String {
    let body = crate::text::rewrite(line, |r| match r {
        crate::text::Ref::Local(x) => renames.get(x).map(|n| format!("%{n}")),
        _ => None,
    });
    let Some(label) = own_label(&body).filter(|l| renames.contains_key(l)) else {
        return body;
    };
    relabelled(&body, &renames[label])
}

/// Whether `stored` is the module `written` is: every comment kept, and
/// equal canonical forms (every stage on, comments carried).
fn same_module(path: &str, written: &str, stored: &str) -> Result<(), String> {
    let lost = comments::missing_fragments(written, stored);
    if let Some(first) = lost.first() {
        return Err(format!(
            "its text in HEAD's names would lose {} comment(s) (first: {first:?})",
            lost.len()
        ));
    }
    if !comments::missing_fragments(stored, written).is_empty() {
        return Err("its text in HEAD's names would change a comment".into());
    }
    let opts = CanonOptions {
        keep_comments: true,
        ..CanonOptions::default()
    };
    let canonical = |text: &str, what: &str| -> Result<String, String> {
        let session = Session::new();
        let module = canon::parse_verified(&session, text.as_bytes(), path)
            .map_err(|e| format!("LLVM rejects {what}: {e}"))?;
        canon::canonical_text(&module, text.as_bytes(), path, &opts)
            .map_err(|e| format!("{what}: {e}"))
    };
    if canonical(written, "the file")? != canonical(stored, "its text in HEAD's names")? {
        return Err(
            "its text in HEAD's names is not the same module (canonical forms differ)".into(),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n  ret i32 %2\n}\n";
    const NEW: &str = "; a note\ndefine i32 @f(i32 %0) {\n  %2 = mul i32 %0, 3\n  %3 = add i32 %0, 1\n  %4 = add i32 %3, %2\n  ret i32 %4\n}\n";

    #[test]
    fn matched_values_take_heads_names() {
        let stored = in_head_names("f.ll", NEW, Some(OLD.as_bytes())).unwrap();
        assert!(stored.contains("%2 = add i32 %0, 1"), "{stored}");
        assert!(stored.starts_with("; a note\n"), "{stored}");
        assert_eq!(
            in_head_names("f.ll", &stored, Some(OLD.as_bytes())),
            Ok(stored.clone())
        );
    }

    /// The compiler swapped two loads: `HEAD`'s numbers come out of order
    /// (`%4` before `%3`), which LLVM rejects; one of them is renamed.
    #[test]
    fn heads_numbers_out_of_order_are_renamed_not_refused() {
        let head = "define i32 @f(ptr %0, ptr %1) {\n  %3 = load i32, ptr %0, align 4\n  %4 = load i32, ptr %1, align 4\n  %5 = sub i32 %3, %4\n  ret i32 %5\n}\n";
        let new = "define i32 @f(ptr %0, ptr %1) {\n  %3 = load i32, ptr %1, align 4\n  %4 = load i32, ptr %0, align 4\n  %5 = sub i32 %4, %3\n  ret i32 %5\n}\n";
        let stored = in_head_names("f.ll", new, Some(head.as_bytes())).unwrap();
        assert!(stored.contains("  %5 = sub i32 %3, %"), "{stored}");
        assert!(
            stored.contains("  %3 = load i32, ptr %0, align 4\n"),
            "{stored}"
        );
        assert_eq!(
            in_head_names("f.ll", &stored, Some(head.as_bytes())),
            Ok(stored.clone())
        );
    }

    /// loops.c at -O2 with a statement of `main` deleted (clang-22's
    /// output, `HEAD` as the mode stored it): in `HEAD`'s names the diff
    /// would be 30 lines, the compiler's own is 28, so it is stored as
    /// written.
    #[test]
    fn a_text_whose_diff_would_be_longer_is_stored_as_written() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/previous_names/");
        let read = |name: &str| std::fs::read_to_string(format!("{dir}{name}")).unwrap();
        let (head, new) = (read("longer-head.ll"), read("longer-new.ll"));
        let why = in_head_names("m.ll", &new, Some(head.as_bytes())).unwrap_err();
        assert!(
            why.contains("longer than the compiler's own (30 changed lines against 28)"),
            "{why}"
        );
    }

    #[test]
    fn without_a_head_version_or_valid_ir_it_is_stored_as_written() {
        assert!(in_head_names("f.ll", NEW, None).is_err());
        let e = in_head_names("f.ll", NEW, Some(b"not IR")).unwrap_err();
        assert!(e.contains("HEAD:f.ll"), "{e}");
        let note = as_written_note("f.ll", "one\ntwo");
        assert_eq!(
            note,
            "f.ll: stored as written (hook.mode: previous-names): one"
        );
    }
}
