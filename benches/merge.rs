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
//! BENCHMARKS.md); `IRGIT_BENCH_MERGE_ONLY=speed` runs only the time and
//! memory of merges of large modules, `=paths` only issue 15's triple.
//! Acceptance (design): zero wrong clean merges, >= 95% of disjoint-edit
//! triples clean; on large modules (issue 29) merge time and peak memory
//! within 2.5x of one `opt -S`.

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
    match std::env::var("IRGIT_BENCH_MERGE_ONLY").as_deref() {
        Ok("paths") => return header_and_path_times(),
        Ok("speed") => return big_stress_times(),
        _ => {}
    }
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
    let o2_line = o2_clean_and_faithful();
    let ours_text = ours_text_section(&rows, &o2_line, triples.len());
    println!("{ours_text}");
    common::write_bench_section("merge-ours-text", &ours_text);
    big_stress_times();
    header_and_path_times();
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

/// The C `#ifdef` triples at -O2: how many merge clean, and how many of
/// those are in ours' text (a sentence for BENCHMARKS.md).
fn o2_clean_and_faithful() -> String {
    let o2 = c_source_triples_at("2");
    let (mut clean, mut faithful) = (0, 0);
    for t in &o2 {
        let run = merge_triple(t);
        if run.outcome(7) == merge_support::Outcome::Clean {
            clean += 1;
            faithful += !matches!(faithfulness(t, &run.output), Faithful::No(..)) as usize;
        }
    }
    format!(
        "The C `#ifdef` triples at -O2: {clean}/{} clean, {faithful} of them in ours' text \
         (exactness is not judged there: clang -O2 of both edits is not the union of the edits, \
         it infers attributes such as `range(...)` across functions).",
        o2.len()
    )
}

/// The ours'-text table of BENCHMARKS.md: per class, clean merges, those
/// in ours' text, and where git merge-file is clean and right, whether
/// irgit wrote git's bytes.
fn ours_text_section(rows: &BTreeMap<Relation, Row>, o2_line: &str, n: usize) -> String {
    let mut md = format!(
        "### Ours' text\n\nMeasured by `cargo bench --bench merge` on the {n} \
         triples above; load average at the end: {}.\n\n\
         | class | irgit clean & exact | in ours' text | up to renumbering | git clean & right | \
         irgit = git's bytes |\n|---|---:|---:|---:|---:|---:|\n",
        common::speed::load_average()
    );
    let (mut clean, mut faithful, mut git_right, mut git_equal) = (0, 0, 0, 0);
    for (rel, r) in rows.iter().filter(|(_, r)| r.exact > 0) {
        md.push_str(&format!(
            "| {rel:?} | {} | **{}** | {} | {} | **{}** |\n",
            r.exact, r.faithful, r.faithful_renumbered, r.git_right, r.git_equal
        ));
        clean += r.exact;
        faithful += r.faithful;
        git_right += r.git_right;
        git_equal += r.git_equal;
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    md.push_str(&format!(
        "\n*In ours' text*: `diff ours result` is no bigger than `diff base theirs` (theirs' change \
         and nothing else of ours rewritten). Ours' text rate: **{faithful}/{clean} clean merges \
         ({:.1}%)**. Wherever `git merge-file` is clean and right, irgit writes git's bytes: \
         **{git_equal}/{git_right} ({:.1}%)**. {o2_line}\n",
        pct(faithful, clean),
        pct(git_equal, git_right)
    ));
    md
}

/// What theirs does in a [`speed_row`] triple, two thirds through (ours
/// changes a constant a third through).
#[derive(Clone, Copy)]
enum Kind {
    /// Changes another constant.
    Constant,
    /// Inserts an instruction.
    Insert,
    /// Renames the nearest named value through its function.
    Rename,
    /// Adds a global after the header.
    Header,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Constant, Kind::Insert, Kind::Rename, Kind::Header];

    fn label(self) -> &'static str {
        match self {
            Kind::Constant => "a constant",
            Kind::Insert => "an instruction inserted",
            Kind::Rename => "a value renamed",
            Kind::Header => "a global added",
        }
    }
}

