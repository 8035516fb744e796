//! `hook: { mode: previous-names }` through the real git: clang-22's output
//! is stored in the names the version at `HEAD` used wherever values match,
//! so that git's own diff (what a web page of the commit shows) is about as
//! small as `irgit diff --matched`, while the work tree keeps the
//! compiler's text and `git status` stays clean.
//!
//! ```text
//! HEAD:sum.ll   %5 = load i32, ptr %3     work tree   %6 = load i32, ptr %3
//! stored        %5 = load i32, ptr %3     (the same value, in HEAD's name)
//! ```

mod common;
mod git_support;
use git_support::Repo;

const SUM_C: &str = "int sum(int *a, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++)\n    s += a[i] * 3;\n  return s;\n}\n\nint scale(int x, int y) {\n  int z = x * 7 + y;\n  return z - y / 3;\n}\n";

/// [`SUM_C`] with a statement inserted at the top of `sum`: every `%N`
/// of the function after it shifts.
fn edited_c() -> String {
    SUM_C.replace("  int s = 0;\n", "  n = n - 1;\n  int s = 0;\n")
}

/// `c_source` compiled by clang-22 at -O0.
fn clang_o0(repo: &Repo, c_source: &str) -> String {
    git_support::clang(repo, c_source, "-O0")
}

fn previous_names_repo() -> Repo {
    let repo = Repo::new();
    repo.irgit_ok(&["install", "--hook"]);
    repo.write(".irgit.yaml", "hook:\n  mode: previous-names\n");
    repo.write("README", "hello\n");
    repo.commit_all("init");
    repo
}

/// `git add PATH` then `git commit`: the stderr of both (which must succeed).
fn add_and_commit(repo: &Repo, path: &str, msg: &str) -> String {
    let mut err = String::new();
    for args in [vec!["add", path], vec!["commit", "-q", "-m", msg]] {
        let o = repo.run("git", &args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "git {args:?}: {stderr}");
        err.push_str(&stderr);
    }
    err
}

/// The `+`/`-` lines of a unified diff, its headers left out.
fn changed_lines(diff: &str) -> usize {
    diff.lines()
        .filter(|l| l.starts_with('+') || l.starts_with('-'))
        .filter(|l| !l.starts_with("+++") && !l.starts_with("---"))
        .count()
}

