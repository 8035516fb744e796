//! `irgit diff --html` on real clang-22 output (-O0, -O2, -O2 -g) of a
//! small C program and an edit of it, rendered by headless Chromium
//! (Debian's `chromium`, which `.ci/run` and `scripts/setup.sh` install):
//! the DOM after the page's script ran has an SVG pair per function the
//! summary reports, every drawn block carries its status, the script's own
//! check found nothing and Chromium logged no console message; functions
//! the summary reports unchanged are listed, never drawn.
//!
//! ```text
//! prog.c  --clang-22 -O2-->  a.ll      irgit diff --html a.ll b.ll > page.html
//! prog2.c --clang-22 -O2-->  b.ll      chromium --headless --dump-dom file://.../page.html#selftest
//! ```

mod git_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use git_support::{Repo, IRGIT};

const CHROMIUM: &str = "chromium";

const PROGRAM: &str = r#"#include <stdio.h>

/* Sum of the squares of the odd numbers below n. */
int sum_odd_squares(int n) {
  int total = 0;
  for (int i = 0; i < n; i++) {
    if (i % 2 == 1)
      total += i * i;
  }
  return total;
}

int clamp(int x, int lo, int hi) {
  if (x < lo)
    return lo;
  if (x > hi)
    return hi;
  return x;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? argc * 10 : 5;
  printf("%d\n", clamp(sum_odd_squares(n), 0, 1000));
  return 0;
}
"#;

/// The edit: an early exit inside the loop, a line added above `clamp`.
fn edited() -> String {
    PROGRAM.replace(
        "    if (i % 2 == 1)\n",
        "    if (total > 500)\n      break;\n    if (i % 2 == 1)\n",
    )
}

fn clang(dir: &Path, source: &str, name: &str, flags: &[&str]) -> PathBuf {
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, source).unwrap();
    let ll = dir.join(format!("{name}.ll"));
    let out = Command::new("clang-22")
        .args(flags)
        .args(["-S", "-emit-llvm", "-w", "-o"])
        .arg(&ll)
        .arg(&c)
        .output()
        .expect("clang-22");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    ll
}

fn irgit(args: &[&str]) -> String {
    let out = Command::new(IRGIT).arg("diff").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "irgit diff {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Each function's status, as `irgit diff --json` reports it.
fn statuses(old: &Path, new: &Path) -> Vec<(String, String)> {
    let json = irgit(&["--json", path(old), path(new)]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    report["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap().to_string(),
                f["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The DOM after the page's script ran, and Chromium's console messages.
fn render(page: &Path) -> (String, Vec<String>) {
    let out = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
        ])
        .arg(format!("file://{}#selftest", page.display()))
        .output()
        .unwrap_or_else(|e| panic!("{CHROMIUM}: {e} (scripts/setup.sh installs it)"));
    assert!(out.status.success(), "{CHROMIUM} failed: {}", out.status);
    let console = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    (String::from_utf8(out.stdout).unwrap(), console)
}

/// The value of `attribute` in the first tag of `text`.
fn attribute<'t>(tag: &'t str, attribute: &str) -> Option<&'t str> {
    let end = tag.find('>')?;
    let key = format!(" {attribute}=\"");
    let at = tag[..end].find(&key)? + key.len();
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// The drawn functions' sections: (function, its HTML).
fn sections(dom: &str) -> Vec<(String, &str)> {
    dom.split("<section class=\"function\"")
        .skip(1)
        .map(|s| {
            let body = &s[..s.find("</section>").unwrap()];
            (attribute(s, "data-function").unwrap().to_string(), body)
        })
        .collect()
}

/// The status of every drawn block of one side of a section.
fn block_statuses<'s>(section: &'s str, side: &str) -> Vec<&'s str> {
    let svg_at = section
        .find(&format!("data-side=\"{side}\""))
        .expect("the side's SVG");
    let svg = &section[svg_at..];
    let svg = &svg[..svg.find("</svg>").unwrap()];
    svg.split("<g class=\"block\" ")
        .skip(1)
        .map(|g| attribute(g, "data-status").expect("a block without status"))
        .collect()
}

