//! `irgit passes interact P Q FILE` and `irgit passes matrix P1,...,Pn FILE...`.
//!
//! Exit status: 0 when the analysis ran, 1 when an input, a pipeline or a
//! pass output is refused, 3 when the check "no conflict and no
//! contribution ⇒ commute" failed (a bug in irgit, reported as such).
//!
//! ```text
//! $ irgit passes interact --strip-optnone sroa instcombine loops.O0.ll
//! p = sroa, q = instcombine, m = loops.O0.ll
//! conflict: yes, 20 region(s) ...
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use super::matrix;
use super::relations::{analyse, Contribution, PairReport, Region};
use super::run::{run_module, Optnone, PassesError};

const EXIT_BUG: u8 = 3;

/// Arguments of `irgit passes`.
#[derive(clap::Args, Debug)]
#[command(
    about = "How optimization passes interact: conflict, contribution, commutation",
    long_about = "How optimization passes interact on LLVM IR, computed with the \
        merge's own diffs, conflict rules and rebasing.\n\n\
        For passes p, q and module m: p and q CONFLICT when their edits of m, diffed block by \
        block over m's identities, conflict under the merge's rules. q CONTRIBUTES to p when p, \
        run on q(m), does something its own edits of m rebased onto q(m) do not explain. p and q \
        COMMUTE when p(q(m)) and q(p(m)) have the same canonical form.\n\n\
        Passes are pipelines of LLVM's new pass manager, as for `opt -passes=`, run in process.",
    after_help = "Examples:\n  \
        irgit passes interact instcombine simplifycfg foo.ll\n  \
        irgit passes interact --strip-optnone sroa instcombine foo.O0.ll\n  \
        irgit passes interact 'function(mem2reg,instcombine)' gvn foo.ll --json\n  \
        irgit passes matrix sroa,instcombine,simplifycfg,gvn *.ll\n\n\
        Exit status: 0 analysis done, 1 bad input or pipeline, 3 irgit bug found by the \
        no-conflict-no-contribution-implies-commute check."
)]
pub struct PassesArgs {
    #[command(subcommand)]
    pub command: PassesCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum PassesCommand {
    /// Conflict, contribution both ways and commutation of P and Q on FILE, with evidence
    #[command(after_help = "Example:\n  \
        irgit passes interact --strip-optnone sroa instcombine loops.O0.ll\n\n\
        clang -O0 marks functions optnone, and every pass skips those: --strip-optnone drops \
        optnone and noinline before the passes run. A module whose functions are all optnone \
        is refused without it.")]
    Interact(InteractArgs),
    /// Every ordered pair of pipelines over one or many modules: counts of modules with a conflict, a contribution, a commutation
    #[command(after_help = "Example:\n  \
        irgit passes matrix --strip-optnone sroa,instcombine,simplifycfg,gvn,licm,early-cse *.ll\n\n\
        Pipelines are separated by commas outside parentheses: \
        'sroa,function(mem2reg,instcombine)' is two pipelines. Modules whose functions are all \
        optnone are left out (and listed) unless --strip-optnone is given.")]
    Matrix(MatrixArgs),
}

#[derive(clap::Args, Debug)]
pub struct InteractArgs {
    /// First pipeline p (as for `opt -passes=`, e.g. instcombine or 'function(mem2reg,instcombine)')
    pub p: String,
    /// Second pipeline q
    pub q: String,
    /// The module (.ll or .bc)
    pub file: PathBuf,
    /// Drop optnone and noinline from every function first (clang -O0 output)
    #[arg(long)]
    pub strip_optnone: bool,
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
    /// Longest diff shown as evidence, in lines
    #[arg(long, default_value_t = 24, value_name = "N")]
    pub max_lines: usize,
    /// Conflicting regions shown
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub max_regions: usize,
}

#[derive(clap::Args, Debug)]
pub struct MatrixArgs {
    /// Pipelines separated by commas (outside parentheses): sroa,instcombine,gvn
    pub pipelines: String,
    /// Modules (.ll or .bc)
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Drop optnone and noinline from every function first (clang -O0 output)
    #[arg(long)]
    pub strip_optnone: bool,
    /// Print the result as JSON
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: the number of cores)
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar (it is only drawn on a terminal anyway)
    #[arg(long)]
    pub no_progress: bool,
}

