//! Real source edits (issue 16 item 1, issue 18 item 4): small edits of the
//! C programs of the test corpus (`tests/corpus/*.c`, `tests/merge/c_triples/*.c`),
//! both versions compiled by clang-22 at -O0, -O0 -g, -O2 and -O2 -g, and
//! the changed lines (removed + added of a line diff) that each tool shows:
//!
//! ```text
//! raw        diff of clang's two outputs
//! textconv   diff of `irgit textconv` of each (what `git diff` shows)
//! diff -p    +/- lines of `irgit diff -p OLD NEW`
//! llvm-diff  `<` and `>` lines of `llvm-diff-22 OLD NEW`, plus one per
//!            "exists only in" line (a function or global on one side)
//! normalize  diff of `opt-22 -passes=normalize -S` of each; at -O0 both
//!            sides are compiled again with `-Xclang -disable-O0-optnone`,
//!            since the pass skips optnone functions
//! ```
//!
//! An edit is kept when it compiles and changes the -O0 IR; at a level where
//! both versions compile to the same IR it is left out of that level.
//!
//! ```text
//! cargo bench --bench real_edits                   # prints the tables, rewrites BENCHMARKS.md's section
//! IRGIT_BENCH_NO_WRITE=1 cargo bench --bench real_edits
//! IRGIT_REAL_EDITS_PER_KIND=1 cargo bench --bench real_edits   # fewer edits (default 2 per kind and file)
//! IRGIT_REAL_EDITS_LEVELS=O0,O2g cargo bench --bench real_edits # some levels only (prints, writes nothing)
//! IRGIT_REAL_EDITS_KEEP=/tmp/re cargo bench --bench real_edits  # keep each edit's IR and views there
//! ```
//!
//! With `IRGIT_REAL_EDITS_KEEP=DIR`, each edit at each level leaves
//! `DIR/<file>-L<line>-<kind>-<level>/` with `old.ll`, `new.ll`, their
//! textconv views `old.view.ll`, `new.view.ll`, and `sizes.txt`.
//!
//! Compiled IR, normalize's output and llvm-diff's counts are cached under
//! `target/`; irgit runs every time (it is what is measured).

#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use common::c_edits::{compile_c_text, pick_edit_cases, CEditKind, EditCase as Case, Level};
use common::edit_counts::{
    cell, changed_lines, count_from_env, irgit, llvm_diff_count, plus_minus_lines, stat, stdout_of,
    yes_no,
};
use common::{cache_dir, fnv, par_map, write_atomic};

/// Changed lines of one edit at one level, per tool.
#[derive(Clone, Debug)]
struct Sizes {
    raw: usize,
    textconv: usize,
    patch: usize,
    llvm_diff: usize,
    normalize: usize,
    /// The textconv diff changes a line outside the edited function.
    textconv_outside: bool,
    /// So does the raw diff (a string constant deleted with its last use,
    /// a static local's initializer).
    raw_outside: bool,
    /// `irgit diff` reports a function other than the edited one as
    /// changed (computed at -O0 and -O0 -g only).
    /// (`irgit diff` names another function, and every one it names was removed).
    diff_names_other: Option<(bool, bool)>,
}

fn main() {
    let start = Instant::now();
    let per_kind = count_from_env("IRGIT_REAL_EDITS_PER_KIND", 2);
    let cases = pick_edit_cases(per_kind);
    eprintln!("real edits: {} edits kept", cases.len());
    let levels = chosen_levels();
    let jobs: Vec<(usize, Level)> = (0..cases.len())
        .flat_map(|i| levels.iter().map(move |&l| (i, l)))
        .collect();
    let results = par_map(&jobs, |&(i, level)| measure(&cases[i], level));
    let mut by_level: BTreeMap<Level, Vec<(usize, Sizes)>> = BTreeMap::new();
    for (&(i, level), r) in jobs.iter().zip(results) {
        if let Some(s) = r {
            by_level.entry(level).or_default().push((i, s));
        }
    }
    let md = report(&cases, &by_level, start.elapsed().as_secs_f64());
    println!("{md}");
    print_outside(&cases, &by_level);
    if levels.len() == Level::ALL.len() {
        common::write_bench_section("real-edits-bench", &md);
    }
}