fn check_page(dir: &Path, old: &Path, new: &Path) {
    let page = dir.join("page.html");
    std::fs::write(&page, irgit(&["--html", path(old), path(new)])).unwrap();
    let (dom, console) = render(&page);
    assert!(console.is_empty(), "console messages: {console:?}");
    assert!(
        dom.contains("data-ready=\"1\""),
        "the page's script did not finish"
    );
    let check_at = dom.find("id=\"irgit-check\"").unwrap();
    assert_eq!(attribute(&dom[check_at..], "data-errors"), Some(""));
    let reported = statuses(old, new);
    let drawn = sections(&dom);
    let changed: Vec<&String> = reported
        .iter()
        .filter(|(_, s)| s != "unchanged")
        .map(|(n, _)| n)
        .collect();
    let drawn_names: Vec<&String> = drawn.iter().map(|(n, _)| n).collect();
    assert_eq!(
        drawn_names, changed,
        "one section per function that changed"
    );
    for (name, section) in &drawn {
        assert_eq!(section.matches("<svg class=\"cfg\"").count(), 2, "{name}");
        let (old_blocks, new_blocks) = (
            block_statuses(section, "old"),
            block_statuses(section, "new"),
        );
        let all = old_blocks.iter().chain(&new_blocks);
        assert!(all
            .clone()
            .all(|s| ["added", "removed", "changed", "unchanged"].contains(s)));
        assert!(
            all.clone().any(|s| *s != "unchanged"),
            "{name}: nothing marked"
        );
        assert!(!old_blocks.contains(&"added") && !new_blocks.contains(&"removed"));
        // The self-test clicked a block that changed: its panel is filled.
        assert!(
            section.contains("change (in the old file's names)"),
            "{name}"
        );
    }
    let list_at = dom.find("class=\"unchanged-list\"").unwrap();
    let list = &dom[list_at..dom[list_at..].find("</ul>").unwrap() + list_at];
    for (name, status) in &reported {
        if status == "unchanged" {
            assert!(
                list.contains(&format!("<li>{name}</li>")),
                "{name} not listed"
            );
            assert!(!drawn_names.contains(&name), "{name} drawn");
        }
    }
}

fn with_flags(flags: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let old = clang(dir.path(), PROGRAM, "prog", flags);
    let new = clang(dir.path(), &edited(), "prog2", flags);
    let reported = statuses(&old, &new);
    assert!(
        reported
            .iter()
            .any(|(n, s)| n == "@sum_odd_squares" && s == "changed"),
        "{reported:?}"
    );
    assert!(
        reported.iter().any(|(_, s)| s == "unchanged"),
        "{reported:?}"
    );
    check_page(dir.path(), &old, &new);
    // Also when every function is canonicalized and compared (unchanged
    // ones included), only those that changed are drawn.
    let full = irgit(&["--html", "--full", path(&old), path(&new)]);
    let drawn: Vec<String> = sections(&full).into_iter().map(|(n, _)| n).collect();
    let changed: Vec<String> = reported
        .into_iter()
        .filter(|(_, s)| s != "unchanged")
        .map(|(n, _)| n)
        .collect();
    assert_eq!(drawn, changed);
}

#[test]
fn the_page_of_o0_code_in_chromium() {
    with_flags(&["-O0"]);
}

#[test]
fn the_page_of_o2_code_in_chromium() {
    with_flags(&["-O2"]);
}

#[test]
fn the_page_of_o2_code_with_debug_info_in_chromium() {
    with_flags(&["-O2", "-g"]);
}

/// The JSON the page's script reads.
fn page_data(page: &str) -> serde_json::Value {
    let at = page.find("id=\"irgit-data\">").unwrap() + "id=\"irgit-data\">".len();
    let end = at + page[at..].find("</script>").unwrap();
    serde_json::from_str(&page[at..end]).unwrap()
}

#[test]
fn a_file_against_itself_draws_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ll = clang(dir.path(), PROGRAM, "prog", &["-O2"]);
    let page = irgit(&["--html", path(&ll), path(&ll)]);
    assert!(!page.contains("<section class=\"function\""));
    let full = irgit(&["--html", "--full", path(&ll), path(&ll)]);
    assert!(!full.contains("<section class=\"function\""));
    assert_eq!(page_data(&page)["functions"].as_array().unwrap().len(), 0);
    for name in ["@sum_odd_squares", "@clamp", "@main"] {
        assert!(page.contains(&format!("<li>{name}</li>")), "{name}");
    }
    assert!(!page.contains("src=") && !page.contains("href=\"http"));
}

