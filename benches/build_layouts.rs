//! The view of real builds (issue 46): the real-edit corpus's edits
//! (`tests/corpus/*.c`, `tests/merge/c_triples/*.c`) compiled by clang-22
//! in four build layouts at -O0, -O0 -g, -O2 and -O2 -g, and the changed
//! lines (removed + added of a line diff) each tool shows:
//!
//! ```text
//! layout         how clang ran                            what it writes in debug info
//! in tree        cd SRC; clang file.c                     DIFile("file.c", directory: SRC)
//! out of tree    cd BUILD; clang SRC/file.c               DIFile("SRC/file.c", directory: BUILD)
//! sandboxed      cd /elsewhere; clang SRC/file.c          and a DIFile("SRC/file.c", directory: "")
//! prefix-mapped  out of tree, -ffile-prefix-map=ROOT=.    paths relative to the checkout
//!
//! raw        diff of clang's two outputs (what git alone shows)
//! textconv   diff of `irgit textconv` of each (git diff --no-ext-diff, git log -p)
//! diff -p    +/- lines of `irgit diff -p OLD NEW`
//! git diff   +/- lines of `irgit diff --smallest` with git's 7 arguments (git diff as installed)
//! llvm-diff  `<`/`>` lines of llvm-diff-22, plus one per "exists only in" line
//! ```
//!
//! ```text
//! cargo bench --bench build_layouts                  # prints the table, rewrites BENCHMARKS.md's section
//! IRGIT_BENCH_NO_WRITE=1 cargo bench --bench build_layouts
//! IRGIT_LAYOUTS_PER_KIND=2 cargo bench --bench build_layouts   # more edits (default 1 per kind and file)
//! IRGIT_LAYOUTS_KEEP=/tmp/bl cargo bench --bench build_layouts # keep each edit's IR and views there
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use common::c_edits::{compile_c_in_layout, pick_edit_cases, BuildLayout, EditCase, Level};
use common::edit_counts::{
    cell, changed_lines, count_from_env, irgit, llvm_diff_count, plus_minus_lines, stat, stdout_of,
    yes_no,
};
use common::par_map;

/// Changed lines of one edit in one layout at one level, per tool.
#[derive(Clone, Copy, Debug)]
struct Sizes {
    raw: usize,
    textconv: usize,
    patch: usize,
    git_diff: usize,
    llvm_diff: usize,
}

type Cell = (BuildLayout, Level);

fn main() {
    let start = Instant::now();
    let per_kind = count_from_env("IRGIT_LAYOUTS_PER_KIND", 1);
    let cases = pick_edit_cases(per_kind);
    eprintln!("build layouts: {} edits", cases.len());
    let jobs: Vec<(usize, BuildLayout, Level)> = (0..cases.len())
        .flat_map(|i| {
            BuildLayout::ALL
                .into_iter()
                .flat_map(move |b| Level::ALL.into_iter().map(move |l| (i, b, l)))
        })
        .collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results = par_map(&jobs, |&(i, layout, level)| {
        let r = measure(&cases[i], i, layout, level);
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if n.is_multiple_of(100) {
            eprintln!("build layouts: {n} of {} measured", jobs.len());
        }
        r
    });
    let mut by_cell: BTreeMap<Cell, BTreeMap<usize, Sizes>> = BTreeMap::new();
    for (&(i, layout, level), r) in jobs.iter().zip(results) {
        if let Some(s) = r {
            by_cell.entry((layout, level)).or_default().insert(i, s);
        }
    }
    let md = report(&cases, &by_cell, start.elapsed().as_secs_f64());
    println!("{md}");
    common::write_bench_section("build-layouts-bench", &md);
}

/// Every tool on one edit in one layout at one level (`None` when the
/// edit leaves the IR unchanged there or does not compile).
fn measure(case: &EditCase, index: usize, layout: BuildLayout, level: Level) -> Option<Sizes> {
    let place = format!(
        "e{index}-{}{}",
        &level.opt[1..],
        if level.debug { "g" } else { "" }
    );
    let old = compile_c_in_layout(&case.base, &case.file, level, layout, &place).ok()?;
    let new = compile_c_in_layout(&case.edited, &case.file, level, layout, &place).ok()?;
    if old == new {
        return None;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("old.ll"), dir.path().join("new.ll"));
    std::fs::write(&a, &old).unwrap();
    std::fs::write(&b, &new).unwrap();
    let (view_old, view_new) = (textconv(&a), textconv(&b));
    let sizes = Sizes {
        raw: changed_lines(&old, &new),
        textconv: changed_lines(&view_old, &view_new),
        patch: plus_minus_lines(&stdout_of(
            irgit()
                .args(["diff", "-p", "--color=never"])
                .arg(&a)
                .arg(&b),
            "irgit diff -p",
        )),
        git_diff: plus_minus_lines(&two_sided(&a, &b)),
        llvm_diff: llvm_diff_count(&a, &b),
    };
    keep(
        case,
        layout,
        level,
        [&old, &new, &view_old, &view_new],
        &sizes,
    );
    Some(sizes)
}