/// `base`, ours (a constant changed a third through) and theirs (`kind`,
/// two thirds through).
fn edit_triple(base: String, kind: Kind) -> (String, String, String) {
    let (lines, edit_at) = edit_sites(&base);
    let owned = || -> Vec<String> { lines.iter().map(|l| l.to_string()).collect() };
    let constant = |i: usize| {
        let mut v = owned();
        let (head, c) = v[i].rsplit_once(", ").unwrap();
        let c: i64 = c.parse().unwrap();
        v[i] = format!("{head}, {}", c.wrapping_add(17));
        v
    };
    let n = edit_at.len();
    let (a, b) = (edit_at[n / 3], edit_at[2 * n / 3]);
    let theirs = match kind {
        Kind::Constant => constant(b),
        Kind::Insert => {
            let mut v = owned();
            v.insert(b + 1, "  %irgit.new = add i32 7, 9".into());
            v
        }
        Kind::Rename => renamed_near(&lines, b),
        Kind::Header => {
            let mut v = owned();
            let last_header = (0..lines.len().min(50))
                .filter(|&i| {
                    lines[i].starts_with("target ") || lines[i].starts_with("source_filename")
                })
                .max()
                .expect("a header line");
            v.insert(last_header + 1, "@irgit.added = global i32 7".into());
            v
        }
    };
    let text = |v: Vec<String>| v.join("\n") + "\n";
    (base.clone(), text(constant(a)), text(theirs))
}

/// `lines` with the first value at or after line `at` that has a name
/// (not a number; or, where every value is numbered, the first value)
/// renamed, with all its uses in its function.
fn renamed_near(lines: &[&str], at: usize) -> Vec<String> {
    let is_name_byte = |c: char| c.is_ascii_alphanumeric() || "$._-".contains(c);
    let def = |i: usize| -> Option<&str> {
        let name = lines[i]
            .trim_start()
            .strip_prefix('%')?
            .split_once(" = ")?
            .0;
        name.chars().all(is_name_byte).then_some(name)
    };
    let numbered = |name: &str| name.bytes().all(|b| b.is_ascii_digit());
    let (def_at, name) = (at..lines.len())
        .find_map(|i| def(i).filter(|n| !numbered(n)).map(|n| (i, n)))
        .or_else(|| (at..lines.len()).find_map(|i| def(i).map(|n| (i, n))))
        .expect("a value");
    let (name, new_name) = (format!("%{name}"), format!("%irgit.renamed.{name}"));
    let start = (0..def_at)
        .rev()
        .find(|&i| lines[i].starts_with("define"))
        .unwrap();
    let end = (def_at..lines.len()).find(|&i| lines[i] == "}").unwrap();
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            if !(start..end).contains(&i) {
                return line.to_string();
            }
            let mut out = String::new();
            let mut rest = *line;
            while let Some(pos) = rest.find(name.as_str()) {
                let after = rest[pos + name.len()..].chars().next();
                out.push_str(&rest[..pos]);
                out.push_str(if after.is_some_and(is_name_byte) {
                    &name
                } else {
                    &new_name
                });
                rest = &rest[pos + name.len()..];
            }
            out + rest
        })
        .collect()
}

