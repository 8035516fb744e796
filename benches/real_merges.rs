//! Real-edit merges (issue 18 item 4): two people each edit one function of
//! the same C file (`common::c_edits`, two different functions), and both
//! regenerate the IR with clang-22 at -O0, -O0 -g, -O2 and -O2 -g. `irgit
//! merge` and `git merge-file` get (base, ours, theirs); the expected result
//! is clang's output for the source with both edits.
//!
//! ```text
//! base.c ──e1 (in f)──► ours.c      clang ─► base.ll, ours.ll, theirs.ll
//!        ──e2 (in g)──► theirs.c    clang ─► expected.ll (e1 + e2)
//! irgit merge base.ll ours.ll theirs.ll  =?  expected.ll
//! ```
//!
//! Judged on canonical forms: "exact code" compares them after
//! `opt -strip-debug` of both sides; "exact debug info" compares them whole,
//! with the `DIFile` checksums left out (no merge can know the merged
//! source's checksum). "wrong": a clean merge whose code is not
//! the expected code; at -O2 clang's output for both edits need not be the
//! union of the two (inlining and interprocedural passes see both), so
//! there it is not necessarily a merge error.
//!
//! ```text
//! cargo bench --bench real_merges          # prints the table, rewrites BENCHMARKS.md's section
//! IRGIT_BENCH_NO_WRITE=1 cargo bench --bench real_merges
//! IRGIT_REAL_MERGES_KEEP=/tmp/rm cargo bench --bench real_merges   # keep each triple and merge there
//! IRGIT_REAL_MERGES_LAYOUT=sandboxed cargo bench --bench real_merges # compiled in a build layout
//!                                  (in-tree, out-of-tree, sandboxed, prefix-mapped; prints, writes nothing)
//! ```

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/merge_support/mod.rs"]
mod merge_support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

use common::c_edits::{
    apply_edits, candidates, compile_c_in_layout, compile_c_text, real_edit_sources, spread,
    BuildLayout, CEdit, CEditKind, Level,
};
use common::par_map;
use merge_support::triples::{merge_triple, Relation, Triple};
use merge_support::{git_merge_file, try_canon, Outcome};

/// Edit pairs taken from each file.
const PAIRS_PER_FILE: usize = 4;

/// Two edits of one file in two functions.
struct Pair {
    file: String,
    base: String,
    ours: CEdit,
    theirs: CEdit,
}

/// How one merge came out.
#[derive(Default, Clone, Copy)]
struct Judged {
    clean: bool,
    exact_code: bool,
    exact_debug: bool,
    broken: bool,
    /// Ours and theirs compiled to the same IR (the two edits have one
    /// effect at this level, so a merge takes it once).
    same_sides: bool,
}

#[derive(Default)]
struct Row {
    n: usize,
    same_sides: usize,
    irgit: [usize; 4],
    git: [usize; 4],
}

fn main() {
    let start = Instant::now();
    let pairs = pick_pairs();
    eprintln!("real merges: {} edit pairs", pairs.len());
    check_the_judge(&pairs[0]);
    let jobs: Vec<(usize, Level)> = (0..pairs.len())
        .flat_map(|i| Level::ALL.map(|l| (i, l)))
        .collect();
    let layout = chosen_layout();
    let results = par_map(&jobs, |&(i, level)| merge_at(&pairs[i], i, level, layout));
    let mut rows: BTreeMap<Level, Row> = BTreeMap::new();
    let mut wrong = Vec::new();
    for (&(i, level), r) in jobs.iter().zip(results) {
        let Some((irgit, git)) = r else { continue };
        let row = rows.entry(level).or_default();
        row.n += 1;
        row.same_sides += irgit.same_sides as usize;
        count(&mut row.irgit, irgit);
        count(&mut row.git, git);
        if (irgit.clean && !irgit.exact_code) || irgit.broken {
            let p = &pairs[i];
            wrong.push(format!(
                "{} {}: {} + {}{}{}",
                level.label(),
                p.file,
                p.ours.describe(),
                p.theirs.describe(),
                if irgit.broken { " (broken)" } else { "" },
                if irgit.same_sides {
                    " (ours and theirs are the same IR)"
                } else {
                    ""
                }
            ));
        }
    }
    let md = report(&pairs, &rows, start.elapsed().as_secs_f64());
    println!("{md}");
    for w in &wrong {
        println!("wrong (clean, other code): {w}");
    }
    if layout.is_none() {
        common::write_bench_section("real-merges-bench", &md);
    }
}

