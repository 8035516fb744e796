//! Real histories (issue 28 item 5, issue 29 item 5): the git history of
//! public repositories that keep LLVM IR in git (`benches/real_history/
//! repos.yaml`: compiler golden files, hand-written lit tests, lit tests
//! with generated CHECK lines), replayed change by change.
//!
//! ```text
//! mirror of tinygo-org/tinygo ──git log──► interface.ll: v0 → v1 → v2 → …
//! each change vi → vi+1:  raw diff, the view, `irgit diff --matched`, llvm-diff, hidden?
//!                         `git diff` in a repository after `irgit install`, and git alone
//! each triple v0, v1, v2: revert of v0 → v1 on v2, then v0 → v1 applied again
//!                         (`irgit merge` as git's driver, and `git merge-file`)
//! ```
//!
//! "Never worse than git" is measured over every change and triple,
//! versions LLVM 22 rejects included: the view noisier than the raw diff,
//! `git diff` as installed noisier than git alone
//! (`real_history/installed.rs`), and merges where `git merge-file` is
//! clean and right and `irgit merge` exits non-zero. The other measures
//! count the versions LLVM 22 rejects apart.
//!
//! The view's measures are defined in `real_history/view.rs`, the merges'
//! in `real_history/merge.rs`. Changes and triples are taken newest first
//! (by the commit of their last version), up to a cap per repository entry.
//! Repositories are read from bare mirrors (the search tool's `fetch`
//! leaves them as `<dir>/<owner>+<name>/repo`); a repository without one
//! is skipped with a line saying so.
//!
//! ```text
//! cargo bench --bench real_history                  # prints the tables, rewrites BENCHMARKS.md's section
//! IRGIT_HISTORY_DIR=/work/.mirror                   # where the mirrors are (this is the default)
//! IRGIT_HISTORY_CHANGES=250 IRGIT_HISTORY_TRIPLES=120   # caps per repository entry (the defaults)
//! IRGIT_HISTORY_MAX_BYTES=1000000                   # versions larger than this are left out
//! IRGIT_HISTORY_ONLY=tinygo                         # entries whose name contains this (writes nothing)
//! IRGIT_HISTORY_JOBS=1                              # one job instead of two
//! IRGIT_HISTORY_KEEP=/tmp/rh                        # keep the versions of each noisy view, noisy git diff and merge defect there
//! IRGIT_BENCH_NO_WRITE=1                            # print only
//! IRGIT_HISTORY_LIST=heldout.yaml                   # the held-out repositories (own BENCHMARKS.md section)
//! ```

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/git_support/mod.rs"]
mod git_support;
#[path = "real_history/history.rs"]
mod history;
#[path = "real_history/installed.rs"]
mod installed;
#[path = "real_history/merge.rs"]
mod merge;
#[path = "../tests/merge_support/mod.rs"]
mod merge_support;
#[path = "real_history/report.rs"]
mod report;
#[path = "real_history/tools.rs"]
mod tools;
#[path = "real_history/view.rs"]
mod view;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use history::{file_histories, find_mirror, load_sources, read_blobs, Source, Version};
use report::RepoResult;
use tools::Blobs;

/// The run's settings, from the environment.
struct Settings {
    mirrors: PathBuf,
    changes: usize,
    triples: usize,
    max_bytes: usize,
    only: Option<String>,
    jobs: usize,
    /// `repos.yaml` or `heldout.yaml` (`IRGIT_HISTORY_LIST`).
    list: String,
}

