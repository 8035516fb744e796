//! Every ordered pair of `n` pipelines over many modules: per pair, how many
//! modules have a conflict, a contribution, a commutation. Modules are
//! independent, so worker threads take them from a queue (one LLVM context
//! each); the main thread counts and draws the progress bar.
//!
//! ```text
//! contribution (column q contributes to row p: p finds new work after q), 3 modules
//!               sroa  instcombine
//! sroa             0            0
//! instcombine      3            1
//! ```

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::relations::analyse;
use super::run::{run_module, Optnone, PassesError};

/// Counts for one ordered pair (row `p`, column `q`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    pub p: String,
    pub q: String,
    /// Modules where `δ(p,-)` and `δ(q,-)` conflict.
    pub conflict: usize,
    /// Modules where `q` contributes to `p`.
    pub contribution: usize,
    /// Modules where `p(q(m)) == q(p(m))` canonically.
    pub commute: usize,
    /// Modules where the contribution was computed over a conflict, each
    /// conflicting region keeping one side's lines.
    pub partial: usize,
    /// Modules where the rebased module did not verify, so the
    /// contribution is unknown.
    pub undetermined: usize,
}

/// One module of the run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ModuleSummary {
    pub name: String,
    pub optnone: Optnone,
    /// Why the module was left out (all functions `optnone`), if it was.
    pub skipped: Option<String>,
    pub seconds: f64,
    /// Every ordered pair on this module (row `p`, column `q` by index).
    pub pairs: Vec<PairFacts>,
}

/// A pair where no conflict and no contribution did not give commutation.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Violation {
    pub module: String,
    pub p: String,
    pub q: String,
    pub first_difference: String,
}

/// The result of `irgit passes matrix`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Matrix {
    pub pipelines: Vec<String>,
    pub modules: Vec<ModuleSummary>,
    /// `cells[i][j]`: row `p = pipelines[i]`, column `q = pipelines[j]`.
    pub cells: Vec<Vec<Cell>>,
    pub violations: Vec<Violation>,
    pub seconds: f64,
    pub threads: usize,
}

impl Matrix {
    /// Modules analysed (not skipped).
    pub fn analysed(&self) -> usize {
        self.modules.iter().filter(|m| m.skipped.is_none()).count()
    }
}

/// How to run the matrix.
#[derive(Debug, Clone)]
pub struct Options {
    pub strip_optnone: bool,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Draw a progress bar on stderr (only when it is a terminal).
    pub progress: bool,
}

/// The relations of one ordered pair on one module.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PairFacts {
    /// Index of `p` (the row) and `q` (the column) in the pipelines.
    pub p: usize,
    pub q: usize,
    pub conflict: bool,
    /// `q` contributes to `p` (`None`: undetermined).
    pub contribution: Option<bool>,
    /// The contribution was computed over a conflict.
    pub partial: bool,
    pub commute: bool,
    #[serde(skip)]
    violation: Option<Violation>,
}

type ModuleResult = (usize, ModuleSummary);

fn analyse_module(
    path: &PathBuf,
    pipelines: &[String],
    strip: bool,
) -> Result<ModuleSummary, PassesError> {
    let start = Instant::now();
    let name = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| PassesError::Input(format!("{name}: {}", crate::io_problem(&e))))?;
    let n = pipelines.len();
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).collect();
    let out = match run_module(&bytes, &name, pipelines, &pairs, strip) {
        Err(PassesError::AllOptnone { defined, .. }) => {
            let summary = ModuleSummary {
                name,
                optnone: Optnone {
                    functions: defined,
                    defined,
                    stripped: false,
                },
                skipped: Some(format!("all {defined} functions are optnone")),
                seconds: start.elapsed().as_secs_f64(),
                pairs: Vec::new(),
            };
            return Ok(summary);
        }
        other => other?,
    };
    let mut facts = Vec::new();
    for i in 0..n {
        for j in i..n {
            let r = analyse(&out, i, j, 12, 0)?;
            let violation = r.implication_violated.then(|| Violation {
                module: name.clone(),
                p: r.p.clone(),
                q: r.q.clone(),
                first_difference: r.first_difference.text.clone(),
            });
            // Row p, column q: does q contribute to p.
            let fact = |p, q, c: &super::Contribution, violation| PairFacts {
                p,
                q,
                conflict: r.conflict(),
                contribution: c.undetermined.is_none().then(|| c.exists()),
                partial: c.partial > 0,
                commute: r.commute,
                violation,
            };
            facts.push(fact(i, j, &r.q_to_p, violation));
            if i != j {
                facts.push(fact(j, i, &r.p_to_q, None));
            }
        }
    }
    Ok(ModuleSummary {
        name,
        optnone: out.optnone,
        skipped: None,
        seconds: start.elapsed().as_secs_f64(),
        pairs: facts,
    })
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
struct Progress {
    on: bool,
    total: usize,
    start: Instant,
}

impl Progress {
    fn new(total: usize, wanted: bool) -> Progress {
        Progress {
            on: wanted && std::io::stderr().is_terminal(),
            total,
            start: Instant::now(),
        }
    }

    fn show(&self, done: usize, last: &str) {
        if !self.on {
            return;
        }
        let width = 30;
        let filled = (done * width).checked_div(self.total).unwrap_or(width);
        let name: String = last
            .chars()
            .rev()
            .take(40)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        eprint!(
            "\r\x1b[2K[{}{}] {done}/{} modules, {:.1} s  {name}",
            "#".repeat(filled),
            "-".repeat(width - filled),
            self.total,
            self.start.elapsed().as_secs_f64()
        );
    }