/// `irgit diff --matched` of two texts, as lines changed.
fn matched_lines(repo: &Repo, old: &str, new: &str) -> usize {
    let (a, b) = (repo._tmp.path().join("a.ll"), repo._tmp.path().join("b.ll"));
    std::fs::write(&a, old).unwrap();
    std::fs::write(&b, new).unwrap();
    let o = repo.irgit(&[
        "diff",
        "--matched",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    changed_lines(&String::from_utf8_lossy(&o.stdout))
}

/// How many lines of `stderr` from `program` (`filter-process`,
/// `pre-commit`) say `path` was stored as written.
fn as_written_lines(stderr: &str, program: &str, path: &str) -> usize {
    let note = format!("irgit {program}: {path}: stored as written (hook.mode: previous-names): ");
    stderr.lines().filter(|l| l.starts_with(&note)).count()
}

#[test]
fn a_regenerated_module_is_stored_in_heads_names_and_git_status_stays_clean() {
    let repo = previous_names_repo();
    let v1 = clang_o0(&repo, SUM_C);
    repo.write("sum.ll", &v1);
    let err = add_and_commit(&repo, "sum.ll", "sum");
    // HEAD has no sum.ll yet: stored as written, said by the filter (once
    // per git command that cleans it) and by the hook.
    assert_eq!(as_written_lines(&err, "pre-commit", "sum.ll"), 1, "{err}");
    assert!(
        as_written_lines(&err, "filter-process", "sum.ll") <= 2,
        "{err}"
    );
    assert!(err.contains("HEAD has no such file"), "{err}");
    assert_eq!(repo.git(&["show", "HEAD:sum.ll"]), v1);

    // A statement inserted, recompiled, with a comment of the user's.
    let v2 = clang_o0(&repo, &edited_c()).replacen("\ndefine ", "\n; kept by irgit\ndefine ", 1);
    repo.write("sum.ll", &v2);
    let err = add_and_commit(&repo, "sum.ll", "edit");
    assert!(!err.contains("stored as written"), "{err}");
    let stored = repo.git(&["show", "HEAD:sum.ll"]);
    assert_ne!(stored, v2, "stored in HEAD's names");
    assert!(stored.contains("; kept by irgit\n"), "{stored}");
    assert_eq!(repo.canon(&stored), repo.canon(&v2));
    assert_eq!(
        String::from_utf8(repo.read("sum.ll")).unwrap(),
        v2,
        "the work tree keeps clang's text"
    );

    let web = changed_lines(&repo.git(&[
        "diff",
        "--no-ext-diff",
        "--no-textconv",
        "HEAD~1",
        "HEAD",
        "--",
        "sum.ll",
    ]));
    let matched = matched_lines(&repo, &v1, &v2);
    let as_written = changed_lines(&no_index_diff(&repo, &v1, &v2));
    eprintln!("git diff --no-textconv: {web} lines; irgit diff --matched: {matched}; as written: {as_written}");
    assert!(web <= matched + 2, "web {web}, matched {matched}");
    assert!(web * 2 < as_written, "web {web}, as written {as_written}");

    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    // The same source compiled again: identical IR, a new mtime.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let again = clang_o0(&repo, &edited_c()).replacen("\ndefine ", "\n; kept by irgit\ndefine ", 1);
    assert_eq!(again, v2);
    repo.write("sum.ll", &again);
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    assert_eq!(repo.git(&["diff", "--stat"]), "");
    // A checkout writes the stored text into the work tree: clean too.
    std::fs::remove_file(repo.root.join("sum.ll")).unwrap();
    repo.git(&["checkout", "-q", "--", "sum.ll"]);
    assert_eq!(String::from_utf8(repo.read("sum.ll")).unwrap(), stored);
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

/// `git diff --no-index` of two texts.
fn no_index_diff(repo: &Repo, old: &str, new: &str) -> String {
    let (a, b) = (repo._tmp.path().join("x.ll"), repo._tmp.path().join("y.ll"));
    std::fs::write(&a, old).unwrap();
    std::fs::write(&b, new).unwrap();
    let o = repo.run(
        "git",
        &[
            "diff",
            "--no-index",
            "--no-ext-diff",
            "--no-textconv",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_file_llvm_rejects_is_stored_as_written_with_one_line() {
    let repo = previous_names_repo();
    let v1 = clang_o0(&repo, SUM_C);
    repo.write("sum.ll", &v1);
    add_and_commit(&repo, "sum.ll", "sum");
    let broken =
        clang_o0(&repo, &edited_c()).replacen("ret i32 ", "ret i32 %undefined.value ; was ", 1);
    repo.write("sum.ll", &broken);
    let o = repo.run("git", &["add", "sum.ll"]);
    let add_err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{add_err}");
    assert_eq!(
        as_written_lines(&add_err, "filter-process", "sum.ll"),
        1,
        "{add_err}"
    );
    let o = repo.run("git", &["commit", "-q", "-m", "broken"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    assert_eq!(as_written_lines(&err, "pre-commit", "sum.ll"), 1, "{err}");
    assert!(
        as_written_lines(&err, "filter-process", "sum.ll") <= 1,
        "{err}"
    );
    assert!(err.contains("LLVM 22 does not accept it"), "{err}");
    assert_eq!(repo.git(&["show", "HEAD:sum.ll"]), broken);
}

#[test]
fn the_hook_alone_stores_heads_names_and_leaves_the_work_tree() {
    let repo = previous_names_repo();
    repo.git(&["config", "--unset", "filter.llvm-ir.process"]);
    let v1 = clang_o0(&repo, SUM_C);
    repo.write("sum.ll", &v1);
    add_and_commit(&repo, "sum.ll", "sum");
    let v2 = clang_o0(&repo, &edited_c());
    repo.write("sum.ll", &v2);
    let err = add_and_commit(&repo, "sum.ll", "edit");
    assert!(
        err.contains("sum.ll: stored in HEAD's names where values match"),
        "{err}"
    );
    let stored = repo.git(&["show", "HEAD:sum.ll"]);
    assert_ne!(stored, v2);
    assert_eq!(repo.canon(&stored), repo.canon(&v2));
    assert_eq!(String::from_utf8(repo.read("sum.ll")).unwrap(), v2);
}

// ---------------------------------------------------------------- a measurement

/// One commit of a measured history: its edit and the `+`/`-` lines of
/// git's diff as compiled, as stored in previous-names mode, and of
/// `irgit diff --matched`; whether the hook stored it as written.
struct Step {
    edit: String,
    compiled: usize,
    stored: usize,
    matched: usize,
    /// Why the hook stored it as written, if it did.
    as_written: Option<String>,
}

/// Successive edits of `file` (tests/corpus), each recompiled at `opt` and
/// committed in previous-names mode.
fn history(file: &str, opt: &str, edits: usize) -> Vec<Step> {
    use common::c_edits::{candidates, CEditKind};
    let repo = previous_names_repo();
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut src = std::fs::read_to_string(corpus.join(file)).unwrap();
    let mut prev = git_support::clang(&repo, &src, opt);
    repo.write("m.ll", &prev);
    add_and_commit(&repo, "m.ll", "v0");
    let mut steps = Vec::new();
    for k in 0..edits * 3 {
        let kind = CEditKind::ALL[k % CEditKind::ALL.len()];
        let cands = candidates(&src, kind);
        if steps.len() == edits || cands.is_empty() {
            continue;
        }
        let edit = &cands[(k * 7) % cands.len()];
        let next_src = edit.apply(&src);
        let next = git_support::clang(&repo, &next_src, opt);
        if next == prev {
            continue;
        }
        repo.write("m.ll", &next);
        let err = add_and_commit(&repo, "m.ll", &edit.describe());
        let web = ["diff", "--no-ext-diff", "--no-textconv", "HEAD~1", "HEAD"];
        steps.push(Step {
            edit: edit.describe(),
            compiled: changed_lines(&no_index_diff(&repo, &prev, &next)),
            stored: changed_lines(&repo.git(&web)),
            matched: matched_lines(&repo, &prev, &next),
            as_written: err
                .lines()
                .find_map(|l| l.split_once("(hook.mode: previous-names): "))
                .map(|(_, why)| why.to_string()),
        });
        (src, prev) = (next_src, next);
    }
    steps
}

/// Eight regenerations of loops.c at -O2, where the optimizer rewrites a
/// loop when a constant changes: every version is stored in `HEAD`'s
/// names unless that diff would be longer than the compiler's own
/// (before: one that a name this writer gave, `%new.6`, was written
/// `%new.new.6` each time it was written again never settled, and was
/// stored as written), and the web shows at most the matched diff's lines
/// and a tenth.
#[test]
fn regenerated_o2_output_is_stored_in_heads_names_each_time() {
    let steps = history("loops.c", "-O2", 8);
    let longer = "would be longer than the compiler's own";
    let as_written: Vec<_> = steps
        .iter()
        .filter_map(|s| s.as_written.as_ref())
        .filter(|why| !why.contains(longer))
        .collect();
    assert!(as_written.is_empty(), "stored as written: {as_written:?}");
    let compiled: usize = steps.iter().map(|s| s.compiled).sum();
    let stored: usize = steps.iter().map(|s| s.stored).sum();
    let matched: usize = steps.iter().map(|s| s.matched).sum();
    assert!(
        stored * 10 <= matched * 11 && stored < compiled,
        "the web shows {stored} lines, the matched diff {matched}, as compiled {compiled}"
    );
}

#[test]
#[ignore = "a measurement: cargo test --release --test git_previous_names -- --ignored --nocapture"]
fn lines_git_shows_over_a_history_of_regenerated_clang_output() {
    for file in ["loops.c", "structs.c"] {
        for opt in ["-O0", "-O2"] {
            let steps = history(file, opt, 8);
            println!("{file} {opt}: edit | as compiled | previous-names | --matched | as written");
            for s in &steps {
                println!(
                    "  {} | {} | {} | {} | {}",
                    s.edit,
                    s.compiled,
                    s.stored,
                    s.matched,
                    s.as_written.as_deref().unwrap_or("-")
                );
            }
            let total = |f: fn(&Step) -> usize| steps.iter().map(f).sum::<usize>();
            println!(
                "  total over {} commits | {} | {} | {} | {} as written",
                steps.len(),
                total(|s| s.compiled),
                total(|s| s.stored),
                total(|s| s.matched),
                steps.iter().filter(|s| s.as_written.is_some()).count()
            );
        }
    }
}
