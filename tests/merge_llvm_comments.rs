//! A clean merge result carries no stale LLVM comment: every label's
//! `; preds = ...` names exactly the blocks LLVM itself lists when it
//! prints the result (`opt -S`), after -O2 merges where block numbers
//! shift between the sides.
//!
//! ```text
//! merged:  58:      ; preds = %60, %54      (stale: copied from a side)
//! opt -S:  58:      ; preds = %55, %61
//! ```

mod merge_support;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use merge_support::triples::{c_source_triples_at, merge_triple};
use merge_support::{has_conflict_markers, llvm_tool, Repo};

/// Each label's predecessor list as the text's comments give it.
fn preds_comments(text: &str) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut out = BTreeMap::new();
    let mut function = String::new();
    for line in text.lines() {
        if line.starts_with("define ") {
            function = line.split('(').next().unwrap_or("").to_string();
            continue;
        }
        let Some((label, comment)) = line.split_once(':') else {
            continue;
        };
        let Some(list) = comment.trim().strip_prefix("; preds = ") else {
            continue;
        };
        let names = list
            .split(" ;")
            .next()
            .unwrap()
            .split(',')
            .map(|n| n.trim().to_string())
            .collect();
        out.insert((function.clone(), label.trim().to_string()), names);
    }
    out
}

/// The same, from LLVM printing the text again.
fn preds_by_llvm(text: &str) -> BTreeMap<(String, String), BTreeSet<String>> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("m.ll");
    std::fs::write(&input, text).unwrap();
    let out = Command::new(llvm_tool("opt"))
        .args(["-S", "-o", "-"])
        .arg(&input)
        .output()
        .expect("run opt");
    assert!(
        out.status.success(),
        "opt -S: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    preds_comments(&String::from_utf8(out.stdout).unwrap())
}

fn stale(text: &str) -> Vec<String> {
    let (written, llvm) = (preds_comments(text), preds_by_llvm(text));
    written
        .iter()
        .filter(|(k, v)| llvm.get(*k) != Some(v))
        .map(|((f, l), v)| {
            format!(
                "{f} {l}: written {v:?}, LLVM {:?}",
                llvm.get(&(f.clone(), l.clone()))
            )
        })
        .collect()
}

#[test]
fn clean_o2_merges_list_the_predecessors_llvm_lists() {
    let mut bad = Vec::new();
    let mut clean = 0;
    for t in c_source_triples_at("2") {
        let run = merge_triple(&t);
        if run.code != Some(0) {
            continue;
        }
        clean += 1;
        bad.extend(
            stale(&run.output)
                .into_iter()
                .map(|s| format!("{}: {s}", t.name)),
        );
    }
    assert!(clean >= 3, "only {clean} clean merges");
    assert!(
        bad.is_empty(),
        "stale `; preds` comments:\n{}",
        bad.join("\n")
    );
}

/// Through git: a merge of two -O2 edits of one program (a branch each
/// side adds shifts every later block number).
#[test]
fn a_clean_o2_git_merge_has_no_stale_preds_comment() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge/c_triples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "c") {
            continue;
        }
        let repo = Repo::new();
        repo.install_driver();
        let compile = |d: &[&str]| merge_support::compile_c(&path, "2", d);
        repo.commit_file("m.ll", &compile(&[]), "base");
        repo.ok(&["checkout", "-q", "-b", "side"]);
        repo.commit_file("m.ll", &compile(&["EDIT_B"]), "B");
        repo.ok(&["checkout", "-q", "main"]);
        repo.commit_file("m.ll", &compile(&["EDIT_A"]), "A");
        if repo.git(&["merge", "--no-edit", "side"]).status.code() != Some(0) {
            continue;
        }
        let text = repo.read("m.ll");
        assert!(!has_conflict_markers(&text, 7));
        let s = stale(&text);
        assert!(
            s.is_empty(),
            "{}: stale comments:\n{}",
            path.display(),
            s.join("\n")
        );
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} clean merges");
}

/// -O2-style numbering: theirs inserts a value at the top of `@f`, so every
/// later number shifts by one; ours edits a constant in block `%4`. The
/// result is written in ours' text with theirs' numbers, and the label
/// ours printed `; preds = %4, %2` for must now say `%5, %2`.
const SHIFT_BASE: &str = "define i32 @f(i32 %0, i32 %1) {
  %3 = icmp sgt i32 %0, 0
  br i1 %3, label %4, label %7

4:                                                ; preds = %2
  %5 = mul i32 %0, %1
  %6 = add i32 %5, 3
  br label %7

7:                                                ; preds = %4, %2
  %8 = phi i32 [ %6, %4 ], [ 0, %2 ]
  ret i32 %8
}
";

const SHIFT_THEIRS: &str = "define i32 @f(i32 %0, i32 %1) {
  %3 = add i32 %0, 1
  %4 = icmp sgt i32 %3, 0
  br i1 %4, label %5, label %8

5:                                                ; preds = %2
  %6 = mul i32 %0, %1
  %7 = add i32 %6, 3
  br label %8

8:                                                ; preds = %5, %2
  %9 = phi i32 [ %7, %5 ], [ 0, %2 ]
  ret i32 %9
}
";

#[test]
fn block_numbers_shifted_by_theirs_are_listed_right_in_ours_text() {
    let repo = Repo::new();
    repo.install_driver();
    repo.commit_file("f.ll", SHIFT_BASE, "base");
    repo.ok(&["checkout", "-q", "-b", "side"]);
    repo.commit_file("f.ll", SHIFT_THEIRS, "theirs: a new value first");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file(
        "f.ll",
        &SHIFT_BASE.replace("%5, 3", "%5, 9"),
        "ours: a constant",
    );
    let out = repo.git(&["merge", "--no-edit", "side"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = repo.read("f.ll");
    assert!(text.contains("%7 = add i32 %6, 9"), "both edits:\n{text}");
    let s = stale(&text);
    assert!(s.is_empty(), "stale comments:\n{}\n{text}", s.join("\n"));
}