/// The levels `IRGIT_REAL_EDITS_LEVELS` names (`O0,O0g,O2,O2g`), or all.
fn chosen_levels() -> Vec<Level> {
    let Ok(names) = std::env::var("IRGIT_REAL_EDITS_LEVELS") else {
        return Level::ALL.to_vec();
    };
    let short = |l: &Level| format!("{}{}", &l.opt[1..], if l.debug { "g" } else { "" });
    let wanted: Vec<&str> = names.split(',').map(str::trim).collect();
    let levels: Vec<Level> = Level::ALL
        .into_iter()
        .filter(|l| wanted.contains(&short(l).as_str()))
        .collect();
    assert!(
        !levels.is_empty(),
        "IRGIT_REAL_EDITS_LEVELS={names}: no level among O0, O0g, O2, O2g"
    );
    levels
}

/// Leaves one edit's IR, views and sizes under `IRGIT_REAL_EDITS_KEEP`.
fn keep(case: &Case, level: Level, texts: [&str; 4], sizes: &Sizes) {
    let name = format!(
        "{}-L{}-{:?}-{}",
        case.file.trim_end_matches(".c"),
        case.edit.start + 1,
        case.edit.kind,
        level.label().replace([' ', '-'], "")
    );
    let sizes = format!("{sizes:#?}\n");
    let [old, new, old_view, new_view] = texts;
    common::keep_files(
        "IRGIT_REAL_EDITS_KEEP",
        &name,
        &[
            ("old.ll", old),
            ("new.ll", new),
            ("old.view.ll", old_view),
            ("new.view.ll", new_view),
            ("sizes.txt", &sizes),
        ],
    );
}

/// All tools on one edit at one level (`None` when the edit does not
/// change the IR at this level or does not compile there).
fn measure(case: &Case, level: Level) -> Option<Sizes> {
    let old = compile_c_text(&case.base, &case.file, level, false).ok()?;
    let new = compile_c_text(&case.edited, &case.file, level, false).ok()?;
    if old == new {
        return None;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("old.ll"), dir.path().join("new.ll"));
    std::fs::write(&a, &old).unwrap();
    std::fs::write(&b, &new).unwrap();
    let (tc_old, tc_new) = (textconv(&a, &old), textconv(&b, &new));
    let o0 = level.opt == "-O0";
    let (norm_old, norm_new) = if o0 {
        (
            compile_c_text(&case.base, &case.file, level, true).ok()?,
            compile_c_text(&case.edited, &case.file, level, true).ok()?,
        )
    } else {
        (old.clone(), new.clone())
    };
    let sizes = Sizes {
        raw: changed_lines(&old, &new),
        textconv: changed_lines(&tc_old, &tc_new),
        patch: patch_lines(&a, &b),
        llvm_diff: llvm_diff_lines(&old, &new, &a, &b),
        normalize: changed_lines(&normalized(&norm_old), &normalized(&norm_new)),
        textconv_outside: changes_outside(&tc_old, &tc_new, &case.edit.func),
        raw_outside: changes_outside(&old, &new, &case.edit.func),
        diff_names_other: o0.then(|| diff_names_other(&a, &b, &case.edit.func)),
    };
    keep(case, level, [&old, &new, &tc_old, &tc_new], &sizes);
    Some(sizes)
}

/// `irgit textconv FILE`: the view git's diff shows. The base side of a
/// file and level is the same for all its edits, so it is kept in memory.
fn textconv(path: &Path, text: &str) -> String {
    static SEEN: Mutex<Option<HashMap<u64, String>>> = Mutex::new(None);
    let key = fnv(text.as_bytes());
    if let Some(v) = SEEN.lock().unwrap().get_or_insert_default().get(&key) {
        return v.clone();
    }
    let view = stdout_of(irgit().arg("textconv").arg(path), "irgit textconv");
    SEEN.lock()
        .unwrap()
        .get_or_insert_default()
        .insert(key, view.clone());
    view
}

