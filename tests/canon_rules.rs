//! The canonical form against LLVM's placement rules: one small module per
//! rule of the LLVM 22 verifier and LangRef in `tests/canon_rules/*.ll`
//! (PHIs, EH pads, `callbr`, `musttail`, `llvm.experimental.deoptimize`,
//! convergence tokens, `inalloca` with stack save/restore, preallocated
//! calls, coroutines, statepoints, `llvm.localescape`, unnamed types and
//! globals), written the way LLVM's own tests are: a comment stating the
//! rule, a `RUN:` line, `CHECK:` lines for FileCheck. For each module:
//!
//! - the canonical form verifies and FileCheck accepts it against the
//!   module's own `CHECK:` lines (comment lines of the output left out);
//! - canon is idempotent;
//! - it means the same: every block keeps its instructions (the same LLVM
//!   objects), its outputs in their order, its PHIs and leading EH pad on
//!   top, its glued pairs (`musttail`/`deoptimize` + `ret`...) intact, its
//!   readers between the same outputs, and no pure instruction is hoisted
//!   above an output; a module with `@main` prints the same when run;
//! - canon(π(m)) == canon(m) for every perturbation kind that applies (one
//!   that keeps the placement skeleton above; the others change meaning).
//!
//! `tests/canon_rules/invalid/*.ll` are modules LLVM itself rejects: canon
//! must refuse each with a clean error naming the file. The structural
//! meaning check also runs on the shared corpus. `report_against_opt_normalize`
//! writes failures, invalid outputs and idempotence of irgit and of
//! `opt -passes=normalize` on both sets to `target/tmp/canon-rules-report.md`.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use irgit::canon::instructions::is_output;
use irgit::canon::order::{glued_to_previous, must_lead};
use irgit::canon::{canonicalize, CanonError};
use irgit::config::CanonOptions;
use irgit::ir::{Inst, IrModule, Session, Val};
use irgit_testkit::perturb::Kind;
use llvm_sys::LLVMOpcode;

const OPT: &str = "/usr/lib/llvm-22/bin/opt";
const FILECHECK: &str = "/usr/lib/llvm-22/bin/FileCheck";
const SEEDS: &[u64] = &[1, 2];

fn rule_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/canon_rules")
}

fn ll_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ll"))
        .collect();
    v.sort();
    v
}

