//! Shared support for the merge tests and the merge benchmark: running
//! `irgit merge` the way git does, classifying what it did, canonical
//! comparison, LLVM tools, and clean git repositories in temp directories.
//!
//! A merge is judged on canonical forms, never on raw text: a driver may
//! print `%add.5e1c` where the hand-written expectation says `%1`.
//!
//! ```text
//! Base: %1 = add i32 %x, 1      Left: %1 = add i32 %x, 10     Right: %1 = add i32 %x, 1
//!       %2 = mul i32 %1, 2            %2 = mul i32 %1, 2             %2 = mul i32 %1, 2
//!                                                                    %3 = shl i32 %2, 1
//! merged output is accepted iff canon(output) == canon(add 10; mul 2; shl 1)
//! ```
#![allow(dead_code)]

pub mod triples;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use irgit::config::CanonOptions;

/// The case directories under `root`, sorted.
pub fn case_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Absolute path of the `irgit` binary cargo built for this test or bench.
pub fn irgit_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_irgit"))
}

/// An LLVM 22 tool: `/usr/lib/llvm-22/bin/<name>` when present, else
/// `<name>-22` from PATH.
pub fn llvm_tool(name: &str) -> PathBuf {
    let p = Path::new("/usr/lib/llvm-22/bin").join(name);
    if p.exists() {
        p
    } else {
        PathBuf::from(format!("{name}-22"))
    }
}

/// `clang-22` (the Debian name), or the LLVM 22 directory's `clang`.
pub fn clang() -> PathBuf {
    let p = PathBuf::from("/usr/bin/clang-22");
    if p.exists() {
        p
    } else {
        llvm_tool("clang")
    }
}

/// Canonical form of `text` with every stage on. Panics with the file name
/// and LLVM's message when the text is not valid IR.
pub fn canon(text: &str, name: &str) -> String {
    try_canon(text, name).unwrap_or_else(|e| panic!("{e}"))
}

/// Canonical form of `text`, or the reason it could not be computed.
///
/// Every text is parsed under one module name, so a module without a
/// `source_filename` (hand-written cases) gets the same header whatever file
/// it came from; errors name `name`.
pub fn try_canon(text: &str, name: &str) -> Result<String, String> {
    irgit::canon::canonicalize_bytes(text.as_bytes(), "module.ll", &CanonOptions::default())
        .map_err(|e| format!("{name}: {e}"))
}

/// What one `irgit merge` run did.
#[derive(Debug, Clone)]
pub struct MergeRun {
    /// Exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// The merged file (what git would keep in the work tree).
    pub output: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// The three outcomes the driver contract allows, plus everything else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0, no markers.
    Clean,
    /// Exit 1 with conflict markers of the requested size.
    Conflict,
    /// Anything else: a crash, exit 2 or > 1, exit 0 with markers, exit 1
    /// without markers. The string says what.
    Broken(String),
}

impl MergeRun {
    /// Classifies the run against the contract (marker size `marker`).
    pub fn outcome(&self, marker: usize) -> Outcome {
        let markers = has_conflict_markers(&self.output, marker);
        match (self.code, markers) {
            (Some(0), false) => Outcome::Clean,
            (Some(0), true) => Outcome::Broken("exit 0 but the output has conflict markers".into()),
            (Some(1), true) => Outcome::Conflict,
            (Some(1), false) => {
                Outcome::Broken("exit 1 but no conflict markers in the output".into())
            }
            (Some(c), _) => Outcome::Broken(format!(
                "exit {c} (stderr: {})",
                self.stderr.trim().lines().last().unwrap_or("")
            )),
            (None, _) => Outcome::Broken("killed by a signal".into()),
        }
    }
}

/// Whether `text` has a complete diff3 or merge conflict: lines starting with
/// exactly `size` `<`, then `=`, then `>` (the base section `|` is optional).
pub fn has_conflict_markers(text: &str, size: usize) -> bool {
    let starts = |c: char, line: &str| {
        let n = line.chars().take_while(|&x| x == c).count();
        n == size && line[n..].chars().next().is_none_or(|x| x == ' ')
    };
    let mut stage = 0;
    for line in text.lines() {
        stage = match stage {
            0 if starts('<', line) => 1,
            1 if starts('=', line) => 2,
            2 if starts('>', line) => return true,
            s => s,
        };
    }
    false
}