/// Time and memory of irgit merge on large modules (one-function
/// llvm-stress modules, all of Lua at -O2), next to `opt -S` on the base
/// and `git merge-file` (issue 29 item 4): each a child process, best of 3,
/// written to BENCHMARKS.md's `merge-speed` section.
fn big_stress_times() {
    let mut bases: Vec<(String, String)> = [5000u32, 20000, 80000]
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
    let mut md = String::from(
        "| base | lines | theirs | irgit merge | `opt -S` | ratio | CPU ratio | peak RSS: merge / `opt -S` | \
         ratio | `git merge-file` | irgit = git's bytes |\n\
         |---|---:|---|---:|---:|---:|---:|---|---:|---:|---|\n",
    );
    for (name, base) in bases {
        for kind in Kind::ALL {
            eprintln!("  merge speed: {name}, {}", kind.label());
            md.push_str(&speed_row(&name, kind, base.clone()));
        }
    }
    md.push_str(&format!(
        "\nLoad average at the end: {}.\n",
        common::speed::load_average()
    ));
    println!("{md}");
    common::write_bench_section("merge-speed", &md);
}

/// One row of [`big_stress_times`]: the triple of [`edit_triple`] on `base`.
fn speed_row(name: &str, kind: Kind, base: String) -> String {
    use common::speed::{best_of, fmt_mem, fmt_ratio, fmt_time, measure};
    use std::process::Command;
    let (base, ours, theirs) = edit_triple(base, kind);
    let dir = tempfile::tempdir().unwrap();
    let file = |n: &str, text: &str| {
        let path = dir.path().join(n);
        std::fs::write(&path, text).unwrap();
        path
    };
    let paths = [
        file("base.ll", &base),
        file("ours.ll", &ours),
        file("theirs.ll", &theirs),
    ];
    let (out, sink) = (dir.path().join("merged.ll"), dir.path().join("stdout"));
    let limit = Duration::from_secs(600);
    let merge = best_of(3, || {
        let mut cmd = Command::new(merge_support::irgit_bin());
        cmd.arg("merge").args(&paths).arg("-o").arg(&out);
        measure(&mut cmd, &sink, limit)
    });
    let merged = std::fs::read_to_string(&out).unwrap_or_default();
    let opt = best_of(3, || {
        let mut cmd = Command::new("/usr/lib/llvm-22/bin/opt");
        measure(cmd.arg("-S").arg(&paths[0]).args(["-o", "-"]), &sink, limit)
    });
    let (_, git_text, _) = git_merge_file(&base, &ours, &theirs);
    let git = (0..3)
        .map(|_| git_merge_file(&base, &ours, &theirs).2)
        .min()
        .unwrap();
    let secs = |d: Duration| d.as_secs_f64();
    format!(
        "| {name} | {} | {} | {} | {} | **{}** | {} | {} / {} | **{}** | {:.0} ms | {} |\n",
        base.lines().count(),
        kind.label(),
        fmt_time(&merge, merge.wall),
        fmt_time(&opt, opt.wall),
        fmt_ratio(secs(merge.wall), secs(opt.wall)),
        fmt_ratio(secs(merge.cpu), secs(opt.cpu)),
        fmt_mem(&merge),
        fmt_mem(&opt),
        fmt_ratio(merge.rss_kb as f64, opt.rss_kb as f64),
        secs(git) * 1000.0,
        if git_text == merged { "yes" } else { "no" }
    )
}

/// Issue 15 items 4 and 5 on the issue's triple (`llvm-stress -size=20000
/// -seed=3 | opt -S`; ours changes one constant a third through, theirs
/// inserts one instruction): the same edits with one `; ModuleID` on all
/// three sides or three different ones (item 4), and theirs' instruction two
/// thirds through (git merge-file is clean: the ordinary path) or right
/// after ours' changed line (git conflicts: the result is written in ours'
/// text) (item 5). Wall time of the `irgit merge` process, best of 5 rounds;
/// written to BENCHMARKS.md.
/// Rounds of [`header_and_path_times`].
const ROUNDS: usize = 5;

