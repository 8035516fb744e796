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

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/merge_support/mod.rs"]
mod merge_support;

use std::collections::BTreeMap;
use std::time::Duration;

use merge_support::triples::{
    c_overlap_triples, c_source_triples, c_source_triples_at, corpus_modules, faithfulness, judge,
    judge_text, lit_triples, merge_triple, mutation_triples, Faithful, Relation, Triple, Verdict,
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
    /// Clean and exact merges whose `diff ours result` is theirs' change.
    faithful: usize,
    faithful_renumbered: usize,
    /// Clean and exact merges where git merge-file is clean and right too...
    git_right: usize,
    /// ...and irgit's bytes are git's.
    git_equal: usize,
    irgit_time: Duration,
    line_time: Duration,
    opt_time: Duration,
}

fn main() {
    let mut triples: Vec<Triple> = c_source_triples();
    triples.extend(c_overlap_triples());
    triples.extend(lit_triples());
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
        if v == Verdict::Exact {
            match faithfulness(t, &run.output) {
                Faithful::Exactly => row.faithful += 1,
                Faithful::UpToNumbering => row.faithful_renumbered += 1,
                Faithful::No(..) => {}
            }
            if lv == Verdict::Exact {
                row.git_right += 1;
                row.git_equal += (text == run.output) as usize;
            }
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
    println!();
    println!("| class | irgit clean & exact | in ours' text (faithful) | up to renumbering | git clean & right | irgit = git's bytes |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (rel, r) in &rows {
        println!(
            "| {rel:?} | {} | {} | {} | {} | {} |",
            r.exact, r.faithful, r.faithful_renumbered, r.git_right, r.git_equal
        );
    }
    let o2 = c_source_triples_at("2");
    let (mut o2_clean, mut o2_faithful) = (0, 0);
    for t in &o2 {
        let run = merge_triple(t);
        if run.outcome(7) == merge_support::Outcome::Clean {
            o2_clean += 1;
            o2_faithful += !matches!(faithfulness(t, &run.output), Faithful::No(..)) as usize;
        }
    }
    println!(
        "C #ifdef triples at -O2: {o2_clean}/{} clean, {o2_faithful} of them in ours' text \
         (clang's -O2 of both edits is not their union, so exactness is not judged)",
        o2.len()
    );
    big_stress_times();
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

/// `base` and two constant edits a third and two thirds through: (base,
/// ours, theirs).
fn edit_triple(base: String) -> (String, String, String) {
    let lines: Vec<&str> = base.lines().collect();
    let edit_at: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let l = lines[i];
            [
                " = add ", " = sub ", " = mul ", " = xor ", " = or ", " = and ",
            ]
            .iter()
            .any(|op| l.contains(op))
                && l.rsplit(", ")
                    .next()
                    .is_some_and(|c| c.parse::<i64>().is_ok())
        })
        .collect();
    let edit = |i: usize| {
        let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let (head, c) = v[i].rsplit_once(", ").unwrap();
        let c: i64 = c.parse().unwrap();
        v[i] = format!("{head}, {}", c.wrapping_add(17));
        v.join("\n") + "\n"
    };
    let n = edit_at.len();
    (base.clone(), edit(edit_at[n / 3]), edit(edit_at[2 * n / 3]))
}

/// Wall time of irgit merge on large modules (one-function llvm-stress
/// modules, all of Lua at -O2), next to `opt -S` and `git merge-file` (best
/// of 3).
fn big_stress_times() {
    println!();
    println!("| base | lines | irgit merge | `opt -S` | ratio | `git merge-file` | irgit = git's bytes |");
    println!("|---|---:|---:|---:|---:|---:|---|");
    let mut bases: Vec<(String, String)> = [5000u32, 20000]
        .iter()
        .map(|&size| {
            (
                format!("stress -size={size}"),
                merge_support::llvm_stress(1, size),
            )
        })
        .collect();
    let lua = common::lua::lua_module(&common::cache_dir());
    bases.push((
        "Lua 5.4, all files, -O2".into(),
        std::fs::read_to_string(lua).expect("read the Lua module"),
    ));
    for (name, base) in bases {
        let (base, ours, theirs) = edit_triple(base);
        let t = Triple {
            name: name.clone(),
            base: base.clone(),
            left: ours.clone(),
            right: theirs.clone(),
            expected: None,
            relation: Relation::Disjoint,
        };
        let best = |f: &dyn Fn() -> Duration| (0..3).map(|_| f()).min().unwrap();
        let mut out = String::new();
        let merge = best(&|| merge_triple(&t).elapsed);
        let run = merge_triple(&t);
        out.push_str(&run.output);
        let opt = best(&|| time_opt_s(&base));
        let (_, git_text, _) = git_merge_file(&base, &ours, &theirs);
        let git = best(&|| git_merge_file(&base, &ours, &theirs).2);
        println!(
            "| {name} | {} | {:.0} ms | {:.0} ms | {:.1}x | {:.0} ms | {} |",
            base.lines().count(),
            merge.as_secs_f64() * 1000.0,
            opt.as_secs_f64() * 1000.0,
            merge.as_secs_f64() / opt.as_secs_f64(),
            git.as_secs_f64() * 1000.0,
            if git_text == out { "yes" } else { "no" }
        );
    }
}
