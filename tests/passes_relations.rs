//! `irgit passes` on real modules: the C corpus at -O0 (optnone stripped)
//! and at -O1, six common function passes, every ordered pair.
//!
//! ```text
//! tests/corpus/*.c ──clang-22 -O0──► strip optnone ──► sroa, instcombine, ... and every p(q(m))
//!                  ──clang-22 -O1──────────────────►  (same)
//! each pair ──► conflict / contribution both ways / commutation, checked against
//!               what the relations must satisfy and against `opt` itself
//! ```

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use irgit::passes::matrix;
use irgit::passes::run::run_module;
use irgit::passes::textdiff::strip_comments;
use irgit::passes::{analyse, ModuleOutputs, PairReport};

use irgit::passes::COMMON_PASSES as PASSES;
const OPT: &str = "/usr/lib/llvm-22/bin/opt";

fn pipelines(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The C corpus at -O1 (the shared corpus has -O0 and -O2).
fn o1_files() -> Vec<PathBuf> {
    let dir = common::cache_dir().join("passes-O1");
    std::fs::create_dir_all(&dir).unwrap();
    common::corpus_sources()
        .into_iter()
        .map(|c| {
            let key = common::fnv(&std::fs::read(&c).unwrap());
            let stem = c.file_stem().unwrap().to_string_lossy().into_owned();
            let out = dir.join(format!("{stem}.O1.{key:016x}.ll"));
            common::clang_to_ll(&c, &out, "-O1", &[]);
            out
        })
        .collect()
}

fn o0_files() -> Vec<PathBuf> {
    common::corpus()
        .iter()
        .filter(|m| m.origin == common::Origin::C && m.name.ends_with(".O0"))
        .map(|m| m.path.clone())
        .collect()
}

/// Every ordered pair of `list` on `file`, and the reports of all pairs
/// `i <= j` (evidence cut at 40 lines, every conflicting region kept).
fn analysed(file: &Path, list: &[&str], strip: bool) -> (ModuleOutputs, Vec<PairReport>) {
    let n = list.len();
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).collect();
    let bytes = std::fs::read(file).unwrap();
    let name = file.display().to_string();
    let out = run_module(&bytes, &name, &pipelines(list), &pairs, strip)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut reports = Vec::new();
    for i in 0..n {
        for j in i..n {
            reports.push(analyse(&out, i, j, 40, usize::MAX).unwrap());
        }
    }
    (out, reports)
}

type Set = Vec<(ModuleOutputs, Vec<PairReport>)>;

fn set(files: Vec<PathBuf>, strip: bool) -> Set {
    std::thread::scope(|s| {
        let half = files.len().div_ceil(2);
        let (a, b) = files.split_at(half);
        let h = s.spawn(|| {
            a.iter()
                .map(|f| analysed(f, &PASSES, strip))
                .collect::<Vec<_>>()
        });
        let mut v: Set = b.iter().map(|f| analysed(f, &PASSES, strip)).collect();
        let mut first = h.join().unwrap();
        first.append(&mut v);
        first
    })
}

fn o0() -> &'static Set {
    static S: OnceLock<Set> = OnceLock::new();
    S.get_or_init(|| set(o0_files(), true))
}

fn o1() -> &'static Set {
    static S: OnceLock<Set> = OnceLock::new();
    S.get_or_init(|| set(o1_files(), false))
}

fn same(a: &str, b: &str) -> bool {
    strip_comments(a) == strip_comments(b)
}

/// A line with its value names blanked: what kind of instruction it is.
fn shape(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.trim().chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '%' {
            out.push('_');
            while chars
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
            {
                chars.next();
            }
        }
    }
    out
}

fn shapes(text: &str) -> std::collections::HashSet<String> {
    strip_comments(text)
        .lines()
        .filter(|l| l.starts_with("  "))
        .map(shape)
        .collect()
}

fn index(out: &ModuleOutputs, p: &str) -> usize {
    out.pipelines.iter().position(|x| x == p).unwrap()
}

fn report<'a>(reports: &'a [PairReport], p: &str, q: &str) -> &'a PairReport {
    reports
        .iter()
        .find(|r| (r.p == p && r.q == q) || (r.p == q && r.q == p))
        .unwrap()
}

