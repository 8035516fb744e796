//! Merge triples generated from real IR: a base O, A = O + e1, B = O + e2,
//! and the module a careful merge must give (O + e1 + e2), or none when the
//! edits overlap and only a conflict is right.
//!
//! From C sources: one program with `#ifdef EDIT_A` / `#ifdef EDIT_B`
//! regions, compiled by clang-22 -O0 without, with either, and with both
//! defines (O, A, B, AB; expected = AB). Programs in `c_overlaps/` edit the
//! same statement on both sides (`#if EDIT_A … #elif EDIT_B`): a conflict.
//!
//! ```text
//! O:  %3 = mul nsw i32 %2, 3      A: %3 = mul nsw i32 %2, 7     B: (O)          AB: mul 7 … and
//!     ...                            %4 = add nsw i32 %3, 1        %9 = sub …        %10 = sub …
//! ```

use std::path::{Path, PathBuf};

use irgit::ir::{Inst, IrModule, Session};
use irgit_testkit::mutate::{self, Edit, EditKind};

use super::{canon, try_canon, MergeRun, Outcome};

/// How the two edits of a triple relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    /// Different instructions, not def-use neighbours, not adjacent: must
    /// merge clean (the benchmark's clean rate counts these).
    Disjoint,
    /// Different instructions that are def-use neighbours or adjacent: a
    /// conflict is acceptable, a clean merge must still be exact.
    Near,
    /// The same instruction edited differently: must conflict.
    Overlapping,
}

/// One generated triple.
#[derive(Debug, Clone)]
pub struct Triple {
    pub name: String,
    pub base: String,
    pub left: String,
    pub right: String,
    /// O + e1 + e2; `None` for overlapping edits.
    pub expected: Option<String>,
    pub relation: Relation,
}

/// What a merge run did with a triple.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Clean, and canonically equal to the expected module.
    Exact,
    /// Clean but different from the expected module (or a clean merge of
    /// overlapping edits): the worst bug.
    Wrong(String),
    Conflict,
    Broken(String),
}

/// Judges a run of `irgit merge` on `t` (marker size `marker`).
/// Writes a triple to a temporary directory and runs
/// `irgit merge BASE OURS THEIRS -o OUT` on it.
pub fn merge_triple(t: &Triple) -> MergeRun {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str, text: &str| {
        let path = dir.path().join(n);
        std::fs::write(&path, text).unwrap();
        path
    };
    let (o, a, b) = (
        p("base.ll", &t.base),
        p("ours.ll", &t.left),
        p("theirs.ll", &t.right),
    );
    super::merge_cli(&o, &a, &b, &dir.path().join("out.ll"))
}

pub fn judge(t: &Triple, run: &MergeRun, marker: usize) -> Verdict {
    match run.outcome(marker) {
        Outcome::Broken(why) => Verdict::Broken(why),
        Outcome::Conflict => Verdict::Conflict,
        Outcome::Clean => match &t.expected {
            None => Verdict::Wrong("clean merge of overlapping edits".into()),
            Some(exp) => {
                let want = canon(exp, &format!("{} (expected)", t.name));
                match try_canon(&run.output, &format!("{} (merged)", t.name)) {
                    Err(e) => Verdict::Wrong(format!("merged output is not valid IR: {e}")),
                    Ok(got) if got == want => Verdict::Exact,
                    Ok(got) => Verdict::Wrong(first_difference(&want, &got)),
                }
            }
        },
    }
}

/// Judges a `git merge-file` result the same way (clean text compared
/// canonically; text that does not parse is wrong).
pub fn judge_text(t: &Triple, clean: bool, text: &str) -> Verdict {
    if !clean {
        return Verdict::Conflict;
    }
    match &t.expected {
        None => Verdict::Wrong("clean merge of overlapping edits".into()),
        Some(exp) => match try_canon(text, "git merge-file output") {
            Err(e) => Verdict::Wrong(format!("not valid IR: {e}")),
            Ok(got) if got == canon(exp, "expected") => Verdict::Exact,
            Ok(got) => Verdict::Wrong(first_difference(&canon(exp, "expected"), &got)),
        },
    }
}

