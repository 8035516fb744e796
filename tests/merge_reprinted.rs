//! Ours reprinted everything (issue 15 item 6): a new compiler run renamed
//! every value, argument and block and reordered blocks and functions, on
//! top of ours' edit; theirs made a small edit. The merge places theirs'
//! change in ours' layout, under ours' names. Mutation triples (corpus at
//! -O0 and -O2, llvm-stress) with ours perturbed: every clean merge must
//! be the module with both edits, and the clean merges are counted that
//! are in ours' text (`diff ours result` no bigger than `diff base theirs`,
//! up to renumbering).
//!
//! ```text
//! base:   %add = add i32 %x, 1      theirs: %add = add i32 %x, 7
//! ours:   %v17 = add i32 %a0, 1     (renamed, blocks and functions reordered, one edit)
//! result: ours' text with `%v17 = add i32 %a0, 7`
//! ```

mod common;
mod merge_support;

use irgit_testkit::perturb::Kind;
use merge_support::triples::{
    corpus_modules, faithfulness, mutation_triples, Faithful, Relation, Triple,
};

/// Ours as a new compiler run would print it.
fn reprinted(text: &str, seed: u64) -> Option<String> {
    let s = irgit::ir::Session::new();
    let m = s.parse(text.as_bytes(), "ours.ll").ok()?;
    for kind in [
        Kind::RenameLocals,
        Kind::RenameArgs,
        Kind::RenameBlocks,
        Kind::ShuffleBlocks,
        Kind::ShuffleFunctions,
    ] {
        irgit_testkit::perturb::apply(&m, kind, seed).ok()?;
    }
    Some(m.print())
}

fn triples() -> Vec<Triple> {
    mutation_triples(&corpus_modules(6, 2), &[1, 2, 3, 4, 5])
        .into_iter()
        .filter(|t| t.relation == Relation::Disjoint && t.expected.is_some())
        .filter_map(|mut t| {
            t.left = reprinted(&t.left, 7)?;
            t.name = format!("reprinted ours: {}", t.name);
            Some(t)
        })
        .collect()
}

#[test]
fn theirs_change_lands_in_ours_reprinted_text() {
    let all = triples();
    let (mut clean, mut in_ours_text, mut conflicts) = (0, 0, 0);
    let mut wrong = Vec::new();
    let mut not_ours = Vec::new();
    for t in &all {
        let (r, text) = common::merge_in_process(&t.base, &t.left, &t.right);
        if r.conflicts > 0 {
            conflicts += 1;
            continue;
        }
        let expected = common::canon(t.expected.as_ref().unwrap(), "m.ll").unwrap();
        if common::canon(&text, "m.ll").as_ref() != Ok(&expected) {
            wrong.push(t.name.clone());
            continue;
        }
        clean += 1;
        match faithfulness(t, &text) {
            Faithful::Exactly | Faithful::UpToNumbering => in_ours_text += 1,
            Faithful::No(o, b) => not_ours.push({
                let files = [
                    ("base.ll", &*t.base),
                    ("ours.ll", &t.left),
                    ("theirs.ll", &t.right),
                ];
                common::keep_files(
                    "IRGIT_REPRINTED_KEEP",
                    &format!("case{}", not_ours.len()),
                    &files,
                );
                format!("{}: diff ours result {o:?}, diff base theirs {b:?}", t.name)
            }),
        }
    }
    eprintln!(
        "{} reprinted triples: {clean} clean and exact, {in_ours_text} of them in ours' text, \
         {conflicts} conflicts, {} wrong\n{}",
        all.len(),
        wrong.len(),
        not_ours.join("\n")
    );
    assert!(all.len() >= 30, "only {} triples", all.len());
    assert!(
        wrong.is_empty(),
        "wrong clean merges:\n{}",
        wrong.join("\n")
    );
    assert!(
        clean * 100 >= all.len() * 90,
        "only {clean} of {} clean",
        all.len()
    );
    assert!(
        in_ours_text * 100 >= clean * 95,
        "only {in_ours_text} of {clean} clean merges in ours' text"
    );
}
