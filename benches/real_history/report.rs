//! The bench's tables (markdown, for BENCHMARKS.md) and the lists of
//! changes and merges to look at (stdout).
//!
//! ```text
//! | repository | kind | changes | LLVM rejects | noisier | view / raw | … | hidden |
//! | tinygo golden | golden | 250 | 3 | 31 (12.6%) | 83% | … | 0 |
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::merge::{Judged, TripleResult};
use crate::view::ViewChange;

/// Everything measured on one entry of `repos.yaml`.
pub struct RepoResult {
    pub name: String,
    pub repo: String,
    pub kind: String,
    pub files: usize,
    pub versions: usize,
    /// Picked changes or triples left out: a version absent from the mirror
    /// or larger than the size limit.
    pub left_out: usize,
    pub views: Vec<ViewChange>,
    pub merges: Vec<TripleResult>,
}

fn pct(k: usize, n: usize) -> String {
    format!("{k} ({:.1}%)", 100.0 * k as f64 / n.max(1) as f64)
}

fn ratio(part: usize, whole: usize) -> String {
    format!("{:.0}%", 100.0 * part as f64 / whole.max(1) as f64)
}

/// The view table: one row per repository.
pub fn view_table(results: &[RepoResult]) -> String {
    let mut md = String::from(
        "| repository | kind | files | changes | LLVM rejects | view noisier | view larger | \
         view / raw lines | matched / raw | llvm-diff / raw | textconv fallbacks | hidden | names or layout |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in results {
        let ok: Vec<&ViewChange> = r.views.iter().filter(|c| !c.rejected).collect();
        let total = |f: fn(&ViewChange) -> usize| ok.iter().map(|c| f(c)).sum::<usize>();
        let raw = total(|c| c.raw);
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | **{}** | **{}** | {} |",
            r.name,
            r.kind,
            r.files,
            r.views.len(),
            r.views.len() - ok.len(),
            pct(ok.iter().filter(|c| c.noisier()).count(), ok.len()),
            pct(ok.iter().filter(|c| c.view > c.raw).count(), ok.len()),
            ratio(total(|c| c.view), raw),
            ratio(total(|c| c.matched), raw),
            ratio(total(|c| c.llvm_diff), raw),
            ok.iter().filter(|c| c.view_fell_back).count(),
            ok.iter().filter(|c| c.hidden).count(),
            ok.iter().filter(|c| c.names_or_layout).count(),
        )
        .unwrap();
    }
    md
}

/// The `count` changes whose view is furthest past max(raw + 4, 1.25 × raw).
pub fn worst_views(results: &[RepoResult], count: usize) -> Vec<(&str, &ViewChange)> {
    let mut all: Vec<(&str, &ViewChange)> = results
        .iter()
        .flat_map(|r| r.views.iter().map(move |c| (r.name.as_str(), c)))
        .filter(|(_, c)| !c.rejected && c.noisier())
        .collect();
    all.sort_by_key(|(_, c)| std::cmp::Reverse(c.excess()));
    all.truncate(count);
    all
}

/// The worst changes as a markdown table.
pub fn worst_table(worst: &[(&str, &ViewChange)]) -> String {
    let mut md = String::from(
        "| repository | commit | file | raw | view | matched | llvm-diff |\n\
         |---|---|---|---:|---:|---:|---:|\n",
    );
    for (name, c) in worst {
        writeln!(
            md,
            "| {name} | {} | `{}` | {} | {} | {} | {} |",
            c.commit, c.path, c.raw, c.view, c.matched, c.llvm_diff
        )
        .unwrap();
    }
    md
}

/// Counts over every irgit merge of a repository (reverts and re-applications).
#[derive(Default)]
struct MergeCounts {
    runs: usize,
    clean: usize,
    ours_text: usize,
    canonical_form: usize,
    fallback: usize,
    llvm_rejects: usize,
    wrong: usize,
    conflict_git_right: usize,
    conflict_clash_named: usize,
    broken: usize,
    broken_input_rejected: usize,
}