/// The valid rule modules: (file name, text).
fn rule_modules() -> Vec<(String, String)> {
    let files = ll_files(&rule_dir());
    assert!(files.len() >= 15, "rule corpus too small: {}", files.len());
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

fn canon(text: &str, name: &str) -> Result<String, CanonError> {
    irgit::canon::canonicalize_bytes(text.as_bytes(), name, &CanonOptions::default())
}

/// The canonical text without comment lines (the `CHECK:` lines of the
/// input may be carried into it as user comments; FileCheck must not match
/// them).
fn without_comment_lines(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with(';'))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn filecheck(check_file: &Path, input: &str) -> Result<(), String> {
    use std::io::Write;
    let mut child = Command::new(FILECHECK)
        .arg(check_file)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {FILECHECK}: {e}"))?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(12)
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

/// What the placement rules fix in one block, by LLVM object identity.
#[derive(Debug, PartialEq, Eq)]
struct BlockSkeleton {
    /// The block's instructions, as a set.
    members: Vec<Val>,
    /// PHIs (as a set) and the instruction that must lead the block.
    head: (Vec<Val>, Option<Val>),
    /// Outputs in order (terminator included).
    outputs: Vec<Val>,
    /// Pairs that must stay adjacent (`musttail` call and `ret`...).
    glued: Vec<(Val, Val)>,
    /// Each reader with the number of outputs before it.
    readers: Vec<(Val, usize)>,
    /// Each pure instruction with the number of outputs before it.
    pure: Vec<(Val, usize)>,
}

fn block_skeleton(insts: &[Inst]) -> BlockSkeleton {
    let mut members: Vec<Val> = insts.iter().map(|i| i.val()).collect();
    members.sort();
    let mut phis: Vec<Val> = insts
        .iter()
        .filter(|i| i.opcode() == LLVMOpcode::LLVMPHI)
        .map(|i| i.val())
        .collect();
    phis.sort();
    let lead = insts
        .iter()
        .find(|i| i.opcode() != LLVMOpcode::LLVMPHI)
        .filter(|i| must_lead(**i))
        .map(|i| i.val());
    let mut glued: Vec<(Val, Val)> = insts
        .windows(2)
        .filter(|w| glued_to_previous(w[1]))
        .map(|w| (w[0].val(), w[1].val()))
        .collect();
    glued.sort();
    let (mut outputs, mut readers, mut pure) = (Vec::new(), Vec::new(), Vec::new());
    for i in insts {
        if i.opcode() == LLVMOpcode::LLVMPHI {
            continue;
        }
        if is_output(*i) {
            outputs.push(i.val());
        } else if i.may_read_memory() {
            readers.push((i.val(), outputs.len()));
        } else {
            pure.push((i.val(), outputs.len()));
        }
    }
    readers.sort();
    pure.sort();
    BlockSkeleton {
        members,
        head: (phis, lead),
        outputs,
        glued,
        readers,
        pure,
    }
}

/// Every defined function's blocks (by block identity) and their skeletons.
fn module_skeleton(m: &IrModule<'_>) -> BTreeMap<Val, BlockSkeleton> {
    let mut out = BTreeMap::new();
    for f in m.functions() {
        for b in f.blocks() {
            out.insert(b.as_val(), block_skeleton(&b.instructions()));
        }
    }
    out
}

/// Whether `after` keeps what `before` fixes. With `pure_down_only`, a pure
/// instruction may sink below outputs but never rise above one (canon's
/// promise); without, pure instructions may go anywhere (perturbations:
/// canon places them from their users, not from where they were).
fn skeleton_kept(
    before: &BTreeMap<Val, BlockSkeleton>,
    after: &BTreeMap<Val, BlockSkeleton>,
    pure_down_only: bool,
) -> Result<(), String> {
    if before.len() != after.len() {
        return Err(format!(
            "{} blocks before, {} after",
            before.len(),
            after.len()
        ));
    }
    for (b, s) in before {
        let t = after.get(b).ok_or("a block disappeared")?;
        let what = if s.members != t.members {
            "instructions moved between blocks"
        } else if s.head != t.head {
            "PHIs or leading EH pad moved"
        } else if s.outputs != t.outputs {
            "outputs reordered"
        } else if s.glued != t.glued {
            "a glued pair came apart"
        } else if s.readers != t.readers {
            "a reader crossed an output"
        } else if pure_down_only && s.pure.iter().zip(&t.pure).any(|(a, b)| b.1 < a.1) {
            "a pure instruction rose above an output"
        } else {
            continue;
        };
        let name = b.as_block().map(|b| b.name()).unwrap_or_default();
        return Err(format!("block {name:?}: {what}"));
    }
    Ok(())
}

/// Canonicalizes in place and checks the placement skeleton, verification
/// and idempotence.
fn check_module(name: &str, text: &str) -> Result<String, String> {
    let session = Session::new();
    let m = session
        .parse(text.as_bytes(), name)
        .map_err(|e| format!("parse: {e}"))?;
    m.verify().map_err(|e| format!("input: {e}"))?;
    let before = module_skeleton(&m);
    canonicalize(&m, &CanonOptions::default());
    m.verify()
        .map_err(|e| format!("canonical form does not verify: {e}"))?;
    skeleton_kept(&before, &module_skeleton(&m), true)?;
    let c1 = canon(text, name).map_err(|e| e.to_string())?;
    let c2 = canon(&c1, name).map_err(|e| format!("canon(canon(m)): {e}"))?;
    if c1 != c2 {
        return Err(format!(
            "not idempotent:\n{}",
            common::first_diff_labeled(&c1, &c2, 16, "canon(m)", "canon(canon(m))")
        ));
    }
    Ok(c1)
}

/// Compiles a `.ll` text with clang-22 and runs it.
fn run_ll(text: &str, dir: &Path, stem: &str) -> Result<common::RunResult, String> {
    let ll = dir.join(format!("{stem}.ll"));
    let exe = dir.join(format!("{stem}.exe"));
    std::fs::write(&ll, text).unwrap();
    let mut cmd = Command::new(common::CLANG);
    cmd.args(["-O0", "-w", "-o"]).arg(&exe).arg(&ll);
    if text.contains("__gxx_personality_v0") {
        cmd.arg("-lstdc++");
    }
    let out = cmd.output().map_err(|e| format!("clang: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "clang-22 {stem}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    common::run_exe(&exe, Duration::from_secs(10)).ok_or_else(|| format!("{stem} timed out"))
}

#[test]
fn rule_modules_canonicalize_validly_and_mean_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut runnable = 0;
    for (name, text) in rule_modules() {
        let c = match check_module(&name, &text) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if let Err(e) = filecheck(&rule_dir().join(&name), &without_comment_lines(&c)) {
            failures.push(format!("{name}: FileCheck:\n{e}"));
        }
        if text.contains("define i32 @main(") {
            runnable += 1;
            let stem = name.trim_end_matches(".ll");
            match (
                run_ll(&text, dir.path(), &format!("{stem}.orig")),
                run_ll(&c, dir.path(), &format!("{stem}.canon")),
            ) {
                (Ok(a), Ok(b)) if a == b => {}
                (a, b) => failures.push(format!("{name}: runs differ: {a:?} vs {b:?}")),
            }
        }
    }
    assert!(runnable >= 6, "too few runnable rule modules: {runnable}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Applies one perturbation in place: `Ok(None)` when it does not apply
/// (LLVM rejects the result, or it moved something the rules fix).
fn perturbed(name: &str, text: &str, kind: Kind, seed: u64) -> Result<Option<String>, String> {
    let session = Session::new();
    let m = session
        .parse(text.as_bytes(), name)
        .map_err(|e| e.to_string())?;
    let before = module_skeleton(&m);
    if irgit_testkit::perturb::apply(&m, kind, seed).is_err() {
        return Ok(None);
    }
    if skeleton_kept(&before, &module_skeleton(&m), false).is_err() {
        return Ok(None);
    }
    Ok(Some(m.print()))
}

#[test]
fn rule_modules_are_invariant_under_perturbations() {
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for (name, text) in rule_modules() {
        // A perturbed module is printed by LLVM, which adds a
        // `source_filename` line: compare with the unperturbed module
        // printed the same way.
        let printed = Session::new()
            .parse(text.as_bytes(), &name)
            .map(|m| m.print())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let base = canon(&printed, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (mut applied, mut skipped) = (0, 0);
        for kind in Kind::ALL {
            for &seed in SEEDS {
                match perturbed(&name, &text, kind, seed) {
                    Err(e) => failures.push(format!("{name} {}: {e}", kind.name())),
                    Ok(None) => skipped += 1,
                    Ok(Some(p)) => {
                        applied += 1;
                        match canon(&p, &name) {
                            Ok(c) if c == base => {}
                            Ok(c) => failures.push(format!(
                                "{name} {} seed {seed}:\n{}",
                                kind.name(),
                                common::first_diff(&base, &c, 16)
                            )),
                            Err(e) => failures.push(format!(
                                "{name} {} seed {seed}: canon(π(m)): {e}",
                                kind.name()
                            )),
                        }
                    }
                }
            }
        }
        assert!(applied >= 6, "{name}: only {applied} perturbations apply");
        summary.push(format!(
            "{name}: {applied} applied, {skipped} not applicable"
        ));
    }
    println!("{}", summary.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn invalid_modules_are_refused_cleanly() {
    let files = ll_files(&rule_dir().join("invalid"));
    assert!(files.len() >= 5, "too few invalid modules: {}", files.len());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let llvm = Command::new(OPT)
            .args(["-passes=verify", "-disable-output"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            !llvm.status.success(),
            "{name}: LLVM accepts it; not an invalid module"
        );
        match canon(&text, &name) {
            Err(CanonError::Ir { name: n, source }) => {
                assert_eq!(n, name);
                assert!(!source.to_string().is_empty());
            }
            other => panic!("{name}: expected a refusal of the input, got {other:?}"),
        }
        let cli = Command::new(env!("CARGO_BIN_EXE_irgit"))
            .arg("canon")
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&cli.stderr);
        assert_eq!(cli.status.code(), Some(1), "{name}: {stderr}");
        assert!(
            stderr.contains(&name),
            "{name}: error does not name the file: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(
            cli.stdout.is_empty(),
            "{name}: printed output for a refused input"
        );
    }
}

#[test]
fn corpus_keeps_the_placement_rules() {
    let mut failures = Vec::new();
    for m in common::corpus() {
        if let Err(e) = check_module(&m.name, &m.text) {
            failures.push(format!("{}: {e}", m.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// One tool's outcome on one valid module.
#[derive(Debug, Default, Clone, Copy)]
struct Outcome {
    failed: bool,
    invalid: bool,
    idempotent: bool,
}

fn irgit_outcome(name: &str, text: &str) -> Outcome {
    match canon(text, name) {
        Err(CanonError::Internal { .. }) => Outcome {
            invalid: true,
            ..Outcome::default()
        },
        Err(_) => Outcome {
            failed: true,
            ..Outcome::default()
        },
        Ok(c1) => {
            let reparsed = Session::new()
                .parse(c1.as_bytes(), name)
                .and_then(|m| m.verify());
            Outcome {
                failed: false,
                invalid: reparsed.is_err(),
                idempotent: canon(&c1, name).is_ok_and(|c2| c2 == c1),
            }
        }
    }
}

/// `opt -passes=normalize` on a file; `Err` when opt fails or crashes.
fn opt_normalize(input: &Path, output: &Path) -> Result<String, String> {
    let out = Command::new(OPT)
        .args(["-S", "-passes=normalize", "-disable-verify"])
        .arg(input)
        .arg("-o")
        .arg(output)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    // The `; ModuleID` line names the file opt read; it differs between
    // the first and the second run by construction.
    let text = std::fs::read_to_string(output).unwrap();
    Ok(text
        .lines()
        .filter(|l| !l.starts_with("; ModuleID"))
        .map(|l| format!("{l}\n"))
        .collect())
}

fn llvm_verifies(path: &Path) -> bool {
    Command::new(OPT)
        .args(["-passes=verify", "-disable-output"])
        .arg(path)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn opt_outcome(text: &str, dir: &Path, stem: &str) -> Outcome {
    let input = dir.join(format!("{stem}.in.ll"));
    let (n1, n2) = (
        dir.join(format!("{stem}.n1.ll")),
        dir.join(format!("{stem}.n2.ll")),
    );
    std::fs::write(&input, text).unwrap();
    let Ok(first) = opt_normalize(&input, &n1) else {
        return Outcome {
            failed: true,
            ..Outcome::default()
        };
    };
    if !llvm_verifies(&n1) {
        return Outcome {
            invalid: true,
            ..Outcome::default()
        };
    }
    Outcome {
        failed: false,
        invalid: false,
        idempotent: opt_normalize(&n1, &n2).is_ok_and(|second| second == first),
    }
}

#[derive(Default)]
struct Tally {
    files: usize,
    failed: usize,
    invalid: usize,
    idempotent: usize,
}

impl Tally {
    fn add(&mut self, o: Outcome) {
        self.files += 1;
        self.failed += o.failed as usize;
        self.invalid += o.invalid as usize;
        self.idempotent += o.idempotent as usize;
    }

    fn row(&self, set: &str, tool: &str) -> String {
        format!(
            "| {set} | {tool} | {} | {} | {} | {}/{} ({:.1}%) |",
            self.files,
            self.failed,
            self.invalid,
            self.idempotent,
            self.files,
            100.0 * self.idempotent as f64 / self.files.max(1) as f64
        )
    }
}

#[test]
fn report_against_opt_normalize() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rule_modules();
    let corpus: Vec<(String, String)> = common::corpus()
        .iter()
        .map(|m| (m.name.clone(), m.text.clone()))
        .collect();
    let mut rows = Vec::new();
    let mut details = Vec::new();
    let mut irgit_bad = Vec::new();
    for (set, modules) in [("rule modules", &rules), ("corpus", &corpus)] {
        let (mut ours, mut theirs) = (Tally::default(), Tally::default());
        for (k, (name, text)) in modules.iter().enumerate() {
            let o = irgit_outcome(name, text);
            let n = opt_outcome(text, dir.path(), &format!("m{k}"));
            if o.failed || o.invalid || !o.idempotent {
                irgit_bad.push(format!("{name}: {o:?}"));
            }
            if n.failed || n.invalid || !n.idempotent {
                details.push(format!("- {set} `{name}`: normalize {n:?}"));
            }
            ours.add(o);
            theirs.add(n);
        }
        rows.push(ours.row(set, "irgit canon"));
        rows.push(theirs.row(set, "opt -passes=normalize"));
    }
    let mut refused = (0, 0, 0);
    for path in ll_files(&rule_dir().join("invalid")) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        refused.0 += 1;
        refused.1 += matches!(canon(&text, &name), Err(CanonError::Ir { .. })) as usize;
        // opt as a user runs it: verifying its input.
        refused.2 += !Command::new(OPT)
            .args(["-S", "-passes=normalize", "-o", "/dev/null"])
            .arg(&path)
            .output()
            .is_ok_and(|o| o.status.success()) as usize;
    }
    let report = format!(
        "# Canonical form on LLVM's placement rules\n\n\
         | set | tool | files | failures | invalid outputs | idempotent |\n\
         |---|---|---:|---:|---:|---:|\n{}\n\n\
         Inputs LLVM rejects ({}): refused cleanly by irgit {}, by opt {}.\n\n\
         Files where `opt -passes=normalize` fails, produces invalid IR or is not idempotent:\n\n{}\n",
        rows.join("\n"),
        refused.0,
        refused.1,
        refused.2,
        details.join("\n")
    );
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("canon-rules-report.md");
    std::fs::write(&path, &report).unwrap();
    println!("{report}\n(written to {})", path.display());
    assert!(irgit_bad.is_empty(), "irgit: {}", irgit_bad.join("\n"));
    assert_eq!(
        refused.1, refused.0,
        "irgit must refuse every invalid input"
    );
}