/// The first differing line of two canonical texts, for messages.
pub fn first_difference(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!(
                "line {}: expected `{}`, merged `{}`",
                i + 1,
                w.trim(),
                g.trim()
            );
        }
    }
    format!(
        "expected {} lines, merged {} lines",
        want.lines().count(),
        got.lines().count()
    )
}

fn c_sources(sub: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/merge")
        .join(sub);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    v.sort();
    v
}

/// Triples from `tests/merge/c_triples/*.c`: two independent source edits.
pub fn c_source_triples() -> Vec<Triple> {
    c_source_triples_at("0")
}

/// [`c_source_triples`] compiled at `-O<opt>`.
pub fn c_source_triples_at(opt: &str) -> Vec<Triple> {
    c_sources("c_triples")
        .into_iter()
        .map(|src| Triple {
            name: format!("c-O{opt}:{}", src.file_stem().unwrap().to_string_lossy()),
            base: super::compile_c(&src, opt, &[]),
            left: super::compile_c(&src, opt, &["EDIT_A"]),
            right: super::compile_c(&src, opt, &["EDIT_B"]),
            expected: Some(super::compile_c(&src, opt, &["EDIT_A", "EDIT_B"])),
            relation: Relation::Disjoint,
        })
        .collect()
}

/// Triples from `tests/merge/c_overlaps/*.c`: both sides edit one statement.
pub fn c_overlap_triples() -> Vec<Triple> {
    c_sources("c_overlaps")
        .into_iter()
        .map(|src| Triple {
            name: format!("c-overlap:{}", src.file_stem().unwrap().to_string_lossy()),
            base: super::compile_c(&src, "0", &[]),
            left: super::compile_c(&src, "0", &["EDIT_A"]),
            right: super::compile_c(&src, "0", &["EDIT_B"]),
            expected: None,
            relation: Relation::Overlapping,
        })
        .collect()
}

/// The modules mutation triples are drawn from: the C corpus
/// (`tests/corpus/*.c`, first `n_c` files in name order) at -O0 and -O2,
/// and `n_stress` llvm-stress modules. Each entry is (name, IR text).
pub fn corpus_modules(n_c: usize, n_stress: u64) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for src in c_sources("../corpus").into_iter().take(n_c) {
        let stem = src.file_stem().unwrap().to_string_lossy().into_owned();
        for opt in ["0", "2"] {
            out.push((format!("{stem}-O{opt}"), super::compile_c(&src, opt, &[])));
        }
    }
    for seed in 1..=n_stress {
        out.push((format!("stress{seed}"), super::llvm_stress(seed, 80)));
    }
    out
}

/// Instructions of `f` in layout order, as `mutate` indexes them.
fn layout(m: &IrModule<'_>, func: &str) -> Vec<Inst> {
    m.function(func)
        .map(|f| f.blocks().iter().flat_map(|b| b.instructions()).collect())
        .unwrap_or_default()
}

/// Lines an edit changes in the printed module: its target, plus every user
/// of the target when the target is deleted (their operand changes).
fn touched(m: &IrModule<'_>, e: &Edit) -> Vec<Inst> {
    let Some(&t) = layout(m, &e.func).get(e.index) else {
        return Vec::new();
    };
    let mut v = vec![t];
    if matches!(e.kind, EditKind::Delete { .. }) {
        v.extend(t.val().uses().into_iter().filter_map(|(u, _)| u.as_inst()));
    }
    v
}

/// Whether two edits at distinct instructions may legitimately interact:
/// a changed line of one is an operand, a user, the same line, or a direct
/// neighbour in its block of a changed line of the other.
fn near(m: &IrModule<'_>, e1: &Edit, e2: &Edit) -> bool {
    let (t1, t2) = (touched(m, e1), touched(m, e2));
    let position = |i: Inst| {
        i.block()
            .instructions()
            .iter()
            .position(|&x| x == i)
            .unwrap_or(0)
    };
    t1.iter().any(|&a| {
        t2.iter().any(|&b| {
            a == b
                || a.operands().contains(&b.val())
                || b.operands().contains(&a.val())
                || (a.block() == b.block() && position(a).abs_diff(position(b)) <= 1)
        })
    })
}