impl Settings {
    fn held_out(&self) -> bool {
        self.list != "repos.yaml"
    }
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

impl Settings {
    fn from_env() -> Settings {
        Settings {
            mirrors: std::env::var_os("IRGIT_HISTORY_DIR")
                .map_or_else(|| PathBuf::from("/work/.mirror"), PathBuf::from),
            changes: env_number("IRGIT_HISTORY_CHANGES", 250),
            triples: env_number("IRGIT_HISTORY_TRIPLES", 120),
            max_bytes: env_number("IRGIT_HISTORY_MAX_BYTES", 1_000_000),
            only: std::env::var("IRGIT_HISTORY_ONLY").ok(),
            jobs: env_number("IRGIT_HISTORY_JOBS", 2).clamp(1, 2),
            list: std::env::var("IRGIT_HISTORY_LIST").unwrap_or_else(|_| "repos.yaml".into()),
        }
    }
}

fn main() {
    let start = Instant::now();
    let settings = Settings::from_env();
    let mut results = Vec::new();
    let mut skipped = Vec::new();
    for source in load_sources(&settings.list) {
        if settings
            .only
            .as_ref()
            .is_some_and(|o| !source.name.contains(o.as_str()))
        {
            continue;
        }
        let Some(git_dir) = find_mirror(&settings.mirrors, &source.repo) else {
            eprintln!(
                "real history: {} ({}): no mirror under {}, skipped",
                source.name,
                source.repo,
                settings.mirrors.display()
            );
            skipped.push(format!("{} ({})", source.name, source.repo));
            continue;
        };
        results.push(replay(&source, &git_dir, &settings));
    }
    let md = markdown(&results, &skipped, &settings, start.elapsed().as_secs_f64());
    println!("{md}");
    print_details(&results);
    if settings.only.is_none() && !results.is_empty() {
        let section = if settings.held_out() {
            "real-history-heldout-bench"
        } else {
            "real-history-bench"
        };
        common::write_bench_section(section, &md);
    }
}

/// Measures the view and the merges on one repository entry.
fn replay(source: &Source, git_dir: &Path, settings: &Settings) -> RepoResult {
    let started = Instant::now();
    let histories = file_histories(git_dir, source);
    let mut changes = newest_windows(&histories, 2, settings.changes);
    let mut triples = newest_windows(&histories, 3, settings.triples);
    let wanted: std::collections::BTreeSet<&str> = changes
        .iter()
        .chain(&triples)
        .flatten()
        .map(|v| v.blob.as_str())
        .collect();
    let wanted: Vec<&str> = wanted.into_iter().collect();
    let blobs = Blobs::new(read_blobs(git_dir, &wanted, settings.max_bytes));
    let picked = changes.len() + triples.len();
    changes.retain(|w| w.iter().all(|v| blobs.has(&v.blob)));
    triples.retain(|w| w.iter().all(|v| blobs.has(&v.blob)));
    let left_out = picked - changes.len() - triples.len();
    // One repository with irgit installed per lane (git's index is one
    // per repository).
    let repos: Vec<installed::Installed> = (0..settings.jobs)
        .map(|_| installed::Installed::new())
        .collect();
    let views = in_lanes(settings.jobs, &changes, |lane, w| {
        view::measure(&blobs, &repos[lane], &w[0], &w[1])
    });
    drop(repos);
    let merges = in_lanes(settings.jobs, &triples, |_, w| {
        merge::measure(&blobs, [&w[0], &w[1], &w[2]])
    });
    eprintln!(
        "real history: {}: {} changes, {} triples in {:.0} s",
        source.name,
        views.len(),
        merges.len(),
        started.elapsed().as_secs_f64()
    );
    RepoResult {
        name: source.name.clone(),
        repo: source.repo.clone(),
        kind: source.kind.clone(),
        files: histories.len(),
        versions: histories.iter().map(Vec::len).sum(),
        left_out,
        views,
        merges,
    }
}

/// Up to `cap` runs of `width` consecutive versions of one file, newest
/// first (by the time of their last version, then by path).
fn newest_windows(histories: &[Vec<Version>], width: usize, cap: usize) -> Vec<Vec<Version>> {
    let mut windows: Vec<&[Version]> = histories.iter().flat_map(|h| h.windows(width)).collect();
    windows.sort_by(|a, b| {
        let (la, lb) = (&a[width - 1], &b[width - 1]);
        lb.time.cmp(&la.time).then_with(|| la.path.cmp(&lb.path))
    });
    windows
        .into_iter()
        .take(cap)
        .map(<[Version]>::to_vec)
        .collect()
}

/// `measure` over `items` in `jobs` parallel lanes (at most two: the
/// tools each lane runs are processes of their own), in order; `measure`
/// is told its lane.
fn in_lanes<T: Sync, R: Send>(
    jobs: usize,
    items: &[T],
    measure: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let lanes: Vec<usize> = (0..jobs).collect();
    let mut done: Vec<(usize, R)> = common::par_map(&lanes, |&lane| {
        (lane..items.len())
            .step_by(jobs)
            .map(|i| (i, measure(lane, &items[i])))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The BENCHMARKS.md section.
fn markdown(results: &[RepoResult], skipped: &[String], settings: &Settings, secs: f64) -> String {
    let mut md = if settings.held_out() {
        format!(
            "## Real histories, held out (`IRGIT_HISTORY_LIST={} cargo bench --bench real_history`)\n\n\
             Repositories that no change of irgit was tuned on, measured as in the section \"Real histories\", as an \
             acceptance check.\n\n",
            settings.list
        )
    } else {
        String::from("## Real histories (`cargo bench --bench real_history`)\n\n")
    };
    let sources: Vec<String> = results
        .iter()
        .map(|r| {
            format!(
                "{} (`{}`, {} files, {} versions, {} left out)",
                r.name, r.repo, r.files, r.versions, r.left_out
            )
        })
        .collect();
    writeln!(
        md,
        "The git history of public repositories that keep LLVM IR in git \
         (`benches/real_history/{}`), read from mirrors: {}. Per entry, the newest \
         {} changes (consecutive versions of one file, first-parent history) and the newest {} \
         triples; versions over {} bytes or absent from the mirror are left out. Irgit at {}; \
         this run took {secs:.0} s wall on the shared 2-core machine, {} job(s).{}\n",
        settings.list,
        sources.join("; "),
        settings.changes,
        settings.triples,
        settings.max_bytes,
        head_commit(),
        settings.jobs,
        if skipped.is_empty() {
            String::new()
        } else {
            format!(" Skipped (no mirror): {}.", skipped.join(", "))
        }
    )
    .unwrap();
    md.push_str(NEVER_WORSE_NOTES);
    md.push_str(&report::never_worse_table(results));
    let worse = report::worse_summary(results);
    if !worse.is_empty() {
        md.push_str(
            "\nThe merges where git was clean and right and irgit exited non-zero, by reason \
             (irgit's stderr; the bench prints each merge):\n\n",
        );
        md.push_str(&worse);
    }
    md.push_str(
        "\nThe noisiest views over every change (furthest past max(raw + 4, 1.25 × raw)):\n\n",
    );
    md.push_str(&report::worst_all_table(&report::worst_by(
        results,
        8,
        view::ViewChange::excess,
    )));
    md.push_str("\nThe noisiest `git diff` as installed (most lines past git's own):\n\n");
    md.push_str(&report::worst_all_table(&report::worst_by(
        results,
        8,
        report::git_excess,
    )));
    md.push_str(VIEW_NOTES);
    md.push_str(&report::view_table(results));
    md.push_str("\nThe worst changes (view furthest past max(raw + 4, 1.25 × raw)):\n\n");
    md.push_str(&report::worst_table(&report::worst_views(results, 8)));
    md.push_str(MERGE_NOTES);
    md.push_str(&report::merge_table(results));
    let defects = report::merge_defects(results);
    if !defects.is_empty() {
        md.push_str(
            "\nThe merges counted in bold columns, and the clashes named (the bench prints each with irgit's \
             stderr):\n\n",
        );
        md.push_str(&report::defect_summary(&defects));
    }
    md
}

const NEVER_WORSE_NOTES: &str = "\n### Never worse than git\n\n\
    Over every change and every triple, versions LLVM 22 rejects included (the sections below \
    count those apart). *View noisier*: the view's diff (`irgit textconv` of each version) has \
    more than max(raw + 4, 1.25 × raw) changed lines, raw and view counted as in \"The view\"; \
    *view / raw lines*: their totals. *Git diff as installed*: the `+`/`-` lines `git diff` \
    prints in a repository where `irgit install` ran (its defaults: the textconv, and \
    `irgit diff --smallest` as the external diff), the old version staged \
    and the new one in the work tree, against `git diff --no-ext-diff --no-textconv` in the \
    same repository (git alone); *noisier than git*: more lines than git alone at all; \
    *failed*: git's diff exited non-zero. *Git clean & right, irgit conflicts*: merges (a \
    triple's revert, or its re-application) where the expected result is known (as in \
    \"The merge\"), `git merge-file` is clean and gives it byte for byte, and `irgit merge` \
    as git's driver exits non-zero, clash named or not; in parentheses those with an input \
    LLVM 22 rejects. Targets: 0 in every bold column.\n\n";

const VIEW_NOTES: &str = "\n### The view\n\n\
    Changed lines = removed + added lines of a line diff. *raw*: the two versions as written \
    (what git shows without irgit); *view*: `irgit textconv` of each (what `git diff` shows); \
    *matched*: +/- lines of `irgit diff --matched`; *llvm-diff*: its `<`/`>` and \"exists only \
    in\" lines. *View noisier*: more than max(raw + 4, 1.25 × raw) lines (issue 28: at most 1% of \
    changes); *view larger*: more than raw at all. The line ratios are totals over the changes \
    LLVM 22 accepts (issue 28: view / raw at most 100%). *Textconv fallbacks*: changes where \
    `irgit textconv` showed a version LLVM accepts as written (it failed; must be 0). *Hidden*: LLVM prints the two versions \
    differently (`opt -S`, top-level entities sorted), the view shows no diff, and llvm-diff \
    reports a difference (must be 0). *Names or layout*: the same, but llvm-diff sees no \
    difference either: renamed values or blocks, or blocks in another order, which the view's \
    canonical names and order leave out (issue 28 item 2 asks the view to keep a file's own \
    names). *LLVM rejects*: changes where \
    LLVM 22 rejects a version (it does not parse or verify, or its debug info does not \
    verify), counted apart.\n\n";

const MERGE_NOTES: &str = "\n### The merge\n\n\
    Each triple v0 → v1 → v2: the revert of v0 → v1 made on v2 (base v1, ours v2, theirs v0), \
    then v0 → v1 applied again on irgit's revert when that was clean (base v0, ours the revert, \
    theirs v1; expected v2). `irgit merge` runs as git's driver, `git merge-file --diff3` on the \
    same texts. *Round trip exact*: both clean and the result is v2 byte for byte (git: its own \
    revert, re-applied by git). *In ours' text*: of irgit's clean merges, those not in canonical \
    form whose `diff ours result` is no larger than `diff base theirs`. *Canonical form*: stderr \
    says the result is written in canonical form. *Fallbacks*: a line merge although LLVM 22 \
    accepts all three inputs. The expected result is known where the two changes are apart \
    (git reverts cleanly, its revert, re-applied by git, is v2, and LLVM 22 accepts git's \
    revert): then it is git's revert, and v2 for the re-application. *Wrong*: clean, the expected known, and the result is not \
    it (bytes or canonical form). *Conflict, git clean & right*: irgit conflicts where the \
    expected is known and git's result is it, and names no clash; *clash named*: the same, where irgit's \
    stderr names the clash (a call to a signature the other side changed, a function removed that the other \
    side calls, a value both sides renamed, git's clean result and the structured merge disagreeing, both \
    sides changing one function's generated CHECK lines where FileCheck could not confirm the merge: issue 44 \
    asks for a conflict there unless FileCheck passes), which issue 29 accepts: git's result is then right only by this bench's measure. *Broken*: neither clean nor a conflict with \
    markers (a crash, exit 1 without markers); in parentheses those where LLVM 22 rejects an \
    input (irgit then refuses the line merge's invalid result without markers, saying so). \
    *Conflict, git clean & right* and *fallbacks* count only triples whose inputs LLVM 22 \
    accepts. Issue 29's targets: 0 in every bold column.\n\n";

/// The worktree's commit (the irgit measured).
fn head_commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// The lists for the view's and the merge's owners (stdout only).
fn print_details(results: &[RepoResult]) {
    println!("\nThe 10 worst view changes:");
    for (name, c) in report::worst_views(results, 10) {
        println!(
            "  {name} {} {}: raw {}, view {}, matched {}, llvm-diff {}",
            c.commit, c.path, c.raw, c.view, c.matched, c.llvm_diff
        );
    }
    for r in results {
        for c in r.views.iter().filter(|c| c.view_fell_back) {
            println!("textconv fell back: {} {} {}", r.name, c.commit, c.path);
        }
        for c in r.views.iter().filter(|c| c.hidden || c.names_or_layout) {
            let what = if c.hidden {
                "hidden"
            } else {
                "names or layout only, not in the view"
            };
            println!("{what}: {} {} {}: raw {}", r.name, c.commit, c.path, c.raw);
        }
    }
    for r in results {
        for c in &r.views {
            if let Some(why) = &c.git_failed {
                println!(
                    "git diff as installed failed: {} {} {}: {why}",
                    r.name, c.commit, c.path
                );
            }
        }
    }
    println!("\nThe 10 noisiest git diffs as installed (every change):");
    for (name, c) in report::worst_by(results, 10, report::git_excess) {
        println!(
            "  {name} {} {}: git {}, installed {}, raw {}, view {}, LLVM rejects: {}",
            c.commit, c.path, c.git_alone, c.git_installed, c.raw, c.view, c.rejected
        );
    }
    let differ: usize = results
        .iter()
        .flat_map(|r| &r.views)
        .filter(|c| c.raw != c.git_alone)
        .count();
    println!("changes whose raw count (Myers, similar) is not git's own: {differ}");
    println!("\nMerges where git was clean and right and irgit exited non-zero:");
    for line in report::worse_merges(results) {
        println!("  {line}");
    }
    println!("\nMerges to look at:");
    for defect in report::merge_defects(results) {
        println!("  {}", defect.line());
    }
}