/// `+`/`-` lines of `irgit diff -p OLD NEW` (not the `---`/`+++` headers).
fn patch_lines(a: &Path, b: &Path) -> usize {
    plus_minus_lines(&stdout_of(
        irgit().args(["diff", "-p", "--color=never"]).arg(a).arg(b),
        "irgit diff -p",
    ))
}

/// Whether `irgit diff --json` reports a function other than `func` as
/// changed, added, removed or renamed; and whether each one it reports was
/// removed (clang drops a static function whose only call the edit deleted:
/// the IR really lost it).
fn diff_names_other(a: &Path, b: &Path, func: &str) -> (bool, bool) {
    let out = stdout_of(irgit().args(["diff", "--json"]).arg(a).arg(b), "irgit diff");
    let v: serde_json::Value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("irgit diff --json printed no JSON ({e}): {out}"));
    let others: Vec<&serde_json::Value> = v["functions"]
        .as_array()
        .map(|fs| {
            fs.iter()
                .filter(|f| {
                    f["status"].as_str() != Some("unchanged")
                        && f["name"].as_str() != Some(&format!("@{func}"))
                })
                .collect()
        })
        .unwrap_or_default();
    let all_removed = others
        .iter()
        .all(|f| f["status"].as_str() == Some("removed"));
    (!others.is_empty(), all_removed)
}

/// Differing lines llvm-diff reports (cached: it depends on LLVM only).
fn llvm_diff_lines(old: &str, new: &str, a: &Path, b: &Path) -> usize {
    let cached = cached_path("llvm-diff", &format!("{old}\0{new}"), "count");
    if let Some(n) = std::fs::read_to_string(&cached)
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        return n;
    }
    let n = llvm_diff_count(a, b);
    write_atomic(&cached, n.to_string().as_bytes());
    n
}

/// `opt -passes=normalize -S` of `text` (cached).
fn normalized(text: &str) -> String {
    let cached = cached_path("normalize", text, "ll");
    if let Ok(t) = std::fs::read_to_string(&cached) {
        return t;
    }
    let t = common::opt_text(&["-passes=normalize"], text)
        .unwrap_or_else(|e| panic!("opt -passes=normalize failed: {e}"));
    write_atomic(&cached, t.as_bytes());
    t
}

fn cached_path(what: &str, key: &str, ext: &str) -> PathBuf {
    let dir = cache_dir().join(what);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{:016x}.{ext}", fnv(key.as_bytes())))
}

/// For each line of an IR text, the function whose body it is in.
fn enclosing_functions(text: &str) -> Vec<Option<&str>> {
    let mut out = Vec::new();
    let mut current = None;
    for line in text.lines() {
        if line.starts_with("define ") {
            current = line
                .split_once('@')
                .map(|(_, rest)| rest.split('(').next().unwrap_or("").trim_matches('"'));
        }
        out.push(current);
        if line == "}" {
            current = None;
        }
    }
    out
}

/// Whether the line diff of `a` and `b` changes a line outside `func`.
fn changes_outside(a: &str, b: &str, func: &str) -> bool {
    use similar::{ChangeTag, TextDiff};
    let (fa, fb) = (enclosing_functions(a), enclosing_functions(b));
    let d = TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_lines(a, b);
    d.iter_all_changes().any(|c| match c.tag() {
        ChangeTag::Delete => fa[c.old_index().unwrap()] != Some(func),
        ChangeTag::Insert => fb[c.new_index().unwrap()] != Some(func),
        ChangeTag::Equal => false,
    })
}