#[test]
fn a_click_shows_the_comment_written_in_a_changed_block() {
    let dir = tempfile::tempdir().unwrap();
    let old = clang(dir.path(), PROGRAM, "prog", &["-O0"]);
    let text = std::fs::read_to_string(clang(dir.path(), &edited(), "prog2", &["-O0"])).unwrap();
    // The user's note on the new early exit (`icmp sgt ..., 500`).
    let commented = text.replacen(", 500\n", ", 500 ; stop once the total is large\n", 1);
    assert_ne!(commented, text);
    let new = dir.path().join("commented.ll");
    std::fs::write(&new, commented).unwrap();
    let page = irgit(&["--html", path(&old), path(&new)]);
    let data = page_data(&page);
    let blocks = data["functions"][0]["blocks"].as_array().unwrap();
    let noted: Vec<&serde_json::Value> = blocks
        .iter()
        .filter(|b| {
            b["comments"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c == "stop once the total is large")
        })
        .collect();
    assert_eq!(noted.len(), 1, "{blocks:?}");
    assert_ne!(noted[0]["status"], "unchanged");
    let change: Vec<String> = noted[0]["change"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| format!("{}{}", l[0].as_str().unwrap(), l[1].as_str().unwrap()))
        .collect();
    assert!(
        change
            .iter()
            .any(|l| l.starts_with('+') && l.contains("500")),
        "{change:?}"
    );
    // Unchanged blocks show no change and keep their lines.
    let unchanged = blocks.iter().find(|b| b["status"] == "unchanged").unwrap();
    assert_eq!(unchanged["change"].as_array().unwrap().len(), 0);
    assert_eq!(unchanged["old"], unchanged["new"]);
}

#[test]
fn two_revisions_of_a_path_give_the_page_of_the_two_files() {
    let repo = Repo::new();
    let scratch = tempfile::tempdir().unwrap();
    let old = clang(scratch.path(), PROGRAM, "prog", &["-O2"]);
    let new = clang(scratch.path(), &edited(), "prog2", &["-O2"]);
    repo.write("k.ll", std::fs::read(&old).unwrap());
    repo.commit_all("one");
    repo.write("k.ll", std::fs::read(&new).unwrap());
    repo.commit_all("two");
    let from_git = repo.irgit_ok(&["diff", "--html", "HEAD~1", "HEAD", "--", "k.ll"]);
    let from_files = irgit(&[
        "--html",
        "--old-label=HEAD~1:k.ll",
        "--new-label=HEAD:k.ll",
        path(&old),
        path(&new),
    ]);
    assert_eq!(from_git, from_files);
    assert!(from_git.contains("data-function=\"@sum_odd_squares\""));
}

/// A stand-in browser: a script that appends the path it is given to a file.
fn recording_browser(dir: &Path) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let record = dir.join("opened.txt");
    let script = dir.join("browser.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$1\" >> '{}'\n", record.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    (script, record)
}

#[test]
fn git_difftool_opens_one_page_per_changed_file() {
    let repo = Repo::new();
    let scratch = tempfile::tempdir().unwrap();
    let old = clang(scratch.path(), PROGRAM, "prog", &["-O2"]);
    let new = clang(scratch.path(), &edited(), "prog2", &["-O2"]);
    repo.write("k.ll", std::fs::read(&old).unwrap());
    repo.write("same.ll", std::fs::read(&old).unwrap());
    repo.write("notes.txt", "one\n");
    repo.commit_all("one");
    repo.write("k.ll", std::fs::read(&new).unwrap());
    repo.write("notes.txt", "two\n");
    repo.commit_all("two");
    repo.irgit_ok(&["install", "--difftool"]);
    let configured = repo.git(&["config", "difftool.irgit.cmd"]);
    assert!(configured.contains(" diff --open "), "{configured}");
    let (browser, record) = recording_browser(scratch.path());
    let out = repo
        .command("git")
        .args([
            "difftool", "-y", "-t", "irgit", "HEAD~1", "HEAD", "--", "k.ll",
        ])
        .env("IRGIT_BROWSER", &browser)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let opened = std::fs::read_to_string(&record).unwrap();
    let pages: Vec<&str> = opened.lines().collect();
    assert_eq!(pages.len(), 1, "{opened}");
    // The path printed is the path opened.
    assert!(String::from_utf8_lossy(&out.stdout).contains(pages[0]));
    let page = std::fs::read_to_string(pages[0]).unwrap();
    assert!(page.contains("data-function=\"@sum_odd_squares\""));
    assert!(page.contains("a/k.ll") && page.contains("b/k.ll"));
    std::fs::remove_file(pages[0]).unwrap();
    // `none`: only the path, nothing opened.
    let quiet = repo
        .command("git")
        .args([
            "difftool", "-y", "-t", "irgit", "HEAD~1", "HEAD", "--", "k.ll",
        ])
        .env("IRGIT_BROWSER", "none")
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&quiet.stdout).trim().to_string();
    assert!(
        printed.ends_with(".html") && Path::new(&printed).is_file(),
        "{printed}"
    );
    std::fs::remove_file(&printed).unwrap();
    assert_eq!(std::fs::read_to_string(&record).unwrap().lines().count(), 1);
    // Uninstall takes the tool away again.
    repo.irgit_ok(&["uninstall"]);
    assert!(!repo
        .run("git", &["config", "difftool.irgit.cmd"])
        .status
        .success());
}
