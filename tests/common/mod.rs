//! Shared test support: the corpus of real IR the canonical-form properties
//! are checked on, built once per test process and cached on disk.
//!
//! ```text
//! tests/corpus/loops.c ──clang-22 -O0/-O2 -S -emit-llvm──► c/loops.O0.ll, c/loops.O2.ll
//! csmith --seed N      ──clang-22 -O0/-O2──────────────────► csmith/csN.O0.ll, ...
//! llvm-stress -seed=N  ─────────────────────────────────────► stress/sN.ll
//! each runnable .ll ──clang-22──► binary ──run──► expected stdout + exit status
//! ```
//!
//! Files go to `$CARGO_TARGET_TMPDIR/irgit-corpus`, named with a hash of
//! their inputs, and are written through a temporary file and a rename, so
//! concurrent test binaries never see half-written files.
#![allow(dead_code)]

pub mod c_edits;
pub mod comments;
pub mod edit_counts;
pub mod ll_edits;
pub mod lua;
pub mod speed;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use irgit::config::CanonOptions;
use irgit::ir::Session;

pub const CLANG: &str = "clang-22";
pub const LLVM_STRESS: &str = "/usr/lib/llvm-22/bin/llvm-stress";
pub const CSMITH: &str = "csmith";
pub const CSMITH_INCLUDE: &str = "/usr/include/csmith";
/// lit, from Debian's llvm-22-tools.
pub const LIT: &str = "/usr/lib/llvm-22/bin/lit";
pub const LLVM_AS: &str = "/usr/lib/llvm-22/bin/llvm-as";

/// Csmith seeds tried; one whose program does not finish in time is skipped.
pub const CSMITH_SEEDS: &[u64] = &[1, 2, 3, 4, 5, 6];
/// llvm-stress seeds (size 300).
pub const STRESS_SEEDS: &[u64] = &[1, 2, 3, 4, 5];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    C,
    Csmith,
    Stress,
}

/// What running a program printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunResult {
    pub stdout: String,
    pub status: Option<i32>,
}

/// One corpus module.
#[derive(Debug, Clone)]
pub struct CorpusModule {
    /// e.g. `c/loops.O2`, `csmith/cs3.O0`, `stress/s4`.
    pub name: String,
    pub origin: Origin,
    pub path: PathBuf,
    pub text: String,
    /// What the original prints (C and Csmith modules only).
    pub expected: Option<RunResult>,
}

/// FNV-1a, for cache keys.
pub fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

pub fn cache_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("irgit-corpus");
    std::fs::create_dir_all(&d).expect("create corpus cache dir");
    d
}

/// Maps `f` over `items` on up to four threads, keeping their order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(4);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        if i >= items.len() {
                            break;
                        }
                        mine.push((i, f(&items[i])));
                    }
                    mine
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let tmp = path.with_extension(format!("tmp{}-{n}", std::process::id()));
    std::fs::write(&tmp, bytes).unwrap_or_else(|e| panic!("write {}: {e}", tmp.display()));
    std::fs::rename(&tmp, path).unwrap_or_else(|e| panic!("rename to {}: {e}", path.display()));
}

