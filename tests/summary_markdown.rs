//! `irgit diff --markdown` as the CI recipe runs it (the command line of
//! `docs/ci-review.md`, run by `sh` in a real git repository of real
//! clang-22 output), its Markdown rendered by GitHub's implementation
//! (Debian's `cmark-gfm`, with GitHub's extensions) and the HTML opened in
//! headless Chromium: every table row is a `<tr>`, every function has its
//! `<details>` block, and the text of each `<code>` is the diff exactly,
//! names with `<`, `*`, `|` and backticks included.
//!
//! ```text
//! a.c, b.c --clang-22 -O0--> src/a.ll, src/b.ll   commit; edit, compile, commit
//! BASE=HEAD~1 HEAD=HEAD sh -c '<the recipe's line>'  ─► irgit-comment.md
//!   ─► cmark-gfm -e table ... ─► chromium --dump-dom ─► rows, summaries, code texts
//! ```

mod common;
mod git_support;
mod summary_support;

use std::path::Path;
use std::process::{Command, Stdio};

use git_support::Repo;

const CHROMIUM: &str = "chromium";
const LIMIT: usize = 65_536;

const OLD_A: &str = r#"#include <stdio.h>
int weird(int x) __asm__("w<b>*|`q`");
static const char *msg = "a `tick` <b>|*";
int weird(int x) { return x * 3; }
int sum(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
int gone(int x) { return x + 7; }
int main(void) { int v[3] = {1, 2, 3}; puts(msg); return weird(2) + sum(v, 3) + gone(1); }
"#;

const NEW_A: &str = r#"#include <stdio.h>
int weird(int x) __asm__("w<b>*|`q`");
static const char *msg = "a ``tick`` <b>|* 2";
int weird(int x) { return x * 3 + 1; }
int total(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
int fresh(int x) { return x ^ 5; }
int main(void) { int v[3] = {1, 2, 3}; puts(msg); return weird(2) + total(v, 3) + fresh(1); }
"#;

/// The IR name clang gives `weird` (its asm label).
const WEIRD: &str = "@\"w<b>*|`q`\"";

/// clang-22 -O0 output of `source`.
fn clang(source: &str) -> String {
    summary_support::compile(source, "-O0", &[])
}

/// The line of `docs/ci-review.md` both recipes run, checked to be in both.
fn recipe_command() -> String {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/ci-review.md")).unwrap();
    let after = doc
        .split("<!-- irgit-ci-command -->\n```sh\n")
        .nth(1)
        .unwrap();
    let line = after.lines().next().unwrap().to_string();
    let yaml_blocks: Vec<&str> = doc.split("```yaml\n").skip(1).collect();
    assert_eq!(yaml_blocks.len(), 2, "a GitHub and a GitLab recipe");
    for block in yaml_blocks {
        let block = block.split("\n```").next().unwrap();
        assert!(block.contains(&line), "a recipe without `{line}`:\n{block}");
    }
    line
}

/// Runs the recipe's command in `repo` over `base..head`; the comment.
fn run_recipe(repo: &Repo, base: &str, head: &str) -> String {
    let out = repo
        .command("sh")
        .args(["-c", &recipe_command()])
        .env("BASE", base)
        .env("HEAD", head)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the recipe failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(repo.read("irgit-comment.md")).unwrap()
}

/// The commit `rev` names.
fn commit(repo: &Repo, rev: &str) -> String {
    repo.git(&["rev-parse", rev]).trim().to_string()
}

/// The HTML GitHub makes of `markdown` (cmark-gfm with GitHub's extensions).
fn github_html(markdown: &str) -> String {
    let mut child = Command::new("cmark-gfm")
        .args(["--unsafe", "--github-pre-lang"])
        .args([
            "-e",
            "table",
            "-e",
            "strikethrough",
            "-e",
            "autolink",
            "-e",
            "tagfilter",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cmark-gfm (scripts/setup.sh installs it)");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(markdown.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// What Chromium shows of the HTML: per table row its cells' texts, per
/// `<details>` its summary's text and its code's text (null: none).
fn in_chromium(dir: &Path, html: &str) -> serde_json::Value {
    const SCRIPT: &str = r#"<pre id="out"></pre><script>
const rows = [...document.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(c => c.textContent));
const details = [...document.querySelectorAll('details')].map(d => ({
  summary: d.querySelector('summary').textContent,
  code: d.querySelector('pre > code') ? d.querySelector('pre > code').textContent : null,
}));
document.getElementById('out').textContent = JSON.stringify({rows, details})
  .replace(/[<>&]/g, c => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
</script>"#;
    let page = dir.join("comment.html");
    std::fs::write(
        &page,
        format!("<!doctype html><meta charset=\"utf-8\"><body>{html}{SCRIPT}</body>"),
    )
    .unwrap();
    let out = Command::new(CHROMIUM)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap_or_else(|e| panic!("{CHROMIUM}: {e} (scripts/setup.sh installs it)"));
    assert!(out.status.success(), "{CHROMIUM} failed: {}", out.status);
    let dom = String::from_utf8(out.stdout).unwrap();
    let json = dom
        .split("<pre id=\"out\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .expect("the script's output");
    serde_json::from_str(json).unwrap()
}

/// The content of every fenced block of `markdown`, in order.
fn fenced_blocks(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in markdown.lines() {
        match &mut open {
            None if line.starts_with("```") && line.ends_with("diff") => {
                open = Some((line.trim_end_matches("diff").to_string(), String::new()));
            }
            Some((fence, body)) if line == fence => {
                out.push(std::mem::take(body));
                open = None;
            }
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
            None => {}
        }
    }
    out
}

/// A repository with two commits of two files of real clang-22 output and a
/// file LLVM rejects.
fn two_commits() -> Repo {
    let repo = Repo::new();
    let versions = [
        (OLD_A, "return 2 * x;", "not IR", "one"),
        (NEW_A, "return 2 * x + 1;", "still not IR", "two"),
    ];
    for (a, b, bad, message) in versions {
        repo.write("src/a.ll", clang(a));
        repo.write("src/b.ll", clang(&format!("int twice(int x) {{ {b} }}\n")));
        repo.write("src/bad.ll", format!("{bad}\n"));
        repo.write("README.txt", format!("{message}\n"));
        repo.commit_all(message);
    }
    repo
}

fn cells(row: &serde_json::Value) -> Vec<&str> {
    row.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect()
}

#[test]
fn the_recipes_comment_reads_on_github_as_irgit_wrote_it() {
    let repo = two_commits();
    let (base, head) = (commit(&repo, "HEAD~1"), commit(&repo, "HEAD"));
    let markdown = run_recipe(&repo, &base, &head);
    assert!(markdown.starts_with("<!-- irgit-diff -->\n"), "{markdown}");
    let shown = in_chromium(&repo.home, &github_html(&markdown));

    let rows: Vec<Vec<&str>> = shown["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(cells)
        .collect();
    let firsts: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(
        firsts,
        [
            WEIRD,
            "@fresh",
            "@gone",
            "@main",
            "@sum → @total",
            "@twice",
            "src/bad.ll"
        ],
        "{markdown}"
    );
    assert!(rows.iter().all(|r| r.len() == 5), "{rows:?}");
    let status: Vec<&str> = rows.iter().map(|r| r[1]).collect();
    assert_eq!(
        status,
        [
            "changed",
            "added",
            "removed",
            "changed",
            "renamed",
            "changed",
            "not compared"
        ]
    );
    // The rejected file: git's own counts (one line out, one in).
    assert_eq!(&rows[6][2..4], ["1", "1"]);
    assert!(rows[6][4].starts_with("LLVM rejects it: "), "{:?}", rows[6]);
    assert_eq!(&rows[2][2..4], ["0", "5"], "@gone's instructions");

    let details = shown["details"].as_array().unwrap();
    let summaries: Vec<&str> = details
        .iter()
        .map(|d| d["summary"].as_str().unwrap())
        .collect();
    for name in &firsts[..6] {
        assert!(
            summaries.iter().any(|s| s.starts_with(name)),
            "no <details> for {name}: {summaries:?}"
        );
    }
    assert_eq!(
        details.len(),
        8,
        "six functions, and the lines outside them of a.ll and b.ll"
    );

    // Each code text is the fenced diff, character for character.
    let codes: Vec<&str> = details.iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, fenced_blocks(&markdown));
    let main = codes
        .iter()
        .find(|c| c.contains("define dso_local i32 @main"))
        .unwrap();
    assert!(
        main.contains(&format!("call i32 {WEIRD}(i32 noundef 2)")),
        "{main}"
    );
    let globals = summaries
        .iter()
        .position(|s| s.starts_with("outside functions"));
    let globals = details[globals.unwrap()]["code"].as_str().unwrap();
    assert!(globals.contains("c\"a ``tick`` <b>|* 2\\00\""), "{globals}");

    // Its lines are `irgit diff --matched`'s (in its names; cut by function,
    // a line can pair with another one than in the whole file's diff).
    let matched = repo.irgit_ok(&["diff", "--matched", &base, &head, "--", "src/a.ll"]);
    let matched: Vec<&str> = matched.lines().filter_map(|l| l.get(1..)).collect();
    for code in &codes[..5] {
        for line in code.lines().filter(|l| !l.starts_with("@@")) {
            assert!(
                matched.contains(&&line[1..]),
                "{line:?} is not in --matched"
            );
        }
    }
}

#[test]
fn paths_limit_the_comment_and_a_range_without_ir_says_so() {
    let repo = two_commits();
    let only_b = repo.irgit_ok(&["diff", "--markdown", "HEAD~1", "HEAD", "--", "src/b.ll"]);
    assert!(
        only_b.contains("### `src/b.ll`") && !only_b.contains("a.ll"),
        "{only_b}"
    );
    let in_dir = repo.ok_in(
        &repo.root.join("src"),
        git_support::IRGIT,
        &["diff", "--markdown", "HEAD~1", "HEAD", "--", "b.ll"],
    );
    assert_eq!(in_dir, only_b, "a path relative to the current directory");

    repo.write("README.txt", "three\n");
    repo.commit_all("three");
    let none = repo.irgit_ok(&["diff", "--markdown", "HEAD~1", "HEAD"]);
    assert_eq!(
        none,
        "<!-- irgit-diff -->\n## LLVM IR changes in `HEAD~1..HEAD`\n\nNo IR changes.\n"
    );

    let bad = repo.irgit(&["diff", "--markdown", "HEAD", "no-such-rev"]);
    assert_eq!(bad.status.code(), Some(2));
    let why = String::from_utf8_lossy(&bad.stderr);
    assert!(why.contains("no-such-rev: not a revision"), "{why}");
}

#[test]
fn a_file_git_calls_llvm_ir_counts_whatever_its_name() {
    let repo = Repo::new();
    repo.write(".gitattributes", "*.ir diff=llvm-ir\n");
    repo.write("k.ir", clang("int f(int x) { return x; }\n"));
    repo.commit_all("one");
    repo.write("k.ir", clang("int f(int x) { return -x; }\n"));
    repo.commit_all("two");
    let out = repo.irgit_ok(&["diff", "--markdown", "HEAD~1", "HEAD"]);
    assert!(
        out.contains("### `k.ir`") && out.contains("| `@f` | changed |"),
        "{out}"
    );
}

/// C with `n` functions of a few statements each; `edit` changes all.
fn many_functions(n: usize, edit: bool) -> String {
    let mut c = String::new();
    for i in 0..n {
        let k = if edit { i + 7 } else { i + 3 };
        c.push_str(&format!(
            "int f{i}(int x, int y) {{\n  int s = x * {k};\n  for (int j = 0; j < y; j++)\n    \
             s += j ^ {k};\n  if (s > {k}00)\n    s -= y;\n  return s + {i};\n}}\n"
        ));
    }
    c
}

#[test]
fn a_change_of_many_functions_fits_githubs_limit_and_says_what_it_left_out() {
    const N: usize = 220;
    let repo = Repo::new();
    repo.write("many.ll", clang(&many_functions(N, false)));
    repo.commit_all("one");
    repo.write("many.ll", clang(&many_functions(N, true)));
    repo.commit_all("two");
    let (base, head) = (commit(&repo, "HEAD~1"), commit(&repo, "HEAD"));
    let markdown = run_recipe(&repo, &base, &head);
    let length = markdown.chars().count();
    assert!(length <= LIMIT, "{length} characters");
    assert!(
        length > LIMIT - 8_000,
        "room left unused: {length} characters"
    );

    let rows = markdown.lines().filter(|l| l.starts_with("| `@f")).count();
    assert_eq!(rows, N, "every function keeps its row");
    let html = github_html(&markdown);
    assert_eq!(
        html.matches("<tr>").count(),
        N + 1,
        "rows and the header row"
    );

    let note = markdown
        .lines()
        .find(|l| l.contains("left out"))
        .expect("a line naming what was left out");
    assert!(!note.ends_with("more."), "every one named: {note}");
    let shown = markdown.matches("<details><summary><code>@f").count();
    let left_out = note.matches("`many.ll` `@f").count();
    assert!(shown > 0 && left_out > 0, "{note}");
    assert_eq!(shown + left_out, N, "{note}");
    // No block is cut: every opened fence and <details> is closed.
    let blocks = markdown.matches("<details>").count();
    assert_eq!(markdown.matches("</details>").count(), blocks);
    assert_eq!(fenced_blocks(&markdown).len(), blocks);

    // The same range gives the same bytes.
    assert_eq!(run_recipe(&repo, &base, &head), markdown);
}