/// Prints `text` after applying `edits` to a fresh parse; `None` when an
/// edit does not apply or the result does not verify.
fn edited(text: &str, name: &str, edits: &[Edit]) -> Option<String> {
    let session = Session::new();
    let m = session.parse(text.as_bytes(), name).ok()?;
    mutate::apply_all(&m, edits).ok()?;
    Some(m.print())
}

/// Mutation triples: for every module and seed, one pair of edits at
/// distinct instructions (Disjoint or Near) and, where the module has an
/// integer constant to change, one pair of different edits of the same
/// constant (Overlapping).
pub fn mutation_triples(modules: &[(String, String)], seeds: &[u64]) -> Vec<Triple> {
    let mut out = Vec::new();
    for (name, text) in modules {
        let session = Session::new();
        let m = session
            .parse(text.as_bytes(), name)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let base = m.print();
        for &seed in seeds {
            let edits = mutate::pick_edits(&m, seed, 2);
            if let [e1, e2] = &edits[..] {
                let relation = if near(&m, e1, e2) {
                    Relation::Near
                } else {
                    Relation::Disjoint
                };
                let parts = (
                    edited(&base, name, std::slice::from_ref(e1)),
                    edited(&base, name, std::slice::from_ref(e2)),
                    edited(&base, name, &edits),
                );
                if let (Some(left), Some(right), Some(both)) = parts {
                    out.push(Triple {
                        name: format!("{name} seed {seed}: [{e1}] + [{e2}]"),
                        base: base.clone(),
                        left,
                        right,
                        expected: Some(both),
                        relation,
                    });
                }
            }
            if let Some(c) = mutate::pick_kind(&m, seed, "constant") {
                let EditKind::Constant { operand, value } = c.kind else {
                    continue;
                };
                let other = Edit {
                    kind: EditKind::Constant {
                        operand,
                        value: value.wrapping_add(1),
                    },
                    ..c.clone()
                };
                let parts = (
                    edited(&base, name, std::slice::from_ref(&c)),
                    edited(&base, name, std::slice::from_ref(&other)),
                );
                // An i1 constant has only two values: the second edit
                // may restore the base; such a pair is not an overlap.
                if let (Some(left), Some(right)) = parts {
                    if left != right && left != base && right != base {
                        out.push(Triple {
                            name: format!("{name} seed {seed}: [{c}] vs [{other}]"),
                            base: base.clone(),
                            left,
                            right,
                            expected: None,
                            relation: Relation::Overlapping,
                        });
                    }
                }
            }
        }
    }
    out
}

/// A text edit of a lit-style file: replace line `at`, or insert a line
/// above it.
#[derive(Debug, Clone)]
enum TextEdit {
    Replace(usize, String),
    InsertAbove(usize, String),
}

