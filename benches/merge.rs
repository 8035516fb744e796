//! Merge benchmark: `irgit merge` and `git merge-file` side by side on the
//! generated triples (C-source edits, overlapping C edits, mutation triples
//! from the corpus and llvm-stress), plus one `opt -S` on each base module.
//!
//! ```text
//! class        n   irgit clean  exact  wrong  conflict   merge-file clean  exact  wrong
//! disjoint    62        61        61      0       1              20         14      6
//! ```
//!
//! Run: `cargo bench --bench merge` (harness = false; prints a table for
//! BENCHMARKS.md). Acceptance (design): zero wrong clean merges, >= 95% of
//! disjoint-edit triples clean, merge time within 4x of one `opt -S`.

#[path = "../tests/merge_support/mod.rs"]
mod merge_support;

use std::collections::BTreeMap;
use std::time::Duration;

use merge_support::triples::{
    c_overlap_triples, c_source_triples, corpus_modules, judge, judge_text, merge_triple,
    mutation_triples, Relation, Triple, Verdict,
};
use merge_support::{git_merge_file, time_opt_s};

#[derive(Default)]
struct Row {
    n: usize,
    exact: usize,
    wrong: usize,
    conflict: usize,
    broken: usize,
    line_exact: usize,
    line_wrong: usize,
    line_conflict: usize,
    irgit_time: Duration,
    line_time: Duration,
    opt_time: Duration,
}

fn main() {
    let mut triples: Vec<Triple> = c_source_triples();
    triples.extend(c_overlap_triples());
    let modules = corpus_modules(12, 4);
    triples.extend(mutation_triples(&modules, &[1, 2, 3, 4, 5]));

    let mut rows: BTreeMap<Relation, Row> = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut ratios = Vec::new();
    for t in &triples {
        let run = merge_triple(t);
        let v = judge(t, &run, 7);
        let (clean, text, line_time) = git_merge_file(&t.base, &t.left, &t.right);
        let lv = judge_text(t, clean, &text);
        let opt = time_opt_s(&t.base);
        ratios.push(run.elapsed.as_secs_f64() / opt.as_secs_f64());
        let row = rows.entry(t.relation).or_default();
        row.n += 1;
        match &v {
            Verdict::Exact => row.exact += 1,
            Verdict::Wrong(why) => {
                row.wrong += 1;
                wrong.push(format!("{}: {why}", t.name));
            }
            Verdict::Conflict => row.conflict += 1,
            Verdict::Broken(why) => {
                row.broken += 1;
                wrong.push(format!("{}: broken: {why}", t.name));
            }
        }
        match lv {
            Verdict::Exact => row.line_exact += 1,
            Verdict::Wrong(_) => row.line_wrong += 1,
            _ => row.line_conflict += 1,
        }
        row.irgit_time += run.elapsed;
        row.line_time += line_time;
        row.opt_time += opt;
    }

    println!(
        "merge benchmark: {} triples from {} modules + C sources",
        triples.len(),
        modules.len()
    );
    println!(
        "{:<12} {:>4} | {:>6} {:>6} {:>6} {:>8} {:>6} | {:>10} {:>6} {:>6} | {:>9} {:>9} {:>9}",
        "class",
        "n",
        "clean",
        "exact",
        "wrong",
        "conflict",
        "broken",
        "mf clean",
        "exact",
        "wrong",
        "irgit ms",
        "mf ms",
        "opt -S ms"
    );
    for (rel, r) in &rows {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0 / r.n as f64;
        println!(
            "{:<12} {:>4} | {:>6} {:>6} {:>6} {:>8} {:>6} | {:>10} {:>6} {:>6} | {:>9.1} {:>9.1} {:>9.1}",
            format!("{rel:?}"),
            r.n,
            r.exact + r.wrong,
            r.exact,
            r.wrong,
            r.conflict,
            r.broken,
            r.line_exact + r.line_wrong,
            r.line_exact,
            r.line_wrong,
            ms(r.irgit_time),
            ms(r.line_time),
            ms(r.opt_time)
        );
    }
    ratios.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = ratios[ratios.len() / 2];
    let max = ratios.last().copied().unwrap_or(0.0);
    println!("irgit merge time / opt -S time: median {median:.2}x, max {max:.2}x");
    if let Some(d) = rows.get(&Relation::Disjoint) {
        println!(
            "disjoint clean rate: irgit {:.1}% ({}/{}), git merge-file {:.1}% ({}/{} clean, {} of them exact)",
            100.0 * d.exact as f64 / d.n as f64,
            d.exact,
            d.n,
            100.0 * (d.line_exact + d.line_wrong) as f64 / d.n as f64,
            d.line_exact + d.line_wrong,
            d.n,
            d.line_exact
        );
    }
    println!("wrong or broken irgit merges: {}", wrong.len());
    for w in wrong.iter().take(20) {
        println!("  {w}");
    }
}
