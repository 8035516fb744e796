//! Merge triples generated from real IR (see `merge_support::triples`):
//! every clean merge must equal the expected module after canonicalization,
//! edits to the same instruction must conflict, and disjoint edits must
//! merge clean.
//!
//! ```text
//! O  = clang -O0 prog.c             A  = clang -O0 -DEDIT_A prog.c
//! B  = clang -O0 -DEDIT_B prog.c    AB = clang -O0 -DEDIT_A -DEDIT_B prog.c
//! irgit merge O A B  ==canon==  AB
//! ```

mod merge_support;

use merge_support::triples::{
    c_overlap_triples, c_source_triples, corpus_modules, judge, merge_triple, mutation_triples,
    Relation, Triple, Verdict,
};

fn report(triples: &[Triple], accept: impl Fn(&Verdict) -> bool) {
    let mut bad = Vec::new();
    for t in triples {
        let r = merge_triple(t);
        let v = judge(t, &r, 7);
        if !accept(&v) {
            bad.push(format!(
                "{}: {v:?} (exit {:?}, stderr: {})",
                t.name,
                r.code,
                r.stderr.trim().lines().next().unwrap_or("")
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} triples fail:\n{}",
        bad.len(),
        triples.len(),
        bad.join("\n")
    );
}

#[test]
fn c_source_edits_merge_to_the_program_with_both_edits() {
    let triples = c_source_triples();
    assert!(triples.len() >= 7, "found only {} C triples", triples.len());
    report(&triples, |v| *v == Verdict::Exact);
}

#[test]
fn c_source_edits_of_one_statement_conflict() {
    let triples = c_overlap_triples();
    assert!(
        triples.len() >= 3,
        "found only {} overlap programs",
        triples.len()
    );
    report(&triples, |v| *v == Verdict::Conflict);
}

/// 10 corpus modules (5 C files at -O0 and -O2) and 2 llvm-stress modules,
/// 5 seeds each.
fn mutation_set() -> Vec<Triple> {
    let modules = corpus_modules(5, 2);
    mutation_triples(&modules, &[1, 2, 3, 4, 5])
}

#[test]
fn mutation_triples_merge_exactly_or_conflict() {
    let triples = mutation_set();
    let count = |r| triples.iter().filter(|t| t.relation == r).count();
    assert!(count(Relation::Disjoint) >= 30, "too few disjoint triples");
    assert!(
        count(Relation::Overlapping) >= 30,
        "too few overlapping triples"
    );
    let mut bad = Vec::new();
    let (mut disjoint, mut disjoint_clean) = (0, 0);
    for t in &triples {
        let r = merge_triple(t);
        let v = judge(t, &r, 7);
        let ok = match (t.relation, &v) {
            (_, Verdict::Wrong(_) | Verdict::Broken(_)) => false,
            (Relation::Overlapping, v) => *v == Verdict::Conflict,
            (Relation::Near, _) => true,
            (Relation::Disjoint, v) => {
                disjoint += 1;
                disjoint_clean += (*v == Verdict::Exact) as usize;
                true
            }
        };
        if !ok {
            bad.push(format!("{} ({:?}): {v:?}", t.name, t.relation));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} mutation triples are wrong merges or not conflicts:\n{}",
        bad.len(),
        triples.len(),
        bad.join("\n")
    );
    // Acceptance: at least 95% of disjoint-edit triples merge clean.
    assert!(
        disjoint_clean * 100 >= disjoint * 95,
        "only {disjoint_clean} of {disjoint} disjoint-edit triples merged clean"
    );
}