impl MergeCounts {
    fn add(&mut self, j: &Judged) {
        self.runs += 1;
        self.clean += j.clean as usize;
        self.ours_text += j.ours_text as usize;
        self.canonical_form += j.canonical_form as usize;
        self.fallback += j.fallback as usize;
        self.llvm_rejects += j.llvm_rejects as usize;
        self.wrong += j.wrong as usize;
        self.conflict_git_right += j.conflict_git_right as usize;
        self.conflict_clash_named += j.conflict_clash_named as usize;
        self.broken += (j.broken.is_some() && j.accepted) as usize;
        self.broken_input_rejected += (j.broken.is_some() && !j.accepted) as usize;
    }
}

/// The merge table: one row per repository.
pub fn merge_table(results: &[RepoResult]) -> String {
    let mut md = String::from(
        "| repository | triples | inputs LLVM accepts | revert: irgit clean | git clean | \
         re-apply: irgit clean | git clean | round trip exact: irgit | git | in ours' text | \
         canonical form | fallbacks | wrong | clean, LLVM rejects | conflict, git clean & right | \
         clash named | broken |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in results {
        let m = &r.merges;
        let count = |f: fn(&TripleResult) -> bool| m.iter().filter(|t| f(t)).count();
        let mut c = MergeCounts::default();
        for t in m {
            c.add(&t.revert);
            if let Some(j) = &t.reapply {
                c.add(j);
            }
        }
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | **{}** | **{}** | **{}** | **{}** | **{}** | {} | **{}** (+{}) |",
            r.name,
            m.len(),
            count(|t| t.inputs_accepted),
            count(|t| t.revert.clean),
            count(|t| t.git_revert_clean),
            count(|t| t.reapply.as_ref().is_some_and(|j| j.clean)),
            count(|t| t.reapply.is_some() && t.git_reapply_clean),
            count(|t| t.round_trip_exact),
            count(|t| t.git_round_trip_exact),
            pct(c.ours_text, c.clean),
            c.canonical_form,
            c.fallback,
            c.wrong,
            c.llvm_rejects,
            c.conflict_git_right,
            c.conflict_clash_named,
            c.broken,
            c.broken_input_rejected,
        )
        .unwrap();
    }
    md
}

/// One irgit merge that is one of the defects the table counts.
pub struct Defect<'a> {
    pub what: String,
    pub repo: &'a str,
    pub commit: &'a str,
    pub path: &'a str,
    pub step: &'static str,
    pub note: &'a str,
}

impl Defect<'_> {
    /// `what: repo commit `file` (step): irgit's stderr`.
    pub fn line(&self) -> String {
        format!(
            "{}: {} {} `{}` ({}): {}",
            self.what, self.repo, self.commit, self.path, self.step, self.note
        )
    }
}

/// Every irgit merge that is one of the defects the table counts, with
/// its commit, file, step and irgit's stderr, sorted by defect.
pub fn merge_defects(results: &[RepoResult]) -> Vec<Defect<'_>> {
    let mut found = Vec::new();
    for r in results {
        for t in &r.merges {
            let steps = [
                ("revert", Some(&t.revert)),
                ("re-apply", t.reapply.as_ref()),
            ];
            for (step, judged) in steps {
                let Some(j) = judged else { continue };
                for what in defects(j) {
                    found.push(Defect {
                        what,
                        repo: &r.name,
                        commit: &t.commit,
                        path: &t.path,
                        step,
                        note: &j.note,
                    });
                }
            }
        }
    }
    found.sort_by_key(|d| d.line());
    found
}

/// The defects, one line per kind and repository: how many merges, and
/// the commits and files they come from.
pub fn defect_summary(defects: &[Defect]) -> String {
    let mut groups: BTreeMap<(&str, &str), Vec<&Defect>> = BTreeMap::new();
    for d in defects {
        let kind = match d.what.split(" (").next().unwrap_or(&d.what) {
            "broken" if d.what.contains("LLVM rejects an input") => "broken, LLVM rejects an input",
            kind => kind,
        };
        groups.entry((kind, d.repo)).or_default().push(d);
    }
    let mut md = String::new();
    for ((kind, repo), group) in groups {
        let commits: BTreeSet<&str> = group.iter().map(|d| d.commit).collect();
        let files: BTreeSet<&str> = group
            .iter()
            .map(|d| d.path.rsplit('/').next().unwrap_or(d.path))
            .collect();
        let files: Vec<&str> = files.into_iter().collect();
        let commits: Vec<&str> = commits.into_iter().collect();
        writeln!(
            md,
            "- {kind}, {repo}: {} merges; commits {}; files {}",
            group.len(),
            commits.join(", "),
            files.join(", ")
        )
        .unwrap();
    }
    md
}