/// `q` contributes to `p` in report `r` (whichever way round it was run).
fn contribution<'a>(r: &'a PairReport, q: &str, p: &str) -> &'a irgit::passes::Contribution {
    if r.p == p && r.q == q {
        &r.q_to_p
    } else {
        &r.p_to_q
    }
}

#[test]
fn a_pass_with_itself_commutes_and_does_not_conflict() {
    let mut n = 0;
    for (out, reports) in o0().iter().chain(o1()) {
        for r in reports.iter().filter(|r| r.p == r.q) {
            assert!(
                r.commute,
                "{}: {} with itself does not commute",
                out.name, r.p
            );
            assert_eq!(
                r.conflicts, 0,
                "{}: {} conflicts with itself",
                out.name, r.p
            );
            n += 1;
        }
    }
    assert_eq!(n, (o0().len() + o1().len()) * PASSES.len());
}

#[test]
fn a_pass_that_changes_nothing_has_no_conflict_no_contribution_and_commutes() {
    // LLVM's no-op pass, against every pass, at -O0 and -O1.
    let mut files = o0_files()[..2].to_vec();
    files.extend(o1_files()[..2].iter().cloned());
    let mut list = vec!["no-op-function"];
    list.extend(PASSES);
    for (k, f) in files.iter().enumerate() {
        let (_, reports) = analysed(f, &list, k < 2);
        for r in reports.iter().filter(|r| r.p == "no-op-function") {
            assert_eq!(r.p_changes, (0, 0), "{}: no-op changed something", r.module);
            assert_eq!(r.conflicts, 0, "{}: no-op conflicts with {}", r.module, r.q);
            assert!(!r.q_to_p.exists() && !r.p_to_q.exists(), "{r:#?}");
            assert!(
                r.commute,
                "{}: no-op does not commute with {}",
                r.module, r.q
            );
        }
    }
    // Real passes with nothing to do on an -O1 module (sroa finds no
    // allocas left, ...): no conflict, and they contribute nothing.
    let (mut idle, mut idle_both_ways) = (0, 0);
    for (out, reports) in o1() {
        for (i, p) in PASSES.iter().enumerate() {
            if !same(&out.single[i], &out.base) {
                continue;
            }
            idle += 1;
            for q in PASSES.iter().filter(|q| *q != p) {
                let j = index(out, q);
                let r = report(reports, p, q);
                assert_eq!(r.conflicts, 0, "{}: idle {p} conflicts with {q}", out.name);
                assert!(
                    !contribution(r, p, q).exists(),
                    "{}: idle {p} contributes to {q}: {r:#?}",
                    out.name
                );
                // Idle on q(m) too: then nothing flows either way.
                if same(&out.double[&(i, j)], &out.single[j]) {
                    idle_both_ways += 1;
                    assert!(!contribution(r, q, p).exists(), "{r:#?}");
                    assert!(r.commute, "{}: idle {p} and {q} do not commute", out.name);
                }
            }
        }
    }
    eprintln!("{idle} idle (module, pass) at -O1; {idle_both_ways} pairs idle both ways");
    assert!(idle > 0 && idle_both_ways > 0);
}