/// With `IRGIT_LAYOUTS_KEEP=DIR`: the two versions and their views under
/// `DIR/<file>-L<line>-<kind>-<layout>-<level>/`.
fn keep(case: &EditCase, layout: BuildLayout, level: Level, texts: [&str; 4], sizes: &Sizes) {
    let name = format!(
        "{}-L{}-{:?}-{}-{}",
        case.file.trim_end_matches(".c"),
        case.edit.start + 1,
        case.edit.kind,
        layout.label().replace(' ', "-"),
        level.label().replace([' ', '-'], "")
    );
    let [old, new, old_view, new_view] = texts;
    common::keep_files(
        "IRGIT_LAYOUTS_KEEP",
        &name,
        &[
            ("old.ll", old),
            ("new.ll", new),
            ("old.view.ll", old_view),
            ("new.view.ll", new_view),
            ("sizes.txt", &format!("{sizes:?}\n")),
        ],
    );
}

fn textconv(path: &Path) -> String {
    stdout_of(irgit().arg("textconv").arg(path), "irgit textconv")
}

/// What `git diff` prints for the file once irgit is installed: the
/// external diff with git's seven arguments.
fn two_sided(a: &Path, b: &Path) -> String {
    let zero = "0".repeat(40);
    stdout_of(
        irgit()
            .args(["diff", "--smallest", "file.ll"])
            .arg(a)
            .args([&zero, "100644"])
            .arg(b)
            .args([&zero, "100644"]),
        "irgit diff --smallest",
    )
}

fn report(
    cases: &[EditCase],
    by_cell: &BTreeMap<Cell, BTreeMap<usize, Sizes>>,
    secs: f64,
) -> String {
    let files: std::collections::BTreeSet<&str> = cases.iter().map(|c| c.file.as_str()).collect();
    let mut md = format!(
        "## The view of real builds (`cargo bench --bench build_layouts`)\n\n\
         {} edits of {} C files (one per kind and file, the real-edit corpus), each compiled \
         before and after by clang-22 in four build layouts: *in tree* (`clang file.c` in the \
         source directory), *out of tree* (by absolute path from a sibling build directory, as \
         CMake does), *sandboxed* (by absolute path from a directory that shares only `/` with \
         the source, as container, Nix or Bazel builds do: clang writes a second `DIFile` with \
         `directory: \"\"`), *prefix-mapped* (out of tree with `-ffile-prefix-map=ROOT=.`). \
         Changed lines, **median / p90** per edit: *raw* git alone, *textconv* the view \
         (`git log -p`, `git diff --no-ext-diff`), *`diff -p`* `irgit diff -p`, *`git diff`* \
         `irgit diff --smallest` (what `git diff` prints once irgit is installed), *llvm-diff* its \
         `<`/`>` and \"exists only in\" lines. Targets (issue 46): textconv median ≤ 2× and p90 ≤ \
         3× llvm-diff's; with -g, on the same edits, median ≤ 1.5× and p90 ≤ 2× textconv without \
         -g. This run took {secs:.0} s wall on the shared 2-core machine.\n\n\
         | layout | level | n | raw | textconv | `diff -p` | `git diff` | llvm-diff | tc med ≤ 2× ld | tc p90 ≤ 3× ld | -g / no -g (median, p90) |\n\
         |---|---|---:|---:|---:|---:|---:|---:|:-:|:-:|---|\n",
        cases.len(),
        files.len()
    );
    for (&(layout, level), rows) in by_cell {
        let col = |f: fn(&Sizes) -> usize| stat(&mut rows.values().map(f).collect::<Vec<_>>());
        let (raw, tc, patch, git, ld) = (
            col(|s| s.raw),
            col(|s| s.textconv),
            col(|s| s.patch),
            col(|s| s.git_diff),
            col(|s| s.llvm_diff),
        );
        writeln!(
            md,
            "| {} | {} | {} | {} | **{}** | {} | {} | {} | {} | {} | {} |",
            layout.label(),
            level.label(),
            rows.len(),
            cell(raw),
            cell(tc),
            cell(patch),
            cell(git),
            cell(ld),
            yes_no(tc.0 <= 2 * ld.0),
            yes_no(tc.1 <= 3 * ld.1),
            debug_ratio(by_cell, layout, level),
        )
        .unwrap();
    }
    md
}

/// For a -g level: textconv's median and p90 over the edits present with
/// and without -g in one layout, as ratios, and whether they meet
/// issue 46's targets; empty for a level without -g.
fn debug_ratio(
    by_cell: &BTreeMap<Cell, BTreeMap<usize, Sizes>>,
    layout: BuildLayout,
    level: Level,
) -> String {
    if !level.debug {
        return String::new();
    }
    let plain = Level {
        debug: false,
        ..level
    };
    let (Some(with_g), Some(without)) =
        (by_cell.get(&(layout, level)), by_cell.get(&(layout, plain)))
    else {
        return String::new();
    };
    let pairs: Vec<(usize, usize)> = without
        .iter()
        .filter_map(|(i, s)| with_g.get(i).map(|g| (s.textconv, g.textconv)))
        .collect();
    let (a, b) = (
        stat(&mut pairs.iter().map(|p| p.0).collect::<Vec<_>>()),
        stat(&mut pairs.iter().map(|p| p.1).collect::<Vec<_>>()),
    );
    let ratio = |x: usize, y: usize| y as f64 / x.max(1) as f64;
    let (rm, rp) = (ratio(a.0, b.0), ratio(a.1, b.1));
    format!("{rm:.1}×, {rp:.1}× {}", yes_no(rm <= 1.5 && rp <= 2.0))
}