fn defects(j: &Judged) -> Vec<String> {
    let flags = [
        (j.canonical_form, "canonical form"),
        (j.fallback, "fallback"),
        (j.wrong, "wrong"),
        (j.llvm_rejects, "clean, LLVM rejects"),
        (j.conflict_git_right, "conflict, git clean & right"),
        (
            j.conflict_clash_named,
            "conflict, git clean & right, clash named",
        ),
    ];
    let mut out: Vec<String> = flags
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| name.to_string())
        .collect();
    if let Some(why) = &j.broken {
        let inputs = if j.accepted {
            ""
        } else {
            ", LLVM rejects an input"
        };
        out.push(format!("broken ({why}{inputs})"));
    }
    out
}

/// `part / whole lines (ratio)`.
fn lines_ratio(part: usize, whole: usize) -> String {
    format!("{part} / {whole} ({})", ratio(part, whole))
}

/// The table of "never worse than git": every change and triple, versions
/// LLVM 22 rejects included.
pub fn never_worse_table(results: &[RepoResult]) -> String {
    let mut md = String::from(
        "| repository | changes | LLVM rejects | view noisier | view / raw lines | \
         git diff as installed: noisier than git | installed / git lines | installed git diff failed | \
         triples | LLVM rejects an input | git clean & right, irgit conflicts |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in results {
        let v = &r.views;
        let total = |f: fn(&ViewChange) -> usize| v.iter().map(f).sum::<usize>();
        let worse: Vec<(&TripleResult, &Judged)> = worse_merges_of(r).collect();
        writeln!(
            md,
            "| {} | {} | {} | **{}** | {} | **{}** | {} | **{}** | {} | {} | **{}** ({}) |",
            r.name,
            v.len(),
            v.iter().filter(|c| c.rejected).count(),
            pct(v.iter().filter(|c| c.noisier()).count(), v.len()),
            lines_ratio(total(|c| c.view), total(|c| c.raw)),
            pct(v.iter().filter(|c| c.git_noisier()).count(), v.len()),
            lines_ratio(total(|c| c.git_installed), total(|c| c.git_alone)),
            v.iter().filter(|c| c.git_failed.is_some()).count(),
            r.merges.len(),
            r.merges.iter().filter(|t| !t.inputs_accepted).count(),
            worse.len(),
            worse.iter().filter(|(t, _)| !t.inputs_accepted).count(),
        )
        .unwrap();
    }
    md
}

/// The merges of `r` where git was clean and right and irgit exited
/// non-zero, with the triple each belongs to.
fn worse_merges_of(r: &RepoResult) -> impl Iterator<Item = (&TripleResult, &Judged)> {
    r.merges.iter().flat_map(|t| {
        [Some(&t.revert), t.reapply.as_ref()]
            .into_iter()
            .flatten()
            .filter(|j| j.worse_than_git)
            .map(move |j| (t, j))
    })
}

/// One line per merge where git was clean and right and irgit exited
/// non-zero: repository, commit, file, step, what LLVM said of the inputs,
/// whether irgit named a clash, and its stderr.
pub fn worse_merges(results: &[RepoResult]) -> Vec<String> {
    let mut lines = Vec::new();
    for r in results {
        for (t, j) in worse_merges_of(r) {
            let step = if std::ptr::eq(j, &t.revert) {
                "revert"
            } else {
                "re-apply"
            };
            let what = match (t.inputs_accepted, j.clash_named) {
                (true, false) => "inputs accepted",
                (true, true) => "inputs accepted, clash named",
                (false, false) => "an input LLVM 22 rejects",
                (false, true) => "an input LLVM 22 rejects, clash named",
            };
            lines.push(format!(
                "{} {} `{}` ({step}; {what}): {}",
                r.name, t.commit, t.path, j.note
            ));
        }
    }
    lines
}