    fn finish(&self) {
        if self.on {
            eprint!("\r\x1b[2K");
        }
    }
}

/// Runs every ordered pair of `pipelines` on every file.
pub fn run(pipelines: &[String], files: &[PathBuf], opts: &Options) -> Result<Matrix, PassesError> {
    let start = Instant::now();
    let n = pipelines.len();
    let threads = opts.jobs.max(1).min(files.len().max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<ModuleResult, PassesError>>();
    let progress = Progress::new(files.len(), opts.progress);
    let mut results: Vec<Option<ModuleSummary>> = (0..files.len()).map(|_| None).collect();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                if k >= files.len() || stop.load(Ordering::SeqCst) {
                    break;
                }
                let r = analyse_module(&files[k], pipelines, opts.strip_optnone).map(|s| (k, s));
                if tx.send(r).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        progress.show(0, "");
        let mut done = 0;
        for r in rx {
            match r {
                Ok((k, summary)) => {
                    done += 1;
                    progress.show(done, &summary.name);
                    results[k] = Some(summary);
                }
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    progress.finish();
    if let Some(e) = first_error {
        return Err(e);
    }
    let mut cells: Vec<Vec<Cell>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| Cell {
                    p: pipelines[i].clone(),
                    q: pipelines[j].clone(),
                    ..Cell::default()
                })
                .collect()
        })
        .collect();
    let mut modules = Vec::new();
    let mut violations = Vec::new();
    for mut summary in results.into_iter().flatten() {
        for f in &mut summary.pairs {
            let c = &mut cells[f.p][f.q];
            c.conflict += f.conflict as usize;
            c.commute += f.commute as usize;
            match f.contribution {
                Some(x) => c.contribution += x as usize,
                None => c.undetermined += 1,
            }
            c.partial += f.partial as usize;
            violations.extend(f.violation.take());
        }
        modules.push(summary);
    }
    Ok(Matrix {
        pipelines: pipelines.to_vec(),
        modules,
        cells,
        violations,
        seconds: start.elapsed().as_secs_f64(),
        threads,
    })
}

/// One table of the text report.
fn table(m: &Matrix, title: &str, value: impl Fn(&Cell) -> usize) -> String {
    let w0 = m
        .pipelines
        .iter()
        .map(|p| p.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut s = format!("{title}\n{:w0$}", "");
    for p in &m.pipelines {
        s.push_str(&format!("  {p:>w$}", w = p.len().max(3)));
    }
    s.push('\n');
    for (i, row) in m.cells.iter().enumerate() {
        s.push_str(&format!("{:w0$}", m.pipelines[i]));
        for (j, c) in row.iter().enumerate() {
            let w = m.pipelines[j].len().max(3);
            s.push_str(&format!("  {:>w$}", value(c)));
        }
        s.push('\n');
    }
    s
}

/// The text report: three tables (conflict, contribution, commute).
pub fn render(m: &Matrix) -> String {
    let n = m.analysed();
    let mut s = format!(
        "{} pipelines over {n} module(s), {:.1} s on {} thread(s)\n\n",
        m.pipelines.len(),
        m.seconds,
        m.threads
    );
    s.push_str(&table(
        m,
        &format!("conflict (δ(p,-) and δ(q,-) conflict), modules out of {n}:"),
        |c| c.conflict,
    ));
    s.push('\n');
    s.push_str(&table(
        m,
        &format!(
            "contribution (column q contributes to row p: p finds new work after q), modules out of {n}:"
        ),
        |c| c.contribution,
    ));
    s.push('\n');
    s.push_str(&table(
        m,
        &format!("commute (p(q(m)) == q(p(m)) canonically), modules out of {n}:"),
        |c| c.commute,
    ));
    let partial: usize = m.cells.iter().flatten().map(|c| c.partial).sum();
    if partial > 0 {
        s.push_str(&format!(
            "\n{partial} contribution(s) were computed over a conflict (a contribution is defined \
             only without one): each conflicting region kept one side's lines, whichever side \
             explains more of p(q(m)), an over-estimate\n"
        ));
    }
    let undetermined: usize = m.cells.iter().flatten().map(|c| c.undetermined).sum();
    if undetermined > 0 {
        s.push_str(&format!(
            "{undetermined} contribution(s) undetermined: the partly rebased module did not verify\n"
        ));
    }
    s.push_str(&notes(m));
    for v in &m.violations {
        s.push_str(&format!(
            "\nirgit bug: {}: no conflict and no contribution between {} and {}, yet they do not \
             commute:\n{}\n",
            v.module, v.p, v.q, v.first_difference
        ));
    }
    s
}

/// Notes about `optnone` functions and skipped modules.
pub fn notes(m: &Matrix) -> String {
    let mut s = String::new();
    let skipped: Vec<&ModuleSummary> = m.modules.iter().filter(|x| x.skipped.is_some()).collect();
    if !skipped.is_empty() {
        s.push_str(&format!(
            "\nnote: {} module(s) left out, every function optnone (clang -O0): {}; \
             --strip-optnone drops optnone and noinline first\n",
            skipped.len(),
            skipped
                .iter()
                .map(|x| x.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let partly: Vec<&ModuleSummary> = m
        .modules
        .iter()
        .filter(|x| x.skipped.is_none() && x.optnone.skipped() > 0)
        .collect();
    if !partly.is_empty() {
        let f: usize = partly.iter().map(|x| x.optnone.skipped()).sum();
        s.push_str(&format!(
            "\nnote: {f} optnone function(s) in {} module(s) were skipped by every pass; \
             --strip-optnone drops optnone and noinline first\n",
            partly.len()
        ));
    }
    s
}