/// Runs `irgit merge %O %A %B %L %P` exactly as git's driver does: three
/// temp files without extension, the result read back from `%A`.
pub fn merge_as_driver(base: &str, ours: &str, theirs: &str, marker: usize) -> MergeRun {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = dir.path().join(".merge_file_base");
    let a = dir.path().join(".merge_file_ours");
    let b = dir.path().join(".merge_file_theirs");
    std::fs::write(&o, base).unwrap();
    std::fs::write(&a, ours).unwrap();
    std::fs::write(&b, theirs).unwrap();
    let start = Instant::now();
    let out = Command::new(irgit_bin())
        .current_dir(dir.path())
        .arg("merge")
        .arg(&o)
        .arg(&a)
        .arg(&b)
        .arg(marker.to_string())
        .arg("src/module.ll")
        // The cases' Conflict.txt files are written in diff3 style.
        .args(["--style", "diff3"])
        .output()
        .expect("run irgit merge");
    let elapsed = start.elapsed();
    run_result(
        out,
        std::fs::read_to_string(&a).unwrap_or_default(),
        elapsed,
    )
}

/// Runs `irgit merge BASE OURS THEIRS -o OUT` (the form for use outside git).
pub fn merge_cli(base: &Path, ours: &Path, theirs: &Path, out: &Path) -> MergeRun {
    let start = Instant::now();
    let res = Command::new(irgit_bin())
        .arg("merge")
        .arg(base)
        .arg(ours)
        .arg(theirs)
        .arg("-o")
        .arg(out)
        .output()
        .expect("run irgit merge");
    let elapsed = start.elapsed();
    run_result(
        res,
        std::fs::read_to_string(out).unwrap_or_default(),
        elapsed,
    )
}

fn run_result(out: Output, output: String, elapsed: Duration) -> MergeRun {
    MergeRun {
        code: out.status.code(),
        output,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed,
    }
}

/// `git merge-file -p --diff3` on the three texts: (clean, merged text, time).
pub fn git_merge_file(base: &str, ours: &str, theirs: &str) -> (bool, String, Duration) {
    let dir = tempfile::tempdir().expect("temp dir");
    let paths: Vec<PathBuf> = ["ours", "base", "theirs"]
        .iter()
        .zip([ours, base, theirs])
        .map(|(n, t)| {
            let p = dir.path().join(n);
            std::fs::write(&p, t).unwrap();
            p
        })
        .collect();
    let start = Instant::now();
    let out = git_command(dir.path(), dir.path())
        .args(["merge-file", "-p", "--diff3"])
        .args(&paths)
        .output()
        .expect("run git merge-file");
    let elapsed = start.elapsed();
    let code = out.status.code().unwrap_or(-1);
    assert!((0..128).contains(&code), "git merge-file failed: {out:?}");
    (
        code == 0,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        elapsed,
    )
}

/// Compiles C source `src` (a file) to textual IR with `clang-22 -S -emit-llvm`,
/// `-O<opt>`, and `-D<name>` for each define. Value names are discarded,
/// as a release clang does by default: values print as `%0, %1, …`. The module is named after the
/// source file only, so variants of one program print the same header.
pub fn compile_c(src: &Path, opt: &str, defines: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = src.file_name().unwrap();
    let copy = dir.path().join(file);
    std::fs::copy(src, &copy).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    let out_path = dir.path().join("out.ll");
    let mut cmd = Command::new(clang());
    cmd.current_dir(dir.path())
        .args(["-S", "-emit-llvm", "-w", "-fdiscard-value-names"])
        .arg(format!("-O{opt}"))
        .arg("-o")
        .arg(&out_path)
        .arg(file);
    for d in defines {
        cmd.arg(format!("-D{d}"));
    }
    let out = cmd.output().expect("run clang-22");
    assert!(
        out.status.success(),
        "clang-22 failed on {} with {defines:?}: {}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(&out_path).unwrap()
}

/// A random module from `llvm-stress` (`size` instructions, seed `seed`).
pub fn llvm_stress(seed: u64, size: u32) -> String {
    let out = Command::new(llvm_tool("llvm-stress"))
        .arg(format!("-seed={seed}"))
        .arg(format!("-size={size}"))
        .output()
        .expect("run llvm-stress");
    assert!(out.status.success(), "llvm-stress failed: {out:?}");
    String::from_utf8(out.stdout).expect("llvm-stress prints text")
}

/// Time of one `opt -S` (parse, verify, print) on `text`.
pub fn time_opt_s(text: &str) -> Duration {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.ll");
    std::fs::write(&input, text).unwrap();
    let start = Instant::now();
    let out = Command::new(llvm_tool("opt"))
        .arg("-S")
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("out.ll"))
        .output()
        .expect("run opt");
    let elapsed = start.elapsed();
    assert!(out.status.success(), "opt -S failed: {out:?}");
    elapsed
}