/// Runs `irgit passes ...`.
pub fn run(args: PassesArgs) -> ExitCode {
    let result = match args.command {
        PassesCommand::Interact(a) => interact(a),
        PassesCommand::Matrix(a) => run_matrix(a),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("irgit passes: {message}");
            ExitCode::from(1)
        }
    }
}

fn check(pipelines: &[String]) -> Result<(), String> {
    for p in pipelines {
        crate::ir::passes::check_pipeline(p).map_err(|e| {
            format!("{e} (pipelines are written as for `opt -passes=`, e.g. instcombine, sroa, gvn, licm, simplifycfg, 'function(mem2reg,instcombine)')")
        })?;
    }
    Ok(())
}

fn interact(a: InteractArgs) -> Result<ExitCode, String> {
    let pipelines = vec![a.p.clone(), a.q.clone()];
    check(&pipelines)?;
    let name = a.file.display().to_string();
    let bytes = std::fs::read(&a.file).map_err(|e| format!("{name}: {}", crate::io_problem(&e)))?;
    let pairs = [(0, 1), (1, 0)];
    let out = run_module(&bytes, &name, &pipelines, &pairs, a.strip_optnone)
        .map_err(|e: PassesError| e.to_string())?;
    let report = analyse(&out, 0, 1, a.max_lines, a.max_regions).map_err(|e| e.to_string())?;
    if out.optnone.skipped() > 0 {
        eprintln!("irgit passes: note: {}", optnone_note(&out.optnone));
    }
    if a.json {
        #[derive(serde::Serialize)]
        struct Json<'a> {
            optnone: &'a Optnone,
            #[serde(flatten)]
            report: &'a PairReport,
        }
        let j = Json {
            optnone: &out.optnone,
            report: &report,
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", render_pair(&report, &out.optnone));
    }
    if report.implication_violated {
        eprintln!(
            "irgit passes: irgit bug: no conflict and no contribution, yet {} and {} do not commute on {name}; please report it",
            a.p, a.q
        );
        return Ok(ExitCode::from(EXIT_BUG));
    }
    Ok(ExitCode::SUCCESS)
}