/// Runs a command, panicking with its stderr if it fails.
pub fn run_ok(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `opt-22 ARGS -S` of IR `text`: its output, or its stderr when it fails.
pub fn opt_text(args: &[&str], text: &str) -> Result<String, String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.ll");
    std::fs::write(&input, text).expect("write opt's input");
    let out = Command::new("/usr/lib/llvm-22/bin/opt")
        .args(args)
        .args(["-S", "-o", "-"])
        .arg(&input)
        .output()
        .map_err(|e| format!("cannot run opt-22: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Compiles a `.ll` file to an executable (clang-22 -O0, warnings off).
pub fn compile_ll(ll: &Path, exe: &Path) -> Result<(), String> {
    let out = Command::new(CLANG)
        .args(["-O0", "-w", "-o"])
        .arg(exe)
        .arg(ll)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run {CLANG}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{CLANG} could not compile {}: {}",
            ll.display(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Runs an executable with a time limit (`None` if it did not finish).
pub fn run_exe(exe: &Path, limit: Duration) -> Option<RunResult> {
    let out = Command::new("timeout")
        .arg(format!("{}", limit.as_secs_f64()))
        .arg(exe)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    if out.status.code() == Some(124) {
        return None;
    }
    Some(RunResult {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        status: out.status.code(),
    })
}

fn expected_for(ll: &Path) -> Option<RunResult> {
    let stamp = ll.with_extension("expected");
    if let Ok(s) = std::fs::read_to_string(&stamp) {
        if s == "TIMEOUT" {
            return None;
        }
        let (status, stdout) = s.split_once('\n').unwrap_or((&s, ""));
        return Some(RunResult {
            stdout: stdout.to_string(),
            status: status.parse().ok(),
        });
    }
    let exe = ll.with_extension("exe");
    compile_ll(ll, &exe).unwrap_or_else(|e| panic!("corpus: {e}"));
    let r = run_exe(&exe, Duration::from_secs(3));
    let _ = std::fs::remove_file(&exe);
    let body = match &r {
        None => "TIMEOUT".to_string(),
        Some(r) => format!(
            "{}\n{}",
            r.status.map(|s| s.to_string()).unwrap_or_default(),
            r.stdout
        ),
    };
    write_atomic(&stamp, body.as_bytes());
    r
}

/// Compiles C `src` to textual IR at `out` (kept: nothing to do when it
/// exists).
pub fn clang_to_ll(src: &Path, out: &Path, opt: &str, extra: &[&str]) {
    if out.exists() {
        return;
    }
    // One temporary per thread: tests compile the same sources concurrently.
    let tmp = out.with_extension(format!(
        "tmp{}-{:?}.ll",
        std::process::id(),
        std::thread::current().id()
    ));
    run_ok(
        Command::new(CLANG)
            .args([opt, "-S", "-emit-llvm", "-w"])
            .args(extra)
            .arg(src)
            .arg("-o")
            .arg(&tmp),
        &format!("{CLANG} {opt} {}", src.display()),
    );
    std::fs::rename(&tmp, out).expect("rename corpus file");
}

/// The C programs of `tests/corpus`, sorted.
pub fn corpus_sources() -> Vec<PathBuf> {
    c_files_in("tests/corpus")
}

/// The `.c` files of directory `rel` of the project, sorted.
pub fn c_files_in(rel: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    v.sort();
    v
}

/// One unit of corpus-building work.
enum Job {
    C {
        src: PathBuf,
        opt: &'static str,
        debug: bool,
    },
    Csmith {
        seed: u64,
        opt: &'static str,
    },
    Stress {
        seed: u64,
        size: u64,
    },
}

fn build_job(job: &Job, dir: &Path) -> Option<CorpusModule> {
    match job {
        Job::C { src, opt, debug } => {
            let bytes = std::fs::read(src).expect("read corpus source");
            let stem = src.file_stem().unwrap().to_string_lossy().into_owned();
            let variant = format!("{}{}", &opt[1..], if *debug { "g" } else { "" });
            let key = fnv(&bytes);
            let out = dir.join(format!("c-{stem}.{variant}.{key:016x}.ll"));
            let extra: &[&str] = if *debug { &["-g"] } else { &[] };
            clang_to_ll(src, &out, opt, extra);
            let expected = expected_for(&out);
            Some(CorpusModule {
                name: format!("c/{stem}.{variant}"),
                origin: Origin::C,
                text: std::fs::read_to_string(&out).unwrap(),
                path: out,
                expected: Some(expected.expect("corpus C program must finish within 3 s")),
            })
        }
        Job::Csmith { seed, opt } => {
            let c = dir.join(format!("csmith-{seed}.c"));
            if !c.exists() {
                // The -O0 and -O2 jobs of one seed may race here: each writes
                // its own temporary file and the rename is atomic, so whichever
                // lands, `c` holds a whole program (csmith is deterministic).
                let tmp = dir.join(format!(
                    "csmith-{seed}.{}.tmp{}.c",
                    &opt[1..],
                    std::process::id()
                ));
                run_ok(
                    Command::new(CSMITH)
                        .current_dir(dir) // csmith writes platform.info into its cwd
                        .args(["--seed", &seed.to_string(), "--no-packed-struct", "-o"])
                        .arg(&tmp),
                    &format!("csmith --seed {seed}"),
                );
                if let Err(e) = std::fs::rename(&tmp, &c) {
                    assert!(c.exists(), "cannot create {}: {e}", c.display());
                    let _ = std::fs::remove_file(&tmp);
                }
            }
            let out = dir.join(format!("csmith-{seed}.{}.ll", &opt[1..]));
            clang_to_ll(&c, &out, opt, &["-I", CSMITH_INCLUDE]);
            let expected = expected_for(&out)?; // skip seeds that hang
            Some(CorpusModule {
                name: format!("csmith/cs{seed}.{}", &opt[1..]),
                origin: Origin::Csmith,
                text: std::fs::read_to_string(&out).unwrap(),
                path: out,
                expected: Some(expected),
            })
        }
        Job::Stress { seed, size } => {
            let out = dir.join(format!("stress-{seed}-{size}.ll"));
            if !out.exists() {
                stress_module(*seed, *size, &out);
            }
            Some(CorpusModule {
                name: format!("stress/s{seed}-{size}"),
                origin: Origin::Stress,
                text: std::fs::read_to_string(&out).unwrap(),
                path: out,
                expected: None,
            })
        }
    }
}

/// Writes an llvm-stress module (one function of about `size` instructions).
pub fn stress_module(seed: u64, size: u64, out: &Path) {
    let tmp = out.with_extension(format!("tmp{}.ll", std::process::id()));
    run_ok(
        Command::new(LLVM_STRESS)
            .arg(format!("-seed={seed}"))
            .arg(format!("-size={size}"))
            .arg("-o")
            .arg(&tmp),
        &format!("llvm-stress -seed={seed} -size={size}"),
    );
    std::fs::rename(&tmp, out).unwrap();
}

/// Assembles the text module `input` into bitcode at `out`, with more of
/// llvm-as's `options` (`-disable-verify`).
pub fn llvm_as(input: &Path, out: &Path, options: &[&str]) {
    run_ok(
        Command::new(LLVM_AS)
            .args(options)
            .arg(input)
            .arg("-o")
            .arg(out),
        &format!("llvm-as {}", input.display()),
    );
}

/// The whole corpus, built once per process (in parallel) and cached on disk.
pub fn corpus() -> &'static [CorpusModule] {
    static CORPUS: OnceLock<Vec<CorpusModule>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = cache_dir();
        let mut jobs = Vec::new();
        for src in corpus_sources() {
            // -g builds: debug records ride along when instructions move, and
            // must never end up on a PHI (-O2 has PHIs with #dbg_value nearby).
            let debug_variant = src.file_stem().is_some_and(|s| {
                ["structs", "loops", "switches", "floats"].contains(&&*s.to_string_lossy())
            });
            jobs.push(Job::C {
                src: src.clone(),
                opt: "-O0",
                debug: false,
            });
            jobs.push(Job::C {
                src: src.clone(),
                opt: "-O2",
                debug: false,
            });
            if debug_variant {
                jobs.push(Job::C {
                    src,
                    opt: "-O2",
                    debug: true,
                });
            }
        }
        for &seed in CSMITH_SEEDS {
            for opt in ["-O0", "-O2"] {
                jobs.push(Job::Csmith { seed, opt });
            }
        }
        for &seed in STRESS_SEEDS {
            jobs.push(Job::Stress { seed, size: 300 });
        }
        let corpus: Vec<CorpusModule> = par_map(&jobs, |job| build_job(job, &dir))
            .into_iter()
            .flatten()
            .collect();
        assert!(
            corpus.len() >= 30,
            "corpus too small: {} modules",
            corpus.len()
        );
        corpus
    })
}

/// Canonical form with the default options.
pub fn canon(text: &str, name: &str) -> Result<String, String> {
    irgit::canon::canonicalize_bytes(text.as_bytes(), name, &CanonOptions::default())
        .map_err(|e| e.to_string())
}

/// The textconv view of `text` (as `test.ll`, default settings); panics
/// with the reason when there is none.
pub fn view(text: &str) -> String {
    irgit::canon::view::view_bytes(
        text.as_bytes(),
        "test.ll",
        &CanonOptions::default(),
        (irgit::canon::Cleanup::Free, irgit::canon::InputCheck::First),
    )
    .unwrap_or_else(|e| panic!("view failed: {e}"))
}

/// `irgit::merge::merge_bytes` with default markers on `m.ll`: the outcome
/// and the bytes it writes, as text.
pub fn merge_in_process(base: &str, ours: &str, theirs: &str) -> (irgit::merge::Outcome, String) {
    let m = irgit::merge::Markers::default();
    let r = irgit::merge::merge_bytes(
        base.as_bytes(),
        ours.as_bytes(),
        theirs.as_bytes(),
        "m.ll",
        &m,
    )
    .unwrap_or_else(|e| panic!("the merge fails: {e}"));
    let text = String::from_utf8(irgit::merge::output_bytes(ours.as_bytes(), &r, "m.ll").unwrap())
        .unwrap();
    (r, text)
}

/// Parses, applies a perturbation (which must keep the module verifying),
/// prints.
pub fn perturbed(
    text: &str,
    name: &str,
    kind: irgit_testkit::perturb::Kind,
    seed: u64,
) -> Result<String, String> {
    let s = Session::new();
    let m = s.parse(text.as_bytes(), name).map_err(|e| e.to_string())?;
    irgit_testkit::perturb::apply(&m, kind, seed).map_err(|e| format!("{name}: {e}"))?;
    Ok(m.print())
}

/// Parses, applies edits, prints.
pub fn mutated(
    text: &str,
    name: &str,
    edits: &[irgit_testkit::mutate::Edit],
) -> Result<String, String> {
    let s = Session::new();
    let m = s.parse(text.as_bytes(), name).map_err(|e| e.to_string())?;
    irgit_testkit::mutate::apply_all(&m, edits).map_err(|e| format!("{name}: {e}"))?;
    Ok(m.print())
}

/// Line diff size: (removed, added), by an LCS over lines (Myers, `similar`).
pub fn diff_size(a: &str, b: &str) -> (usize, usize) {
    use similar::{ChangeTag, TextDiff};
    let d = TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_lines(a, b);
    let (mut rem, mut add) = (0, 0);
    for c in d.iter_all_changes() {
        match c.tag() {
            ChangeTag::Delete => rem += 1,
            ChangeTag::Insert => add += 1,
            ChangeTag::Equal => {}
        }
    }
    (rem, add)
}

/// The first differing lines of two texts, as a short unified diff.
pub fn first_diff(a: &str, b: &str, max_lines: usize) -> String {
    first_diff_labeled(a, b, max_lines, "canon(m)", "canon(π(m))")
}

/// [`first_diff`] with other labels for the two sides.
pub fn first_diff_labeled(a: &str, b: &str, max_lines: usize, la: &str, lb: &str) -> String {
    let d = similar::TextDiff::from_lines(a, b);
    let text = d
        .unified_diff()
        .context_radius(1)
        .header(la, lb)
        .to_string();
    text.lines().take(max_lines).collect::<Vec<_>>().join("\n")
}

/// Percentile (nearest rank) of a sorted slice.
pub fn percentile(sorted: &[usize], p: f64) -> usize {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Median (lower middle for even counts... the nearest-rank 50th percentile).
pub fn median(sorted: &[usize]) -> usize {
    percentile(sorted, 50.0)
}

/// Replaces the section of BENCHMARKS.md between `<!-- KEY:start -->` and
/// `<!-- KEY:end -->` with `markdown` (appends it when the markers are
/// missing); nothing is written when `IRGIT_BENCH_NO_WRITE` is set.
pub fn write_bench_section(key: &str, markdown: &str) {
    if std::env::var_os("IRGIT_BENCH_NO_WRITE").is_some() {
        return;
    }
    let (start, end) = (
        format!("<!-- {key}:start -->"),
        format!("<!-- {key}:end -->"),
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
    let old = std::fs::read_to_string(&path).unwrap_or_else(|_| "# Benchmarks\n".to_string());
    let section = format!("{start}\n{}\n{end}", markdown.trim_end());
    let new = match (old.find(&start), old.find(&end)) {
        (Some(a), Some(b)) if a < b => format!("{}{section}{}", &old[..a], &old[b + end.len()..]),
        _ => format!("{}\n\n{section}\n", old.trim_end()),
    };
    std::fs::write(&path, new).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    eprintln!("wrote the {key} section of {}", path.display());
}

/// When environment variable `var` names a directory, writes `files`
/// (name, text) into its subdirectory `case` (benchmarks keep their inputs
/// and outputs there for inspection); otherwise does nothing.
pub fn keep_files(var: &str, case: &str, files: &[(&str, &str)]) {
    let Some(root) = std::env::var_os(var) else {
        return;
    };
    let dir = Path::new(&root).join(case);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for (name, text) in files {
        std::fs::write(dir.join(name), text)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()));
    }
}

/// Rewrites one section of `target/tmp/CANON_FAILURES.md` (the to-do list) and
/// reassembles the file from every section written so far by any test.
pub fn report_failures(section: &str, failures: &[String]) {
    report_failures_with(section, "", failures)
}

/// [`report_failures`] with a preface (e.g. a summary table) shown when
/// there are failures.
pub fn report_failures_with(section: &str, preface: &str, failures: &[String]) {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let dir = cache_dir().join("failures");
    std::fs::create_dir_all(&dir).unwrap();
    let body = if failures.is_empty() {
        format!("## {section}\n\nno failures\n")
    } else {
        format!(
            "## {section}\n\n{preface}\n\n{} failure(s)\n\n{}\n",
            failures.len(),
            failures.join("\n\n")
        )
    };
    write_atomic(&dir.join(format!("{section}.md")), body.as_bytes());
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    names.sort();
    let mut out = String::from(
        "# Canonical form: failing cases found by tests/canon_*.rs\n\n\
         Generated by the property tests (each section is rewritten by its test).\n\n",
    );
    for n in names {
        out.push_str(&std::fs::read_to_string(n).unwrap_or_default());
        out.push('\n');
    }
    // Under target/: a test run leaves the source tree unchanged.
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("CANON_FAILURES.md");
    write_atomic(&path, out.as_bytes());
}

/// The lit-style test files of `tests/lit/` (name, text).
pub fn lit_files() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lit");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("tests/lit")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ll"))
        .map(|p| {
            let name = format!("lit/{}", p.file_name().unwrap().to_string_lossy());
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The opcode of an instruction line (`%x = add nsw i32 ...` → `add`,
/// `tail call void @f()` → `call`), or `None` for other lines.
pub fn line_opcode(line: &str) -> Option<&str> {
    let code = line.split(" ;").next().unwrap_or(line);
    if !code.starts_with("  ") || code.starts_with("   ") {
        return None;
    }
    let code = code.trim();
    if code.starts_with(';') || code.starts_with('#') || code.starts_with(']') {
        return None;
    }
    let rest = match code.split_once(" = ") {
        Some((def, rest)) if def.starts_with('%') && !def.contains(' ') => rest,
        _ => code,
    };
    let mut words = rest.split_whitespace();
    let mut w = words.next()?;
    if matches!(w, "tail" | "musttail" | "notail") {
        w = words.next()?;
    }
    Some(w)
}

fn is_label_line(line: &str) -> bool {
    let code = line.split(';').next().unwrap_or("").trim_end();
    !line.starts_with(' ') && code.ends_with(':') && !code.contains(' ')
}

/// Adds user comments to a module printed by LLVM or clang, at places
/// chosen by `seed`, each saying what it annotates, so that
/// [`check_comment_places`] can tell whether it is still there after
/// canonicalization: `; next=OP #k` above an instruction of opcode OP,
/// `; on=OP #k` at the end of one, `; label #k` above a block label,
/// `; end of function #k` above a `}`, `; function note #k` above a
/// `define`, a note on top of the file and one at its end.
pub fn annotate(text: &str, seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut roll = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state.is_multiple_of(n)
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::from("; file note: annotated test input\n\n");
    let mut k = 0;
    let mut in_body = false;
    for (i, line) in lines.iter().enumerate() {
        let next_is_continuation = lines
            .get(i + 1)
            .is_some_and(|n| n.starts_with("   ") || n.trim_start().starts_with(']'));
        if line.starts_with("define ") {
            in_body = true;
            if roll(2) {
                k += 1;
                out.push_str(&format!("; function note #{k}\n"));
            }
        } else if in_body && *line == "}" {
            in_body = false;
            if roll(2) {
                k += 1;
                out.push_str(&format!("  ; end of function #{k}\n"));
            }
        } else if in_body && is_label_line(line) && roll(3) {
            k += 1;
            out.push_str(&format!("; label #{k}\n"));
        }
        let op = if in_body { line_opcode(line) } else { None };
        if let Some(op) = op {
            if roll(6) {
                k += 1;
                out.push_str(&format!("  ; next={op} #{k}\n"));
            }
            if !line.contains(';') && !next_is_continuation && roll(6) {
                k += 1;
                out.push_str(&format!("{line} ; on={op} #{k}\n"));
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("\n; end of file note\n");
    out
}

/// Checks that every comment [`annotate`] wrote sits at its place in
/// `text`; returns the misplaced ones.
pub fn check_comment_places(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut bad = Vec::new();
    let next_code = |i: usize| {
        lines[i + 1..]
            .iter()
            .find(|l| {
                let t = l.trim();
                !t.is_empty() && !t.starts_with(';')
            })
            .copied()
            .unwrap_or("")
    };
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("; next=") {
            let op = rest.split(' ').next().unwrap_or("");
            let n = next_code(i);
            if line_opcode(n) != Some(op) {
                bad.push(format!("`{t}` is followed by `{n}`"));
            }
        } else if t.starts_with("; label #") {
            let n = next_code(i);
            if !is_label_line(n) {
                bad.push(format!("`{t}` is followed by `{n}`"));
            }
        } else if t.starts_with("; end of function #") {
            let n = next_code(i);
            if n != "}" {
                bad.push(format!("`{t}` is followed by `{n}`"));
            }
        } else if t.starts_with("; function note #") {
            let n = next_code(i);
            if !n.starts_with("define ") {
                bad.push(format!("`{t}` is followed by `{n}`"));
            }
        } else if !t.starts_with(';') {
            for part in line.split(" ; on=").skip(1) {
                let op = part.split(' ').next().unwrap_or("");
                if line_opcode(line) != Some(op) {
                    bad.push(format!("`; on={op}` is on `{line}`"));
                }
            }
        }
    }
    bad
}

/// Applies `change` to the parsed module and prints it with its user
/// comments carried along (so a perturbed or mutated file keeps them).
pub fn changed_keeping_comments(
    text: &str,
    name: &str,
    change: impl FnOnce(&irgit::ir::IrModule<'_>) -> Result<(), String>,
) -> Result<String, String> {
    let s = Session::new();
    let m = s.parse(text.as_bytes(), name).map_err(|e| e.to_string())?;
    let carried = irgit::comments::carry::Carried::collect(text, &m);
    change(&m)?;
    if !m.declares_source_filename() {
        // As the canonical form does: no `source_filename` from the parse name.
        m.set_source_filename("");
        m.set_identifier("");
    }
    Ok(carried.render(&m.print(), &m))
}