/// A `git` command with a clean environment: no system config, a global
/// config file and HOME inside `home`, no inherited `GIT_*` variables.
pub fn git_command(home: &Path, cwd: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.env_clear()
        .current_dir(cwd)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", home.join("gitconfig"))
        .env("LC_ALL", "C")
        .env("GIT_EDITOR", "true")
        .env("GIT_MERGE_AUTOEDIT", "no")
        .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z");
    if let Some(p) = std::env::var_os("LD_LIBRARY_PATH") {
        cmd.env("LD_LIBRARY_PATH", p);
    }
    cmd
}

/// A throw-away git repository with a clean environment.
pub struct Repo {
    pub dir: tempfile::TempDir,
}

impl Repo {
    /// `git init -b main` with user name and email set locally.
    pub fn new() -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("work")).unwrap();
        std::fs::write(dir.path().join("gitconfig"), "").unwrap();
        let repo = Repo { dir };
        repo.ok(&["init", "-q", "-b", "main"]);
        repo.ok(&["config", "user.name", "Merge Harness"]);
        repo.ok(&["config", "user.email", "harness@example.com"]);
        repo.ok(&["config", "commit.gpgsign", "false"]);
        repo
    }

    /// The work tree.
    pub fn path(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    /// Registers irgit as the `llvm-ir` merge driver for `*.ll` (also for
    /// merges of merge bases) the way the README tells users to.
    pub fn install_driver(&self) {
        let driver = format!(
            "{} merge %O %A %B %L %P --base-label %S --ours-label %X --theirs-label %Y",
            irgit_bin().display()
        );
        self.ok(&[
            "config",
            "merge.llvm-ir.name",
            "irgit structured LLVM IR merge",
        ]);
        self.ok(&["config", "merge.llvm-ir.driver", &driver]);
        self.ok(&["config", "merge.llvm-ir.recursive", "llvm-ir"]);
        self.write(".gitattributes", "*.ll merge=llvm-ir\n");
    }

    /// Runs git; returns the raw output.
    pub fn git(&self, args: &[&str]) -> Output {
        git_command(self.dir.path(), &self.path())
            .args(args)
            .output()
            .expect("run git")
    }

    /// Runs git and panics with its stderr unless it succeeds; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.git(args);
        assert!(
            out.status.success(),
            "git {} failed ({}):\n{}{}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.path().join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(p, text).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).unwrap()
    }

    /// Writes `rel`, stages everything and commits with `message`.
    pub fn commit_file(&self, rel: &str, text: &str, message: &str) {
        self.write(rel, text);
        self.ok(&["add", "-A"]);
        self.ok(&["commit", "-q", "-m", message]);
    }

    /// Paths git reports as unmerged (`git ls-files -u`), with their stages.
    pub fn unmerged(&self) -> Vec<(u8, String)> {
        self.ok(&["ls-files", "-u"])
            .lines()
            .filter_map(|l| {
                let (meta, path) = l.split_once('\t')?;
                let stage = meta.split_whitespace().nth(2)?.parse().ok()?;
                Some((stage, path.to_string()))
            })
            .collect()
    }
}

/// The merge of `[base, ours, theirs]` by `route`, in process.
pub fn merge_by(route: irgit::merge::Route, triple: [&str; 3]) -> irgit::merge::Outcome {
    let inputs = triple.map(str::as_bytes);
    irgit::merge::merge_bytes_by(
        route,
        inputs.into(),
        "m.ll",
        &irgit::merge::Markers::default(),
    )
    .unwrap_or_else(|e| panic!("merge failed: {e}"))
}

/// The bytes an outcome writes.
pub fn written(o: &irgit::merge::Outcome) -> String {
    match &o.bytes {
        Some(b) => String::from_utf8_lossy(b).into_owned(),
        None => o.text.clone(),
    }
}