/// Lines `p` writes only after `q`: `+` lines of the contribution whose
/// instruction shape is in neither `p(m)` nor `q(m)`.
fn new_folds(out: &ModuleOutputs, r: &PairReport, q: &str, p: &str) -> Vec<String> {
    let (i, j) = (index(out, p), index(out, q));
    let seen: std::collections::HashSet<String> = shapes(&out.single[i])
        .union(&shapes(&out.single[j]))
        .cloned()
        .collect();
    let after = shapes(&out.double[&(i, j)]);
    contribution(r, q, p)
        .diff
        .text
        .lines()
        .filter_map(|l| l.strip_prefix('+'))
        .filter(|l| l.starts_with("  "))
        .filter(|l| {
            let s = shape(l);
            after.contains(&s) && !seen.contains(&s)
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn sroa_and_mem2reg_contribute_to_instcombine_on_o0_code() {
    let mut with_new_folds = 0;
    for (out, reports) in o0() {
        let r = report(reports, "instcombine", "sroa");
        let c = contribution(r, "sroa", "instcombine");
        assert!(c.undetermined.is_none(), "{}: {c:#?}", out.name);
        let folds = new_folds(out, r, "sroa", "instcombine");
        if c.exists() && !folds.is_empty() {
            with_new_folds += 1;
            if with_new_folds == 1 {
                eprintln!(
                    "{}: sroa contributes to instcombine; new folds:\n{}\nevidence:\n{}",
                    out.name,
                    folds.join("\n"),
                    c.diff.text
                );
            }
        }
    }
    eprintln!(
        "sroa -> instcombine with new folds: {with_new_folds} of {}",
        o0().len()
    );
    assert!(with_new_folds * 2 >= o0().len());

    let mut mem2reg = 0;
    for f in &o0_files()[..4] {
        let (out, reports) = analysed(f, &["instcombine", "mem2reg"], true);
        let r = &reports[1];
        if contribution(r, "mem2reg", "instcombine").exists()
            && !new_folds(&out, r, "mem2reg", "instcombine").is_empty()
        {
            mem2reg += 1;
        }
    }
    assert!(mem2reg > 0, "mem2reg never contributes to instcombine");
}

#[test]
fn a_contribution_without_conflict_at_o1() {
    // The exact definition of a contribution (no conflict, nothing resolved).
    let mut found = Vec::new();
    for (out, reports) in o1() {
        for r in reports.iter().filter(|r| r.p != r.q && r.conflicts == 0) {
            for c in [&r.q_to_p, &r.p_to_q] {
                assert_eq!(c.partial, 0);
                assert!(c.kept.is_none() && c.whole_functions.is_empty());
                if c.exists() {
                    found.push(format!(
                        "{}: {} -> {}\n{}",
                        out.name, c.from, c.to, c.diff.text
                    ));
                }
            }
        }
    }
    assert!(!found.is_empty(), "no contribution without conflict at -O1");
    eprintln!(
        "{} contributions without conflict; first:\n{}",
        found.len(),
        found[0]
    );
}

/// Runs `opt -passes=<p>` on `input`, writing `output` (instcombine's
/// fixpoint check off, as irgit has it).
fn opt(p: &str, input: &Path, output: &Path) {
    let p = if p == "instcombine" {
        "instcombine<no-verify-fixpoint>"
    } else {
        p
    };
    common::run_ok(
        Command::new(OPT)
            .arg(format!("-passes={p}"))
            .arg("-S")
            .arg(input)
            .arg("-o")
            .arg(output),
        &format!("opt -passes={p} {}", input.display()),
    );
}

fn canon_file(path: &Path) -> String {
    common::canon(
        &std::fs::read_to_string(path).unwrap(),
        &path.display().to_string(),
    )
    .unwrap()
}

/// The input as the passes saw it (optnone stripped when asked).
fn prepared(out: &ModuleOutputs, dir: &Path) -> PathBuf {
    let session = irgit::ir::Session::new();
    let m = session.parse(&out.bytes, &out.name).unwrap();
    if out.optnone.stripped {
        m.strip_optnone();
    }
    let path = dir.join("m.ll");
    std::fs::write(&path, m.print()).unwrap();
    path
}

#[test]
fn some_pairs_do_not_commute_and_opt_agrees() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut shown = 0;
    let mut confirmed = 0;
    for (out, reports) in o0().iter().take(3).chain(o1().iter().take(4)) {
        for r in reports.iter().filter(|r| !r.commute) {
            let (i, j) = (index(out, &r.p), index(out, &r.q));
            let d = &r.first_difference;
            assert!(!d.is_empty() && !d.text.is_empty());
            // The evidence is made of real lines of the two orders.
            let (pq, qp) = (
                strip_comments(&out.double[&(i, j)]),
                strip_comments(&out.double[&(j, i)]),
            );
            for l in d.text.lines() {
                if let Some(x) = l.strip_prefix('+') {
                    assert!(pq.lines().any(|y| y == x), "{x} not in p(q(m))");
                } else if let Some(x) = l.strip_prefix('-') {
                    assert!(qp.lines().any(|y| y == x), "{x} not in q(p(m))");
                }
            }
            if shown == 0 {
                eprintln!(
                    "{}: {} and {} do not commute:\n{}",
                    out.name, r.p, r.q, d.text
                );
            }
            shown += 1;
            // opt, run as a separate program, agrees (one pair per module).
            if confirmed < 3 && shown % 5 == 1 {
                let m = prepared(out, dir.path());
                let (a, b, c, e) = (
                    dir.path().join("q.ll"),
                    dir.path().join("pq.ll"),
                    dir.path().join("p.ll"),
                    dir.path().join("qp.ll"),
                );
                opt(&r.q, &m, &a);
                opt(&r.p, &a, &b);
                opt(&r.p, &m, &c);
                opt(&r.q, &c, &e);
                let (opt_pq, opt_qp) = (canon_file(&b), canon_file(&e));
                assert!(
                    !same(&opt_pq, &opt_qp),
                    "opt says {} and {} commute",
                    r.p,
                    r.q
                );
                assert!(
                    same(&opt_pq, &out.double[&(i, j)]),
                    "p(q(m)) differs from opt's"
                );
                assert!(
                    same(&opt_qp, &out.double[&(j, i)]),
                    "q(p(m)) differs from opt's"
                );
                confirmed += 1;
            }
        }
    }
    assert!(shown > 0 && confirmed > 0);
}

#[test]
fn passes_in_process_match_opt() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    for (out, _) in o0().iter().take(2).chain(o1().iter().take(2)) {
        let m = prepared(out, dir.path());
        for (i, p) in PASSES.iter().enumerate() {
            let o = dir.path().join("out.ll");
            opt(p, &m, &o);
            assert!(
                same(&canon_file(&o), &out.single[i]),
                "{}: {p} in process differs from opt -passes={p}",
                out.name
            );
        }
    }
}

#[test]
fn no_conflict_and_no_contribution_implies_commutation_on_every_pair() {
    let mut checked = 0;
    let mut premise = 0;
    for (out, reports) in o0().iter().chain(o1()) {
        for r in reports {
            assert!(!r.implication_violated, "{}: {r:#?}", out.name);
            let decided = r.q_to_p.undetermined.is_none() && r.p_to_q.undetermined.is_none();
            if r.conflicts == 0 && decided && !r.q_to_p.exists() && !r.p_to_q.exists() {
                premise += 1;
                assert!(r.commute, "{}: {} and {}: {r:#?}", out.name, r.p, r.q);
            }
            checked += 1;
        }
    }
    // The matrix (threads, both directions) finds no violation on csmith
    // and llvm-stress modules either.
    let others: Vec<PathBuf> = common::corpus()
        .iter()
        .filter(|m| m.origin != common::Origin::C && !m.name.ends_with(".O0"))
        .map(|m| m.path.clone())
        .collect();
    let list = pipelines(&["instcombine", "simplifycfg", "gvn", "early-cse"]);
    let opts = matrix::Options {
        strip_optnone: false,
        jobs: 2,
        progress: false,
    };
    let m = matrix::run(&list, &others, &opts).unwrap();
    assert!(m.violations.is_empty(), "{:#?}", m.violations);
    assert_eq!(m.analysed(), others.len());
    for (i, row) in m.cells.iter().enumerate() {
        assert_eq!(row[i].commute, others.len());
        for (j, c) in row.iter().enumerate() {
            assert_eq!(c.conflict, m.cells[j][i].conflict);
            assert_eq!(c.commute, m.cells[j][i].commute);
        }
    }
    eprintln!(
        "{checked} pairs checked, {premise} with no conflict and no contribution; matrix over {} more modules",
        others.len()
    );
    assert!(premise > 0);
}

#[test]
fn instcombine_missing_its_fixpoint_does_not_abort() {
    // `opt -passes=instcombine` aborts the process when instcombine does
    // not reach a fixpoint in one iteration, which happens on Csmith -O0
    // code; irgit runs passes in its own process and must survive it.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut opt_aborted = 0;
    for cm in common::corpus()
        .iter()
        .filter(|m| m.origin == common::Origin::Csmith && m.name.ends_with(".O0"))
    {
        let list = pipelines(&["instcombine"]);
        let out = run_module(cm.text.as_bytes(), &cm.name, &list, &[(0, 0)], true)
            .unwrap_or_else(|e| panic!("{}: {e}", cm.name));
        assert!(
            !same(&out.single[0], &out.base),
            "{}: instcombine idle",
            cm.name
        );
        let m = prepared(&out, dir.path());
        let o = Command::new(OPT)
            .args(["-passes=instcombine", "-disable-output"])
            .arg(&m)
            .output()
            .unwrap();
        if !o.status.success() && String::from_utf8_lossy(&o.stderr).contains("fixpoint") {
            opt_aborted += 1;
        }
    }
    eprintln!("opt -passes=instcombine aborted on {opt_aborted} csmith module(s); irgit did not");
    assert!(opt_aborted > 0, "no module exercises the fixpoint abort");
}