fn header_and_path_times() {
    let stress = merge_support::llvm_stress(3, 20000);
    let base = common::opt_text(&[], &stress).expect("opt -S of llvm-stress output");
    let (lines, at) = edit_sites(&base);
    let (a, b) = (at[at.len() / 3], at[2 * at.len() / 3]);
    let with = |edits: &[(usize, Edit)]| {
        let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for &(i, e) in edits.iter().rev() {
            match e {
                Edit::Constant => {
                    let (head, c) = v[i].rsplit_once(", ").unwrap();
                    v[i] = format!("{head}, {}", c.parse::<i64>().unwrap().wrapping_add(17));
                }
                Edit::Insert => v.insert(i + 1, "  %irgit.new = add i32 7, 9".into()),
            }
        }
        v.join("\n") + "\n"
    };
    let id = |dir: &str, text: &str| {
        let (_, rest) = text.split_once('\n').unwrap();
        format!("; ModuleID = '/build/{dir}/stress.ll'\n{rest}")
    };
    let ours = with(&[(a, Edit::Constant)]);
    let apart = with(&[(b, Edit::Insert)]);
    let adjacent = with(&[(a, Edit::Insert)]);
    let cases = [
        ("one `; ModuleID` on all three sides, edits apart (git clean: the ordinary path)",
         base.clone(), ours.clone(), apart.clone()),
        ("three different `; ModuleID` lines, edits apart",
         id("a", &base), id("b", &ours), id("c", &apart)),
        ("one `; ModuleID`, theirs' instruction right after ours' changed line (git conflicts: ours'-text path)",
         base.clone(), ours.clone(), adjacent),
    ];
    let mut table = format!(
        "Measured by `cargo bench --bench merge` (`IRGIT_BENCH_MERGE_ONLY=paths` runs only this), \
         {}. The issue's triple: `llvm-stress -size=20000 -seed=3 | opt -S` ({} lines); ours \
         changes one constant a third through, theirs inserts one instruction. Wall time of the \
         `irgit merge` process, best of {ROUNDS} rounds over the three; load average before the \
         run: {}.\n\n\
         | triple | irgit merge | exit | written as |\n|---|---:|---:|---|\n",
        std::env::consts::ARCH,
        lines.len(),
        common::speed::load_average()
    );
    let triples: Vec<Triple> = cases
        .iter()
        .map(|(name, b, o, t)| Triple {
            name: name.to_string(),
            base: b.clone(),
            left: o.clone(),
            right: t.clone(),
            expected: None,
            relation: Relation::Disjoint,
        })
        .collect();
    // Rounds over the three triples in turn, so that a neighbour's load
    // falls on all three alike; the best of the rounds.
    let mut times = vec![f64::MAX; triples.len()];
    for _ in 0..ROUNDS {
        for (i, t) in triples.iter().enumerate() {
            times[i] = times[i].min(merge_triple(t).elapsed.as_secs_f64());
        }
    }
    for (t, time) in triples.iter().zip(&times) {
        let run = merge_triple(t);
        let (_, git_text, _) = git_merge_file(&t.base, &t.left, &t.right);
        let written = if git_text == run.output {
            "git's bytes".to_string()
        } else {
            let (rem, add) = common::diff_size(&t.left, &run.output);
            format!("ours' text (`diff ours result`: -{rem} +{add})")
        };
        let exit = run.code.map_or("signal".into(), |c| c.to_string());
        table.push_str(&format!(
            "| {} | {time:.2} s | {exit} | {written} |\n",
            t.name
        ));
    }
    table.push_str(&format!(
        "\nItem 4: three ModuleIDs / one = **{:.2}×**. Item 5: ours'-text path / ordinary path = \
         **{:.2}×** (target ≤ 2×).\n",
        times[1] / times[0],
        times[2] / times[0]
    ));
    println!("{table}");
    common::write_bench_section("merge-paths", &table);
}

#[derive(Clone, Copy)]
enum Edit {
    Constant,
    Insert,
}

/// The lines of `text` and the indices of binary operations with an
/// integer constant last.
fn edit_sites(text: &str) -> (Vec<&str>, Vec<usize>) {
    let lines: Vec<&str> = text.lines().collect();
    let at = (0..lines.len())
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
    (lines, at)
}
