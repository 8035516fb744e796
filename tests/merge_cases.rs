//! The merge case directories, turned into tests by a glob.
//!
//! `tests/merge/working/<case>/` holds `Base.ll`, `Left.ll` (ours),
//! `Right.ll` (theirs) and either `Expected.ll` (a clean merge: `irgit merge`
//! exits 0 and its output has the canonical form of `Expected.ll`) or
//! `Conflict.txt` (exit 1, conflict markers, and every non-empty line of
//! `Conflict.txt` appears somewhere in the output). Example (case
//! `different_blocks`): Left changes `mul i32 %x, 3` in one block, Right
//! inserts `%3 = add i32 %2, 1` in another, renumbering `%3` to `%4`; a line
//! merge conflicts on the renumbered PHI, the structured merge must not.
//!
//! Each directory is a test of its own, named after it (`working::<case>`,
//! `failing::<case>`): `cargo test --test merge_cases -- working::block_added`
//! runs one.
//!
//! `tests/merge/failing/<case>/` holds known gaps: the same files plus a
//! `README.md` saying what happens now and what should. The runner checks
//! that they still fail (so a fix is noticed and the case moves to
//! `working/`); a line `exit: N` in the README pins the current exit code.

mod merge_support;

use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Failed, Trial};
use merge_support::{canon, merge_as_driver, try_canon, MergeRun, Outcome};

/// Marker size passed as `%L` (not git's default, to catch drivers that ignore it).
const MARKER: usize = 9;

fn cases(kind: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/merge")
        .join(kind);
    if kind == "failing" && !root.exists() {
        return Vec::new();
    }
    merge_support::case_dirs(&root)
}

fn read(dir: &Path, name: &str) -> String {
    let p = dir.join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// What the case asks for.
enum Expectation {
    Clean(String),
    Conflict(Vec<String>),
}

fn expectation(dir: &Path) -> Expectation {
    let exp = dir.join("Expected.ll");
    let conf = dir.join("Conflict.txt");
    match (exp.exists(), conf.exists()) {
        (true, false) => Expectation::Clean(read(dir, "Expected.ll")),
        (false, true) => Expectation::Conflict(
            read(dir, "Conflict.txt")
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(|l| adapt_marker(l, MARKER))
                .collect(),
        ),
        _ => panic!(
            "{}: needs exactly one of Expected.ll and Conflict.txt",
            dir.display()
        ),
    }
}

/// `Conflict.txt` writes markers with git's default size 7; the runner asks
/// for size [`MARKER`].
fn adapt_marker(line: &str, size: usize) -> String {
    for c in ['<', '|', '=', '>'] {
        let n = line.chars().take_while(|&x| x == c).count();
        if n == 7 {
            return format!("{}{}", c.to_string().repeat(size), &line[7..]);
        }
    }
    line.to_string()
}

/// Runs one case; `Ok` if the merge met the expectation, else why not.
fn check(dir: &Path) -> (Result<(), String>, MergeRun) {
    let (base, left, right) = (
        read(dir, "Base.ll"),
        read(dir, "Left.ll"),
        read(dir, "Right.ll"),
    );
    let run = merge_as_driver(&base, &left, &right, MARKER);
    let verdict = match (expectation(dir), run.outcome(MARKER)) {
        (_, Outcome::Broken(why)) => Err(format!("broken run: {why}")),
        (Expectation::Clean(_), Outcome::Conflict) => {
            Err("conflict where a clean merge is expected".into())
        }
        (Expectation::Conflict(_), Outcome::Clean) => {
            Err("clean merge where a conflict is expected".into())
        }
        (Expectation::Clean(expected), Outcome::Clean) => {
            let want = canon(&expected, &dir.join("Expected.ll").display().to_string());
            match try_canon(&run.output, "merged output") {
                Err(e) => Err(format!("the merged output is not valid IR: {e}")),
                Ok(got) if got == want => Ok(()),
                Ok(got) => Err(format!(
                    "wrong clean merge; canonical output:\n{got}\ncanonical Expected.ll:\n{want}"
                )),
            }
        }
        (Expectation::Conflict(lines), Outcome::Conflict) => {
            let missing: Vec<&String> = lines
                .iter()
                .filter(|l| !run.output.contains(l.as_str()))
                .collect();
            if missing.is_empty() {
                Ok(())
            } else {
                Err(format!("conflict output lacks {missing:?}"))
            }
        }
    };
    (verdict, run)
}

fn name(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

/// The case's input files that LLVM rejects (a case must be valid IR).
fn invalid_files(dir: &Path) -> Vec<String> {
    ["Base.ll", "Left.ll", "Right.ll", "Expected.ll"]
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.exists())
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            try_canon(&text, &p.display().to_string()).err()
        })
        .collect()
}

/// A working case: valid IR, merged as it expects.
fn working_case(dir: &Path) -> Result<(), Failed> {
    let bad = invalid_files(dir);
    if !bad.is_empty() {
        return Err(format!("invalid case files:\n{}", bad.join("\n")).into());
    }
    let (verdict, run) = check(dir);
    let Err(why) = verdict else { return Ok(()) };
    let shown = if why.starts_with("broken") || why.starts_with("wrong") {
        String::new()
    } else {
        format!("\n    output:\n{}", run.output)
    };
    Err(format!(
        "{why}\n    exit {:?}; stderr: {}{shown}",
        run.code,
        run.stderr.trim()
    )
    .into())
}

/// A known gap: still failing, with the exit code its README pins.
fn failing_case(dir: &Path) -> Result<(), Failed> {
    let readme = read(dir, "README.md");
    let (verdict, run) = check(dir);
    let Err(why) = verdict else {
        return Err("now merges as expected: move it to tests/merge/working/".into());
    };
    let pinned = readme
        .lines()
        .find_map(|l| l.trim().strip_prefix("exit:"))
        .map(|s| s.trim().parse::<i32>().expect("README `exit: N`"));
    match pinned {
        Some(code) if run.code != Some(code) => Err(format!(
            "README says exit {code} now, got {:?} ({why}); update the README",
            run.code
        )
        .into()),
        _ => Ok(()),
    }
}

fn marker_adaptation() -> Result<(), Failed> {
    assert_eq!(adapt_marker("<<<<<<<", 9), "<<<<<<<<<");
    assert_eq!(adapt_marker("||||||| base", 9), "||||||||| base");
    assert_eq!(adapt_marker("i32 42", 9), "i32 42");
    Ok(())
}

/// One test per case directory, named after it (`working::block_added`),
/// so that one failing case hides none of the others.
fn main() {
    let args = Arguments::from_args();
    let working = cases("working");
    assert!(
        working.len() >= 15,
        "expected the full case set, found {}",
        working.len()
    );
    let mut trials = vec![Trial::test("marker_adaptation", marker_adaptation)];
    for dir in working {
        let name = format!("working::{}", name(&dir));
        trials.push(Trial::test(name, move || working_case(&dir)));
    }
    for dir in cases("failing") {
        let name = format!("failing::{}", name(&dir));
        trials.push(Trial::test(name, move || failing_case(&dir)));
    }
    libtest_mimic::run(&args, trials).exit();
}