/// The build layout `IRGIT_REAL_MERGES_LAYOUT` names; none: debug paths
/// mapped to one directory, as the table in BENCHMARKS.md is.
fn chosen_layout() -> Option<BuildLayout> {
    let name = std::env::var("IRGIT_REAL_MERGES_LAYOUT").ok()?;
    let layout = BuildLayout::ALL
        .into_iter()
        .find(|l| l.label().replace(' ', "-") == name);
    assert!(
        layout.is_some(),
        "IRGIT_REAL_MERGES_LAYOUT={name}: no layout among in-tree, out-of-tree, sandboxed, prefix-mapped"
    );
    layout
}

/// Clean, exact code, exact debug info, broken.
fn count(c: &mut [usize; 4], j: Judged) {
    c[0] += j.clean as usize;
    c[1] += (j.clean && j.exact_code) as usize;
    c[2] += (j.clean && j.exact_debug) as usize;
    c[3] += j.broken as usize;
}

/// Up to [`PAIRS_PER_FILE`] pairs of edits in two different functions of
/// each file, each edit compiling at -O0 and changing its IR, and the two
/// together compiling.
fn pick_pairs() -> Vec<Pair> {
    let files: Vec<(String, String)> = real_edit_sources()
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).expect("read C source"),
            )
        })
        .collect();
    let level = Level::ALL[0];
    par_map(&files, |(file, base)| {
        let base_ir = compile_c_text(base, file, level, false).expect("corpus source compiles");
        let mut edits: Vec<CEdit> = Vec::new();
        for kind in CEditKind::ALL {
            let ok = spread(candidates(base, kind), 2)
                .into_iter()
                .take(8)
                .filter(|e| {
                    compile_c_text(&e.apply(base), file, level, false).is_ok_and(|ir| ir != base_ir)
                })
                .take(2);
            edits.extend(ok);
        }
        let mut pairs = Vec::new();
        for (k, a) in edits.iter().enumerate() {
            let other = edits[k + 1..]
                .iter()
                .chain(&edits[..k])
                .find(|b| b.func != a.func && b.kind != a.kind);
            let Some(b) = other else { continue };
            let both = apply_edits(base, &[a, b]);
            if compile_c_text(&both, file, level, false).is_ok() {
                pairs.push(Pair {
                    file: file.clone(),
                    base: base.clone(),
                    ours: a.clone(),
                    theirs: b.clone(),
                });
            }
            if pairs.len() == PAIRS_PER_FILE {
                break;
            }
        }
        pairs
    })
    .into_iter()
    .flatten()
    .collect()
}

/// irgit's and git's merge of one pair at one level (`None` when a version
/// does not compile there).
fn merge_at(
    p: &Pair,
    index: usize,
    level: Level,
    layout: Option<BuildLayout>,
) -> Option<(Judged, Judged)> {
    let place = format!("m{index}-{}", level.label().replace([' ', '-'], ""));
    let ir = |src: &str| match layout {
        Some(l) => compile_c_in_layout(src, &p.file, level, l, &place).ok(),
        None => compile_c_text(src, &p.file, level, false).ok(),
    };
    let t = Triple {
        name: format!("{} {}", p.file, level.label()),
        base: ir(&p.base)?,
        left: ir(&p.ours.apply(&p.base))?,
        right: ir(&p.theirs.apply(&p.base))?,
        expected: Some(ir(&apply_edits(&p.base, &[&p.ours, &p.theirs]))?),
        relation: Relation::Disjoint,
    };
    let expected = t.expected.as_deref().unwrap();
    let run = merge_triple(&t);
    common::keep_files(
        "IRGIT_REAL_MERGES_KEEP",
        &format!(
            "{}-L{}{:?}-L{}{:?}-{}",
            p.file.trim_end_matches(".c"),
            p.ours.start + 1,
            p.ours.kind,
            p.theirs.start + 1,
            p.theirs.kind,
            level.label().replace([' ', '-'], "")
        ),
        &[
            ("base.ll", &t.base),
            ("ours.ll", &t.left),
            ("theirs.ll", &t.right),
            ("expected.ll", expected),
            ("merged.ll", &run.output),
        ],
    );
    let irgit = match run.outcome(7) {
        Outcome::Clean => judge_clean(&run.output, expected),
        Outcome::Conflict => Judged::default(),
        Outcome::Broken(_) => Judged {
            broken: true,
            ..Judged::default()
        },
    };
    let irgit = Judged {
        same_sides: t.left == t.right,
        ..irgit
    };
    let (git_clean, git_text, _) = git_merge_file(&t.base, &t.left, &t.right);
    let git = if git_clean {
        judge_clean(&git_text, expected)
    } else {
        Judged::default()
    };
    Some((irgit, git))
}