/// The `count` changes over every change (rejected versions included)
/// ranked by `excess`, those with a positive one only.
pub fn worst_by(
    results: &[RepoResult],
    count: usize,
    excess: impl Fn(&ViewChange) -> isize,
) -> Vec<(&str, &ViewChange)> {
    let mut all: Vec<(&str, &ViewChange)> = results
        .iter()
        .flat_map(|r| r.views.iter().map(move |c| (r.name.as_str(), c)))
        .filter(|(_, c)| excess(c) > 0)
        .collect();
    all.sort_by_key(|(_, c)| std::cmp::Reverse(excess(c)));
    all.truncate(count);
    all
}

/// How far the installed `git diff` is past git's own.
pub fn git_excess(c: &ViewChange) -> isize {
    c.git_installed as isize - c.git_alone as isize
}

/// The worst changes over every change as a markdown table: raw and view
/// lines, git's and the installed `git diff`'s, and whether LLVM 22
/// rejects a version.
pub fn worst_all_table(worst: &[(&str, &ViewChange)]) -> String {
    let mut md = String::from(
        "| repository | commit | file | LLVM rejects | raw | view | git diff: git | installed |\n\
         |---|---|---|---|---:|---:|---:|---:|\n",
    );
    for (name, c) in worst {
        writeln!(
            md,
            "| {name} | {} | `{}` | {} | {} | {} | {} | {} |",
            c.commit,
            c.path,
            if c.rejected { "yes" } else { "no" },
            c.raw,
            c.view,
            c.git_alone,
            c.git_installed
        )
        .unwrap();
    }
    md
}

/// `text` cut to `max` characters, with `…` where it was cut.
fn shortened(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The merges where git was clean and right and irgit exited non-zero, one
/// line per repository and reason ([`worse_reason`]): how many, how many
/// with an input LLVM 22 rejects, the commits and the files (at most 12 of
/// each named).
pub fn worse_summary(results: &[RepoResult]) -> String {
    let mut groups: BTreeMap<(&str, String), Vec<&TripleResult>> = BTreeMap::new();
    for r in results {
        for (t, j) in worse_merges_of(r) {
            groups
                .entry((r.name.as_str(), worse_reason(j)))
                .or_default()
                .push(t);
        }
    }
    let mut md = String::new();
    for ((repo, reason), group) in groups {
        let commits: BTreeSet<&str> = group.iter().map(|t| t.commit.as_str()).collect();
        let files: BTreeSet<&str> = group
            .iter()
            .map(|t| t.path.rsplit('/').next().unwrap_or(&t.path))
            .collect();
        writeln!(
            md,
            "- {repo}: {} merges ({} with an input LLVM 22 rejects): {reason}; commits {}; files {}",
            group.len(),
            group.iter().filter(|t| !t.inputs_accepted).count(),
            named(commits),
            named(files),
        )
        .unwrap();
    }
    md
}

/// At most 12 names, then how many more.
fn named(names: BTreeSet<&str>) -> String {
    let shown: Vec<&str> = names.iter().take(12).copied().collect();
    match names.len().saturating_sub(shown.len()) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// Why irgit exited non-zero, from its stderr: for a test whose CHECK lines
/// a script wrote, the RUN line's verdict (`RUN line 2: …` up to its first
/// sentence); else the first message, shortened.
fn worse_reason(j: &Judged) -> String {
    let text = j
        .note
        .strip_prefix("irgit merge: src/module.ll: ")
        .unwrap_or(&j.note);
    let numbered = text.match_indices("RUN line ").find(|(at, m)| {
        text[at + m.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    });
    if let Some((at, _)) = numbered {
        let verdict = text[at..].split_once(": ").map_or(&text[at..], |(_, v)| v);
        let verdict = verdict.split(". ").next().unwrap_or(verdict);
        let what = if text.contains("were not run") {
            "FileCheck gate, RUN lines not run"
        } else {
            "FileCheck gate, the merged test fails"
        };
        return format!("{what}: {verdict}");
    }
    let first = text.split(" / ").next().unwrap_or(text);
    let first = first.split("; ").next().unwrap_or(first);
    let clash = if j.clash_named { " (clash named)" } else { "" };
    format!("{}{clash}", shortened(first, 120))
}