/// The -O0 edits whose textconv diff changes lines outside the edited
/// function (stdout only: the cases to look at).
fn print_outside(cases: &[Case], by_level: &BTreeMap<Level, Vec<(usize, Sizes)>>) {
    let Some(rows) = by_level.get(&Level::ALL[0]) else {
        return;
    };
    for (i, s) in rows.iter().filter(|(_, s)| s.textconv_outside) {
        println!(
            "-O0 textconv changes lines outside the edited function: {} {}{}",
            cases[*i].file,
            cases[*i].edit.describe(),
            if s.raw_outside {
                " (so does the raw diff)"
            } else {
                ""
            }
        );
    }
}

/// One row of the main table: the five tools and issue 16's targets.
fn tool_row(label: &str, sizes: &[&Sizes]) -> String {
    let col = |f: fn(&Sizes) -> usize| stat(&mut sizes.iter().map(|s| f(s)).collect::<Vec<_>>());
    let (raw, tc, patch, ld, norm) = (
        col(|s| s.raw),
        col(|s| s.textconv),
        col(|s| s.patch),
        col(|s| s.llvm_diff),
        col(|s| s.normalize),
    );
    format!(
        "| {label} | {} | {} | **{}** | {} | {} | {} | {} | {} | {} |",
        sizes.len(),
        cell(raw),
        cell(tc),
        cell(patch),
        cell(ld),
        cell(norm),
        yes_no(tc.0 <= 2 * ld.0),
        yes_no(tc.1 <= 3 * ld.1),
        yes_no(tc.1 <= raw.1),
    )
}

fn report(cases: &[Case], by_level: &BTreeMap<Level, Vec<(usize, Sizes)>>, secs: f64) -> String {
    let mut md = String::new();
    let files: std::collections::BTreeSet<&str> = cases.iter().map(|c| c.file.as_str()).collect();
    writeln!(
        md,
        "## Real source edits (`cargo bench --bench real_edits`)\n"
    )
    .unwrap();
    writeln!(
        md,
        "{} edits of {} C files (`tests/corpus`, `tests/merge/c_triples`), each compiled before and \
         after by clang-22 at four levels (debug paths mapped to one directory). Changed lines = \
         removed + added lines of a line diff, **median / p90** per edit. `diff -p`: the `+`/`-` \
         lines of `irgit diff -p`. llvm-diff: its `<`/`>` lines, plus one per \"exists only in\" \
         line. normalize: `opt-22 -passes=normalize -S` of both sides (at -O0 compiled with \
         `-Xclang -disable-O0-optnone`, since the pass skips optnone functions). Edits that leave \
         a level's IR unchanged are left out of that level. Issue 16's targets for textconv: \
         median ≤ 2× llvm-diff's, p90 ≤ 3× llvm-diff's, p90 ≤ raw's. This run took \
         {secs:.0} s wall on the shared 2-core machine (clang's output is cached under `target/`; \
         a first run compiles it all).\n",
        cases.len(),
        files.len()
    )
    .unwrap();
    writeln!(
        md,
        "| level / edit | n | raw | textconv | `diff -p` | llvm-diff | normalize | tc med ≤ 2× ld | tc p90 ≤ 3× ld | tc p90 ≤ raw |"
    )
    .unwrap();
    writeln!(md, "|---|---:|---:|---:|---:|---:|---:|:-:|:-:|:-:|").unwrap();
    for (level, rows) in by_level {
        let all: Vec<&Sizes> = rows.iter().map(|(_, s)| s).collect();
        writeln!(
            md,
            "{}",
            tool_row(&format!("**{}, all edits**", level.label()), &all)
        )
        .unwrap();
        for kind in CEditKind::ALL {
            let some: Vec<&Sizes> = rows
                .iter()
                .filter(|(i, _)| cases[*i].edit.kind == kind)
                .map(|(_, s)| s)
                .collect();
            if !some.is_empty() {
                writeln!(
                    md,
                    "{}",
                    tool_row(&format!("{}, {}", level.label(), kind.label()), &some)
                )
                .unwrap();
            }
        }
    }
    md.push_str(&debug_ratio_table(cases, by_level));
    md.push_str(&locality_lines(by_level));
    md
}