/// A clean result against the expected module.
fn judge_clean(result: &str, expected: &str) -> Judged {
    let same = |a: Option<String>, b: Option<String>| a.is_some() && a == b;
    let code = same(
        strip_debug(result).and_then(|t| try_canon(&t, "merged").ok()),
        strip_debug(expected).and_then(|t| try_canon(&t, "expected").ok()),
    );
    let debug = expected.contains("!dbg")
        && same(
            try_canon(&without_checksums(result), "merged").ok(),
            try_canon(&without_checksums(expected), "expected").ok(),
        );
    Judged {
        clean: true,
        exact_code: code,
        exact_debug: debug,
        ..Judged::default()
    }
}

/// The judge can say yes and no: with debug info, the expected module is
/// exact against itself, and ours alone is not.
fn check_the_judge(p: &Pair) {
    let level = Level::ALL[1];
    let ir = |src: &str| compile_c_text(src, &p.file, level, false).expect("compiles");
    let both = ir(&apply_edits(&p.base, &[&p.ours, &p.theirs]));
    let itself = judge_clean(&both, &both);
    assert!(
        itself.exact_code && itself.exact_debug,
        "the judge rejects the expected module"
    );
    let ours = judge_clean(&ir(&p.ours.apply(&p.base)), &both);
    assert!(
        !ours.exact_code && !ours.exact_debug,
        "the judge accepts ours alone"
    );
}

/// `opt -strip-debug -S` of `text` (`None` when opt rejects it).
fn strip_debug(text: &str) -> Option<String> {
    common::opt_text(&["-strip-debug"], text).ok()
}

/// `text` without the `checksumkind:`/`checksum:` fields of its `DIFile`s.
fn without_checksums(text: &str) -> String {
    text.lines()
        .map(|l| match l.find(", checksumkind: ") {
            Some(p) if l.contains("!DIFile(") => {
                let end = l[p..].find(')').map_or(l.len(), |e| p + e);
                format!("{}{}", &l[..p], &l[end..])
            }
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

fn pct(k: usize, n: usize) -> String {
    format!("{k} ({:.0}%)", 100.0 * k as f64 / n.max(1) as f64)
}

fn report(pairs: &[Pair], rows: &BTreeMap<Level, Row>, secs: f64) -> String {
    let files: std::collections::BTreeSet<&str> = pairs.iter().map(|p| p.file.as_str()).collect();
    let mut md = String::from("## Real-edit merges (`cargo bench --bench real_merges`)\n\n");
    writeln!(
        md,
        "{} edit pairs from {} C files (`tests/corpus`, `tests/merge/c_triples`): ours edits one \
         function, theirs another (the edit kinds of the real-edit benchmark), both regenerated \
         with clang-22; expected = clang's output for the source with both edits. \"exact code\": \
         clean, and canonically equal to the expected module after `opt -strip-debug` of both; \
         \"exact debug info\": clean and canonically equal with debug info, `DIFile` checksums \
         left out; \"wrong\": clean with other code than expected (at -O2 clang's \
         output for both edits need not be the union of the two, so there it is not necessarily \
         a merge error); \"broken\": neither a clean merge nor a conflict. This run took \
         {secs:.0} s wall on the shared 2-core machine.\n",
        pairs.len(),
        files.len()
    )
    .unwrap();
    md.push_str(
        "| level | n | ours = theirs | irgit clean | exact code | exact debug info | wrong | broken | \
         `git merge-file` clean | exact code | exact debug info | wrong |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (level, r) in rows {
        let dbg = |c: &[usize; 4]| {
            if level.debug {
                pct(c[2], c[0])
            } else {
                "n/a".into()
            }
        };
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            level.label(),
            r.n,
            r.same_sides,
            pct(r.irgit[0], r.n),
            pct(r.irgit[1], r.n),
            dbg(&r.irgit),
            r.irgit[0] - r.irgit[1],
            r.irgit[3],
            pct(r.git[0], r.n),
            pct(r.git[1], r.n),
            dbg(&r.git),
            r.git[0] - r.git[1],
        )
        .unwrap();
    }
    md.push_str(
        "\n\"ours = theirs\": triples whose two edits compile to the same IR at that level (at -O2 \
         two edits can have one effect; the merge then takes it once, which need not be what \
         compiling both gives). Percentages: clean and exact code of all triples; exact debug \
         info of the clean ones. \
         Targets (issue 18): at -O0 -g ≥ 90% clean with exact code and debug info exact in ≥ 90% \
         of those; at -O2 -g as good as at -O2; no wrong clean merge.\n",
    );
    md
}