fn apply_text_edits(text: &str, edits: &[&TextEdit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut sorted: Vec<&TextEdit> = edits.to_vec();
    let at = |e: &TextEdit| match e {
        TextEdit::Replace(i, _) | TextEdit::InsertAbove(i, _) => *i,
    };
    sorted.sort_by_key(|e| std::cmp::Reverse(at(e)));
    for e in sorted {
        match e {
            TextEdit::Replace(i, l) => lines[*i] = l.clone(),
            TextEdit::InsertAbove(i, l) => lines.insert(*i, l.clone()),
        }
    }
    lines.join("\n") + "\n"
}

/// Triples from the lit-style files of `tests/lit/`, as written (RUN and
/// CHECK lines, notes, trailing comments): each side edits instructions
/// and comments at different places, plus one pair editing the same
/// comment differently (which must conflict).
pub fn lit_triples() -> Vec<Triple> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lit");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ll"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let base = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = base.lines().collect();
        let whole_comments: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].trim_start().starts_with(';'))
            .collect();
        let trailing: Vec<usize> = (0..lines.len())
            .filter(|&i| !lines[i].trim_start().starts_with(';') && lines[i].contains(" ; "))
            .collect();
        let rets: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].trim_start().starts_with("ret "))
            .collect();
        let (Some(&c_first), Some(&c_last), Some(&r_first), Some(&r_last)) = (
            whole_comments.first(),
            whole_comments.last(),
            rets.first(),
            rets.last(),
        ) else {
            continue;
        };
        let edit_comment =
            |i: usize, who: &str| TextEdit::Replace(i, format!("{} ({who} was here)", lines[i]));
        let dead_add = |i: usize, who: &str| {
            TextEdit::InsertAbove(
                i,
                format!("  %{who}.extra = add i32 0, 0 ; {who} adds this"),
            )
        };
        let note = |i: usize, who: &str| TextEdit::InsertAbove(i, format!("  ; a note from {who}"));
        let mut pairs: Vec<(&str, TextEdit, TextEdit)> = vec![
            (
                "comment vs instruction",
                edit_comment(c_first, "ours"),
                dead_add(r_last, "theirs"),
            ),
            (
                "instruction vs comment",
                dead_add(r_first, "ours"),
                edit_comment(c_last, "theirs"),
            ),
        ];
        if let Some(&t) = trailing.iter().find(|&&t| t != r_first && t + 1 != r_first) {
            pairs.push((
                "note vs trailing comment",
                note(r_first, "ours"),
                TextEdit::Replace(t, format!("{} and more", lines[t])),
            ));
        }
        for (what, a, b) in pairs {
            out.push(Triple {
                name: format!("lit:{name}: {what}"),
                base: base.clone(),
                left: apply_text_edits(&base, &[&a]),
                right: apply_text_edits(&base, &[&b]),
                expected: Some(apply_text_edits(&base, &[&a, &b])),
                relation: Relation::Disjoint,
            });
        }
        out.push(Triple {
            name: format!("lit:{name}: the same comment edited twice"),
            base: base.clone(),
            left: apply_text_edits(&base, &[&edit_comment(c_first, "ours")]),
            right: apply_text_edits(&base, &[&edit_comment(c_first, "theirs")]),
            expected: None,
            relation: Relation::Overlapping,
        });
    }
    out
}

/// Changed lines (removed, added) between two texts.
fn diff_size(a: &str, b: &str) -> (usize, usize) {
    let d = similar::TextDiff::from_lines(a, b);
    let (mut r, mut i) = (0, 0);
    for c in d.iter_all_changes() {
        match c.tag() {
            similar::ChangeTag::Delete => r += 1,
            similar::ChangeTag::Insert => i += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    (r, i)
}

/// `%7` → `%N`: a text as it reads once numbering is set aside.
fn unnumbered(text: &str) -> String {
    irgit::comments::carry::mask_numbers(text, b'%', "N")
}

/// What a clean merge did to ours' text.
#[derive(Debug, PartialEq, Eq)]
pub enum Faithful {
    /// `diff ours result` is no bigger than `diff base theirs`.
    Exactly,
    /// Only once `%N` numbering is set aside (a function renumbered).
    UpToNumbering,
    /// The result rewrote more of ours than theirs changed.
    No((usize, usize), (usize, usize)),
}

pub fn faithfulness(t: &Triple, result: &str) -> Faithful {
    let theirs = diff_size(&t.base, &t.right);
    let ours = diff_size(&t.left, result);
    if ours.0 <= theirs.0 && ours.1 <= theirs.1 {
        return Faithful::Exactly;
    }
    let theirs_n = diff_size(&unnumbered(&t.base), &unnumbered(&t.right));
    let ours_n = diff_size(&unnumbered(&t.left), &unnumbered(result));
    if ours_n.0 <= theirs_n.0.max(theirs.0) && ours_n.1 <= theirs_n.1.max(theirs.1) {
        Faithful::UpToNumbering
    } else {
        Faithful::No(ours, theirs)
    }
}
