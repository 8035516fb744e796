//! Taking either side of every conflict gives IR that LLVM parses: a
//! conflict never cuts a function so that a value one side's section
//! defines is used outside it, or a block one section has is branched to
//! from outside.
//!
//! ```text
//! <<<<<<< ours          resolved to ours:   the ours lines, no markers
//!   %y = add i32 %x, 1  resolved to theirs: the theirs lines, no markers
//! ||||||| base          each parsed by LLVM
//!   ...
//! =======
//!   %y = add i32 %x, 2
//! >>>>>>> theirs
//! ```
//!
//! Triples: the C overlaps (`tests/merge/c_overlaps`) at -O0 and -O2, the
//! overlapping mutation triples of the corpus (-O0, -O2, llvm-stress), the
//! conflict cases of `tests/merge/working`, and one -O2 cherry-pick through
//! real git.

mod merge_support;

use std::path::Path;

use merge_support::triples::{
    c_overlap_triples, corpus_modules, merge_triple, mutation_triples, Relation, Triple,
};
use merge_support::{compile_c, has_conflict_markers, Repo};

/// Which side a resolution keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Take {
    Ours,
    Theirs,
}

/// `text` with every conflict replaced by one side's section (markers of
/// length 7, diff3 or merge style).
fn resolved(text: &str, take: Take) -> String {
    #[derive(PartialEq)]
    enum In {
        Text,
        Ours,
        Base,
        Theirs,
    }
    let mut at = In::Text;
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let marker = |c: &str| line.starts_with(c) && !line.starts_with(&format!("{c}{}", &c[..1]));
        at = match at {
            In::Text if marker("<<<<<<<") => In::Ours,
            In::Ours if marker("|||||||") => In::Base,
            In::Ours | In::Base if marker("=======") => In::Theirs,
            In::Theirs if marker(">>>>>>>") => In::Text,
            at => {
                let keep = match at {
                    In::Text => true,
                    In::Ours => take == Take::Ours,
                    In::Theirs => take == Take::Theirs,
                    In::Base => false,
                };
                if keep {
                    out.push_str(line);
                }
                at
            }
        };
    }
    out
}

/// Why `text` resolved to `take` is not valid IR, if it is not (checked
/// without LLVM's debug-info upgrade, which would end the test process).
fn resolution_fails(text: &str, take: Take, name: &str) -> Option<String> {
    let r = resolved(text, take);
    if irgit::ir::text_parses_and_verifies(&r) {
        return None;
    }
    Some(format!(
        "{name}: taking {take:?}: LLVM does not parse and verify it:\n{r}"
    ))
}

/// Merges each triple; every conflicting result must parse when resolved
/// to either side. Returns the number of conflicting results checked.
fn check_triples(triples: &[Triple]) -> usize {
    let mut failures = Vec::new();
    let mut conflicts = 0;
    for t in triples {
        let run = merge_triple(t);
        if run.code != Some(1) || !has_conflict_markers(&run.output, 7) {
            continue;
        }
        conflicts += 1;
        for take in [Take::Ours, Take::Theirs] {
            failures.extend(resolution_fails(&run.output, take, &t.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} resolution(s) of {conflicts} conflicting merges do not parse:\n{}",
        failures.len(),
        failures.join("\n")
    );
    conflicts
}

/// The C overlap programs compiled at -O2.
fn c_overlap_triples_o2() -> Vec<Triple> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge/c_overlaps");
    let mut sources: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    sources
        .iter()
        .map(|src| Triple {
            name: format!(
                "c-overlap-O2:{}",
                src.file_stem().unwrap().to_string_lossy()
            ),
            base: compile_c(src, "2", &[]),
            left: compile_c(src, "2", &["EDIT_A"]),
            right: compile_c(src, "2", &["EDIT_B"]),
            expected: None,
            relation: Relation::Overlapping,
        })
        .collect()
}

#[test]
fn either_side_of_every_conflict_parses_c_overlaps() {
    let mut triples = c_overlap_triples();
    triples.extend(c_overlap_triples_o2());
    let n = check_triples(&triples);
    assert!(n >= 4, "only {n} conflicting merges");
}

#[test]
fn either_side_of_every_conflict_parses_mutation_triples() {
    let modules = corpus_modules(5, 2);
    let triples: Vec<Triple> = mutation_triples(&modules, &[1, 2, 3])
        .into_iter()
        .filter(|t| t.relation != Relation::Disjoint)
        .collect();
    let n = check_triples(&triples);
    assert!(n >= 20, "only {n} conflicting merges");
}

#[test]
fn either_side_of_every_conflict_parses_working_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge/working");
    let mut triples = Vec::new();
    for case in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
        let read = |f: &str| std::fs::read_to_string(case.join(f)).ok();
        if let (Some(base), Some(left), Some(right)) =
            (read("Base.ll"), read("Left.ll"), read("Right.ll"))
        {
            triples.push(Triple {
                name: case.file_name().unwrap().to_string_lossy().into_owned(),
                base,
                left,
                right,
                expected: None,
                relation: Relation::Overlapping,
            });
        }
    }
    let n = check_triples(&triples);
    assert!(n >= 3, "only {n} conflicting merges");
}

/// An -O2 cherry-pick through git with the driver: the conflict left in the
/// work tree resolves to parseable IR either way.
#[test]
fn an_o2_cherry_pick_conflict_resolves_either_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge/c_overlaps");
    let repo = Repo::new();
    repo.install_driver();
    repo.ok(&["add", ".gitattributes"]);
    repo.ok(&["commit", "-q", "-m", "attributes"]);
    let mut picked = 0;
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "c") {
            continue;
        }
        let file = format!("{}.ll", path.file_stem().unwrap().to_string_lossy());
        repo.ok(&["checkout", "-q", "main"]);
        repo.commit_file(&file, &compile_c(&path, "2", &[]), "base");
        repo.ok(&["checkout", "-q", "-b", &format!("b-{file}")]);
        repo.commit_file(&file, &compile_c(&path, "2", &["EDIT_B"]), "B");
        let pick = repo.ok(&["rev-parse", "HEAD"]);
        repo.ok(&["checkout", "-q", "-b", &format!("a-{file}"), "main"]);
        repo.commit_file(&file, &compile_c(&path, "2", &["EDIT_A"]), "A");
        let out = repo.git(&["cherry-pick", pick.trim()]);
        if out.status.code() == Some(0) {
            continue;
        }
        let text = repo.read(&file);
        assert!(
            has_conflict_markers(&text, 7),
            "{file}: no markers:\n{text}"
        );
        for take in [Take::Ours, Take::Theirs] {
            if let Some(why) = resolution_fails(&text, take, &file) {
                panic!("{why}\n{text}");
            }
        }
        picked += 1;
        repo.ok(&["cherry-pick", "--abort"]);
    }
    assert!(picked >= 2, "only {picked} conflicting cherry-picks");
}
