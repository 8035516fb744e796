//! Pass-interaction benchmark: `irgit passes matrix` of six common function
//! passes over the test corpus, timed, next to `opt` running the same
//! pass applications (every `p(m)` and every `p(q(m))`, one process each,
//! `-S` out) without any analysis.
//!
//! ```text
//! set      modules  irgit matrix (2 threads)  irgit (1 thread)  opt runs  opt, 1 process each
//! -O0           18                    21.4 s            38.0 s      756                 9.1 s
//! ```
//!
//! Run: `cargo bench --bench passes` (harness = false). Prints the timing
//! table and the three matrices of each set, in Markdown for BENCHMARKS.md.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use irgit::passes::matrix::{self, Cell, Matrix};

use irgit::passes::COMMON_PASSES as PASSES;
const OPT: &str = "/usr/lib/llvm-22/bin/opt";

fn run_matrix(files: &[PathBuf], strip: bool, jobs: usize) -> (Matrix, Duration) {
    let list: Vec<String> = PASSES.iter().map(|s| s.to_string()).collect();
    let opts = matrix::Options {
        strip_optnone: strip,
        jobs,
        progress: false,
    };
    let t = Instant::now();
    let m = matrix::run(&list, files, &opts).expect("matrix");
    (m, t.elapsed())
}

fn opt_s(p: &str, input: &Path, output: &Path) {
    // opt aborts when instcombine misses its fixpoint (csmith code does);
    // irgit turns that check off, so opt does too.
    let p = if p == "instcombine" {
        "instcombine<no-verify-fixpoint>"
    } else {
        p
    };
    let st = Command::new(OPT)
        .arg(format!("-passes={p}"))
        .arg("-S")
        .arg(input)
        .arg("-o")
        .arg(output)
        .status()
        .expect("run opt");
    assert!(st.success(), "opt -passes={p} {}", input.display());
}

/// Every `p(m)` and `p(q(m))` with `opt`, one process each; returns the
/// time and the number of runs.
fn opt_runs(files: &[PathBuf], dir: &Path) -> (Duration, usize) {
    let mut runs = 0;
    let t = Instant::now();
    for f in files {
        let singles: Vec<PathBuf> = PASSES
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let out = dir.join(format!("s{i}.ll"));
                opt_s(p, f, &out);
                runs += 1;
                out
            })
            .collect();
        for p in PASSES {
            for s in &singles {
                opt_s(p, s, &dir.join("d.ll"));
                runs += 1;
            }
        }
    }
    (t.elapsed(), runs)
}

/// -O0 modules with optnone and noinline dropped, for `opt`.
fn stripped(files: &[PathBuf], dir: &Path) -> Vec<PathBuf> {
    files
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let s = irgit::ir::Session::new();
            let m = s.parse(&std::fs::read(f).unwrap(), "m").unwrap();
            m.strip_optnone();
            let out = dir.join(format!("m{k}.ll"));
            std::fs::write(&out, m.print()).unwrap();
            out
        })
        .collect()
}

fn table(m: &Matrix, title: &str, value: impl Fn(&Cell) -> usize) -> String {
    let mut s = format!("{title}\n\n| p \\ q |");
    for p in &m.pipelines {
        s.push_str(&format!(" {p} |"));
    }
    s.push_str("\n|---|");
    s.push_str(&"---:|".repeat(m.pipelines.len()));
    s.push('\n');
    for (i, row) in m.cells.iter().enumerate() {
        s.push_str(&format!("| **{}** |", m.pipelines[i]));
        for c in row {
            s.push_str(&format!(" {} |", value(c)));
        }
        s.push('\n');
    }
    s
}

fn main() {
    let corpus = common::corpus();
    let o0: Vec<PathBuf> = corpus
        .iter()
        .filter(|m| m.name.ends_with(".O0"))
        .map(|m| m.path.clone())
        .collect();
    let rest: Vec<PathBuf> = corpus
        .iter()
        .filter(|m| !m.name.ends_with(".O0"))
        .map(|m| m.path.clone())
        .collect();
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let o0_stripped = stripped(&o0, dir.path());

    let mut timing = String::from(
        "| set | modules | irgit matrix, 2 threads | irgit matrix, 1 thread | opt runs | opt, one process per run |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    let mut tables = String::new();
    for (label, files, opt_files, strip) in [
        ("-O0, optnone stripped", &o0, &o0_stripped, true),
        ("-O2, -O2 -g, llvm-stress", &rest, &rest, false),
    ] {
        let (m2, t2) = run_matrix(files, strip, 2);
        let (m1, t1) = run_matrix(files, strip, 1);
        assert_eq!(
            serde_json::to_value(&m1.cells).unwrap(),
            serde_json::to_value(&m2.cells).unwrap(),
            "the matrix depends on the number of threads"
        );
        assert!(m2.violations.is_empty(), "{:#?}", m2.violations);
        let (topt, runs) = opt_runs(opt_files, dir.path());
        timing.push_str(&format!(
            "| {label} | {} | {:.1} s | {:.1} s | {runs} | {:.1} s |\n",
            m2.analysed(),
            t2.as_secs_f64(),
            t1.as_secs_f64(),
            topt.as_secs_f64()
        ));
        let n = m2.analysed();
        tables.push_str(&format!("#### {label} ({n} modules)\n\n"));
        tables.push_str(&table(&m2, "Conflict (modules):", |c| c.conflict));
        tables.push('\n');
        tables.push_str(&table(
            &m2,
            "Contribution of column q to row p (modules where p finds new work after q):",
            |c| c.contribution,
        ));
        tables.push('\n');
        tables.push_str(&table(&m2, "Commute (modules):", |c| c.commute));
        let partial: usize = m2.cells.iter().flatten().map(|c| c.partial).sum();
        let undetermined: usize = m2.cells.iter().flatten().map(|c| c.undetermined).sum();
        tables.push_str(&format!(
            "\nContributions computed over a conflict: {partial}; undetermined: {undetermined}; \
             implication violations: {}.\n\n",
            m2.violations.len()
        ));
    }
    println!("{timing}\n{tables}");
}