fn optnone_note(o: &Optnone) -> String {
    format!(
        "{} of {} functions are optnone (clang -O0 output) and every pass skipped them; \
         --strip-optnone drops optnone and noinline first",
        o.functions, o.defined
    )
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

fn region_text(r: &Region, p: &str, q: &str) -> String {
    let place = match (&r.function, &r.block) {
        (Some(f), Some(b)) => format!("{f}, block {b}:"),
        (Some(f), None) => format!("{f} (whole function):"),
        _ => "module level:".to_string(),
    };
    let mut s = format!("  {place}\n");
    let side = |label: &str, lines: &[String]| {
        let mut t = format!("    {label}:\n");
        if lines.is_empty() {
            t.push_str("      (nothing)\n");
        }
        for l in lines.iter().take(8) {
            t.push_str(&format!("      {}\n", l.trim()));
        }
        if lines.len() > 8 {
            t.push_str(&format!("      ... {} more line(s)\n", lines.len() - 8));
        }
        t
    };
    s.push_str(&side("m", &r.base));
    s.push_str(&side(&format!("{p}(m)"), &r.p));
    s.push_str(&side(&format!("{q}(m)"), &r.q));
    s
}

fn contribution_text(c: &Contribution) -> String {
    let (from, to) = (&c.from, &c.to);
    let mut over = String::new();
    if c.partial > 0 {
        over = format!(
            " (computed over the conflict: {} region(s) keep {}(m)'s lines",
            c.partial,
            c.kept.as_deref().unwrap_or(from)
        );
        if !c.whole_functions.is_empty() {
            over.push_str(&format!(
                ", and so do the whole functions {}",
                c.whole_functions.join(", ")
            ));
        }
        over.push(')');
    }
    if let Some(why) = &c.undetermined {
        return format!(
            "{from} contributes to {to}: undetermined: the rebased module is not valid IR: {why}\n"
        );
    }
    if !c.exists() {
        return format!("{from} contributes to {to}: no{over}\n");
    }
    let mut s = format!(
        "{from} contributes to {to}: yes, -{} +{} line(s){over}\n  \
         from {to}'s edits of m rebased onto {from}(m), to {to}({from}(m)):\n",
        c.diff.removed, c.diff.added
    );
    s.push_str(&indent(&c.diff.text, "  "));
    if c.diff.truncated {
        s.push_str("  ...\n");
    }
    s
}

/// The text report of one pair.
pub(crate) fn render_pair(r: &PairReport, optnone: &Optnone) -> String {
    let (p, q) = (&r.p, &r.q);
    let mut s = format!("p = {p}, q = {q}, m = {}\n", r.module);
    if optnone.stripped && optnone.functions > 0 {
        s.push_str(&format!(
            "optnone and noinline dropped from {} of {} functions first\n",
            optnone.functions, optnone.defined
        ));
    } else if optnone.skipped() > 0 {
        s.push_str(&format!("note: {}\n", optnone_note(optnone)));
    }
    let size = |(removed, added): (usize, usize)| {
        if removed + added == 0 {
            "no change".to_string()
        } else {
            format!("-{removed} +{added} canonical line(s)")
        }
    };
    s.push_str(&format!(
        "δ(p,-): {}; δ(q,-): {}\n\n",
        size(r.p_changes),
        size(r.q_changes)
    ));
    if r.conflict() {
        s.push_str(&format!("conflict: yes, {} region(s)\n", r.conflicts));
        for region in &r.regions {
            s.push_str(&region_text(region, p, q));
        }
        if r.conflicts > r.regions.len() {
            s.push_str(&format!(
                "  ... and {} more region(s)\n",
                r.conflicts - r.regions.len()
            ));
        }
    } else {
        s.push_str("conflict: no\n");
    }
    s.push('\n');
    s.push_str(&contribution_text(&r.q_to_p));
    s.push_str(&contribution_text(&r.p_to_q));
    s.push('\n');
    if r.commute {
        s.push_str(&format!("commute: yes, {p}({q}(m)) == {q}({p}(m))\n"));
    } else {
        s.push_str(&format!(
            "commute: no; first difference, from {q}({p}(m)) to {p}({q}(m)):\n"
        ));
        s.push_str(&indent(&r.first_difference.text, "  "));
        if r.first_difference.truncated {
            s.push_str("  ...\n");
        }
    }
    if r.implication_violated {
        s.push_str("\nirgit bug: no conflict and no contribution, yet no commutation\n");
    }
    s
}

fn run_matrix(a: MatrixArgs) -> Result<ExitCode, String> {
    let pipelines = super::split_pipelines(&a.pipelines)?;
    check(&pipelines)?;
    let jobs = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let opts = matrix::Options {
        strip_optnone: a.strip_optnone,
        jobs,
        progress: !a.no_progress && !a.json,
    };
    let m = matrix::run(&pipelines, &a.files, &opts).map_err(|e| e.to_string())?;
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&m).map_err(|e| e.to_string())?
        );
        let notes = matrix::notes(&m);
        if !notes.is_empty() {
            eprint!("{}", notes.trim_start());
        }
    } else {
        print!("{}", matrix::render(&m));
    }
    if !m.violations.is_empty() {
        eprintln!(
            "irgit passes: irgit bug: {} pair(s) with no conflict and no contribution do not commute; please report it",
            m.violations.len()
        );
        return Ok(ExitCode::from(EXIT_BUG));
    }
    Ok(ExitCode::SUCCESS)
}
