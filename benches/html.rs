//! `irgit diff --html` benchmark: all of Lua 5.4 at -O2 (the module of
//! `benches/summary.rs`) against a copy with one integer constant changed,
//! once in a small function and once in `luaV_execute` (about 840 blocks,
//! the largest CFG of Lua); the page's time beside `irgit diff`'s on the
//! same files, and the time headless Chromium takes to open the page and
//! run its script (`--dump-dom`; the page's self-check must report no
//! error). Target (issue 32): page ≤ 3× `irgit diff`, opened in < 10 s.
//!
//! ```text
//! cargo bench --bench html                          # prints the table, rewrites BENCHMARKS.md's section
//! IRGIT_BENCH_NO_WRITE=1 cargo bench --bench html   # print only
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const IRGIT: &str = env!("CARGO_BIN_EXE_irgit");
const RUNS: usize = 5;

/// The copy with the first `add/sub/and/or/xor/mul iN %x, C` of `function`
/// given C + 17.
fn one_constant_changed(text: &str, function: &str) -> String {
    let mut out = Vec::new();
    let mut inside = false;
    let mut done = false;
    for line in text.lines() {
        if line.starts_with("define ") {
            inside = line.contains(&format!("@{function}("));
        }
        let mut line = line.to_string();
        if inside && !done {
            let ops = [
                " = add ", " = sub ", " = and ", " = or ", " = xor ", " = mul ",
            ];
            let (head, last) = line.rsplit_once(", ").unwrap_or(("", ""));
            if ops.iter().any(|op| line.contains(op)) && !line.contains('(') {
                if let Ok(c) = last.parse::<i64>() {
                    line = format!("{head}, {}", c + 17);
                    done = true;
                }
            }
        }
        out.push(line);
    }
    assert!(done, "no constant to change in @{function}");
    out.join("\n") + "\n"
}

fn run(args: &[&str]) -> (Duration, Vec<u8>) {
    let started = Instant::now();
    let out = Command::new(IRGIT)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    assert!(out.status.success(), "irgit {args:?}");
    (started.elapsed(), out.stdout)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Time for headless Chromium to load the page and run its script.
fn chromium_open(page: &Path) -> Duration {
    let started = Instant::now();
    let out = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .stderr(Stdio::null())
        .output()
        .expect("chromium (scripts/setup.sh installs it)");
    let took = started.elapsed();
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        dom.contains("data-ready=\"1\""),
        "the page's script did not finish"
    );
    assert!(
        dom.contains("data-errors=\"\""),
        "the page's self-check failed"
    );
    took
}

struct Row {
    what: String,
    diff: Duration,
    html: Duration,
    page_bytes: usize,
    open: Duration,
}

fn workload(dir: &Path, lua: &Path, function: &str) -> Row {
    let text = std::fs::read_to_string(lua).unwrap();
    let edited: PathBuf = dir.join(format!("lua-{function}.ll"));
    std::fs::write(&edited, one_constant_changed(&text, function)).unwrap();
    let (old, new) = (lua.to_str().unwrap(), edited.to_str().unwrap());
    let (_, summary) = run(&["diff", old, new]);
    let summary = String::from_utf8_lossy(&summary).into_owned();
    assert!(
        summary.starts_with("functions: 1 changed,") && summary.contains(&format!("@{function} ")),
        "{summary}"
    );
    let diff = median((0..RUNS).map(|_| run(&["diff", old, new]).0).collect());
    let mut page = Vec::new();
    let html = median(
        (0..RUNS)
            .map(|_| {
                let (took, out) = run(&["diff", "--html", old, new]);
                page = out;
                took
            })
            .collect(),
    );
    let page_path = dir.join(format!("lua-{function}.html"));
    std::fs::write(&page_path, &page).unwrap();
    let blocks = String::from_utf8_lossy(&page)
        .matches("<g class=\"block\" ")
        .count()
        / 2;
    Row {
        what: format!("Lua, one constant changed in @{function} (~{blocks} blocks drawn per side)"),
        diff,
        html,
        page_bytes: page.len(),
        open: chromium_open(&page_path),
    }
}

fn main() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-html");
    std::fs::create_dir_all(&dir).unwrap();
    let lua = common::lua::lua_module(&common::cache_dir());
    let rows: Vec<Row> = ["statement", "luaV_execute"]
        .iter()
        .map(|f| workload(&dir, &lua, f))
        .collect();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut md = String::from(
        "<!-- html-bench:start -->\n## `irgit diff --html` (`cargo bench --bench html`)\n\n\
         All of Lua 5.4 at -O2 (637 definitions, `llvm-link`ed; the module of `cargo bench --bench summary`) \
         against a copy with one integer constant changed. Wall time, median of 5 runs; the page opened \
         once in headless Chromium (`--dump-dom`, the page's script run and its self-check clean).\n\n\
         | workload | `irgit diff` | `irgit diff --html` | ratio | page | Chromium opens it |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for r in &rows {
        md.push_str(&format!(
            "| {} | {:.2} s | {:.2} s | {:.2}× | {:.0} KB | {:.1} s |\n",
            r.what,
            r.diff.as_secs_f64(),
            r.html.as_secs_f64(),
            r.html.as_secs_f64() / r.diff.as_secs_f64(),
            r.page_bytes as f64 / 1024.0,
            r.open.as_secs_f64()
        ));
    }
    let met = rows
        .iter()
        .all(|r| r.html.as_secs_f64() <= 3.0 * r.diff.as_secs_f64() && r.open.as_secs_f64() < 10.0);
    md.push_str(&format!(
        "\nTarget (issue 32): page ≤ 3× `irgit diff`, opened in < 10 s: **{}**. Load average during \
         the run: {} on {} cores shared with other jobs.\n<!-- html-bench:end -->\n",
        if met { "met" } else { "not met" },
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    ));
    print!("{md}");
    if std::env::var_os("IRGIT_BENCH_NO_WRITE").is_none() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let (start, end) = ("<!-- html-bench:start -->", "<!-- html-bench:end -->\n");
        let new = match (old.find(start), old.find(end)) {
            (Some(a), Some(b)) => format!("{}{md}{}", &old[..a], &old[b + end.len()..]),
            _ => format!("{}\n\n{md}", old.trim_end()),
        };
        std::fs::write(&path, new).unwrap();
    }
}