/// textconv with -g against the same edits' textconv without (issue 18:
/// median ≤ 2×, p90 ≤ 4×).
fn debug_ratio_table(cases: &[Case], by_level: &BTreeMap<Level, Vec<(usize, Sizes)>>) -> String {
    let mut md = String::from(
        "\n### textconv with debug info against without (the same edits, present at both levels)\n\n\
         | level / edit | n | textconv | textconv -g | median ratio | p90 ratio | ≤ 2× / ≤ 4× |\n\
         |---|---:|---:|---:|---:|---:|:-:|\n",
    );
    for opt in ["-O0", "-O2"] {
        let find = |debug: bool| -> HashMap<usize, &Sizes> {
            by_level
                .get(&Level { opt, debug })
                .map(|v| v.iter().map(|(i, s)| (*i, s)).collect())
                .unwrap_or_default()
        };
        let (plain, with_g) = (find(false), find(true));
        let mut groups: Vec<(String, Option<CEditKind>)> =
            vec![(format!("**{opt}, all edits**"), None)];
        groups.extend(CEditKind::ALL.map(|k| (format!("{opt}, {}", k.label()), Some(k))));
        for (label, kind) in groups {
            let pairs: Vec<(usize, usize)> = plain
                .iter()
                .filter(|(i, _)| kind.is_none_or(|k| cases[**i].edit.kind == k))
                .filter_map(|(i, s)| with_g.get(i).map(|g| (s.textconv, g.textconv)))
                .collect();
            if pairs.is_empty() {
                continue;
            }
            let a = stat(&mut pairs.iter().map(|p| p.0).collect::<Vec<_>>());
            let b = stat(&mut pairs.iter().map(|p| p.1).collect::<Vec<_>>());
            let ratio = |x: usize, y: usize| y as f64 / x.max(1) as f64;
            let (rm, rp) = (ratio(a.0, b.0), ratio(a.1, b.1));
            writeln!(
                md,
                "| {label} | {} | {} | {} | {rm:.1}× | {rp:.1}× | {} |",
                pairs.len(),
                cell(a),
                cell(b),
                yes_no(rm <= 2.0 && rp <= 4.0)
            )
            .unwrap();
        }
    }
    md
}

/// Issue 16's locality target (-O0: no changed line outside the edited
/// function) and issue 18's (-O0 -g: `irgit diff` names only it).
fn locality_lines(by_level: &BTreeMap<Level, Vec<(usize, Sizes)>>) -> String {
    let mut md = String::from("\n### Locality\n\n");
    for (level, rows) in by_level {
        let outside = rows.iter().filter(|(_, s)| s.textconv_outside).count();
        let view_only = rows
            .iter()
            .filter(|(_, s)| s.textconv_outside && !s.raw_outside)
            .count();
        write!(
            md,
            "- {}: textconv diff changes a line outside the edited function in {outside} of {} \
             edits ({view_only} where the raw diff does not)",
            level.label(),
            rows.len()
        )
        .unwrap();
        let named: Vec<(bool, bool)> = rows
            .iter()
            .filter_map(|(_, s)| s.diff_names_other)
            .collect();
        if !named.is_empty() {
            let n = named.iter().filter(|x| x.0).count();
            let removed = named.iter().filter(|x| x.0 && x.1).count();
            write!(
                md,
                "; `irgit diff` names another function in {n} of {} ({removed} of them only as \
                 removed: the deleted statement was the only call of a static function, which \
                 clang then drops)",
                named.len()
            )
            .unwrap();
        }
        md.push('\n');
    }
    md.push_str(
        "\nTargets: at -O0 no textconv line outside the edited function (issue 16) where the \
         source edit itself changes nothing outside it (the raw diff also changes lines outside \
         when a deleted statement was the last use of a string constant, or the edit is in a \
         static local's or a constant aggregate's initializer); at -O0 -g \
         `irgit diff` names only the edited function (issue 18). At -O2 inlining moves code \
         across functions, and with -g the metadata lines sit outside every function, so those \
         rows are for information.\n",
    );
    md
}
