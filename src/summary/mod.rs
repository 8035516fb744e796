//! `irgit diff`: what changed between two modules, function by function.
//!
//! A line diff of IR shows lines. People comparing two compiler runs, two
//! pass pipelines or two versions of a kernel first ask other questions:
//! which functions changed and how much, which were only renamed, where did
//! this code go. This module answers them from the engine the merge uses:
//! both modules are canonicalized ([`crate::canon`]), parsed
//! ([`crate::merge::model`]), and compared function by function.
//!
//! ```text
//! old.ll                                   new.ll
//! define i32 @sum(ptr %p, i32 %n) ...      define i32 @total(ptr %p, i32 %n) ...   (same body)
//! define i32 @main() { ... 12 insts }      define i32 @main() { ... 14 insts }
//! define internal i32 @sq(i32 %x) ...      (inlined into @main, gone)
//!
//! $ irgit diff old.ll new.ll
//! functions: 1 changed, 1 removed, 1 renamed, 0 unchanged
//!   changed  @main        +5 -0 ~1 instructions
//!   removed  @sq          3 instructions
//!   renamed  @sum -> @total
//! moved: 3 instructions moved from @sq to @main
//! ```
//!
//! Stages: [`side`] (canonical text, keys), [`compare`] (one function),
//! [`renames`] (structural rename detection, seed 003), [`moved`] (moved
//! code by suffix array, seed 002), [`module_level`] (globals, declarations,
//! attributes), [`render`] (summary, `--stat`, `-p`, JSON), [`cli`] (the
//! command, git revisions, git's external-diff protocol), [`git`] (the git
//! configuration `irgit install --diff-summary` writes).

pub mod cli;
pub mod compare;
pub mod git;
pub mod module_level;
pub mod moved;
pub mod renames;
pub mod render;
pub mod side;

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Serialize;

use compare::{compare, FuncDiff};
pub use module_level::{AttributeChanges, Change, GlobalChange, Kind};
use side::Side;

/// Version of the JSON output (`--json`); bump on any incompatible change.
pub const JSON_VERSION: u32 = 1;

/// Default least similarity for a removed and an added function to be
/// reported as one function renamed and edited.
pub const DEFAULT_RENAME_THRESHOLD: f64 = 0.7;

/// Default shortest instruction sequence reported as moved code.
pub const DEFAULT_MIN_MOVED: usize = 5;

/// Why two modules could not be compared.
#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    #[error(transparent)]
    Canon(#[from] crate::canon::CanonError),
    #[error("{0}")]
    Internal(String),
}

/// Settings of one comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Least similarity (shared instructions over the mean size) for a
    /// renamed-and-edited function; above 1.0, only unchanged bodies count
    /// as renames.
    pub rename_threshold: f64,
    /// Shortest sequence reported as moved code; 0 switches the search off.
    pub min_moved: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rename_threshold: DEFAULT_RENAME_THRESHOLD,
            min_moved: DEFAULT_MIN_MOVED,
        }
    }
}

/// What happened to a function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Added,
    Removed,
    Renamed,
    Changed,
    Unchanged,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Removed => "removed",
            Status::Renamed => "renamed",
            Status::Changed => "changed",
            Status::Unchanged => "unchanged",
        }
    }
}

/// Instruction counts of one function.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct InstructionCounts {
    pub old: usize,
    pub new: usize,
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
}

/// Block counts of one function.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct BlockCounts {
    pub old: usize,
    pub new: usize,
    pub added: usize,
    pub removed: usize,
}

/// One function of either module.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FunctionReport {
    /// The name in the new module (the old one for a removed function).
    pub name: String,
    /// The name in the old module, for a renamed function.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_name: Option<String>,
    pub status: Status,
    /// Whether the body or signature differs (for `renamed`: edited too).
    pub changed: bool,
    /// For `renamed`: shared instructions over the mean size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f64>,
    /// The `define` line differs (type, attributes, linkage...).
    pub signature_changed: bool,
    pub instructions: InstructionCounts,
    pub blocks: BlockCounts,
    #[serde(skip)]
    pub old_index: Option<usize>,
    #[serde(skip)]
    pub new_index: Option<usize>,
}

/// A place in a canonical text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    pub function: String,
    /// Block label (`entry`, `bb.3f0a12c4`).
    pub block: String,
    /// 1-based positions of the first and last instruction in the block.
    pub first: usize,
    pub last: usize,
    /// 1-based line of the first instruction in that side's canonical text
    /// (`irgit canon FILE`).
    pub line: usize,
}

/// One moved range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MovedRange {
    pub instructions: usize,
    pub from: Location,
    pub to: Location,
}

/// Code that left one function (or was copied from it) and appeared in another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Moved {
    /// `moved` (gone from the source) or `copied` (still there: inlining).
    pub kind: MoveKind,
    /// Source function (old module).
    pub from: String,
    /// Destination function (new module).
    pub to: String,
    pub instructions: usize,
    pub ranges: Vec<MovedRange>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveKind {
    Moved,
    Copied,
}

/// Counts over all functions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub added: usize,
    pub removed: usize,
    pub renamed: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub moved_instructions: usize,
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub version: u32,
    pub old: String,
    pub new: String,
    pub summary: Totals,
    pub functions: Vec<FunctionReport>,
    pub moved: Vec<Moved>,
    pub globals: Vec<GlobalChange>,
    pub attributes: AttributeChanges,
}

impl Report {
    /// Whether the modules differ in anything reported.
    pub fn has_changes(&self) -> bool {
        self.functions.iter().any(|f| f.status != Status::Unchanged)
            || !self.globals.is_empty()
            || !self.attributes.added.is_empty()
            || !self.attributes.removed.is_empty()
    }
}

/// Parses and canonicalizes both inputs (on two threads) and compares them.
/// `None` stands for a missing side (a file git reports added or deleted).
pub fn diff_bytes(
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    old_label: &str,
    new_label: &str,
    opts: &Options,
) -> Result<(Report, Side, Side), SummaryError> {
    let load = |bytes: Option<&[u8]>, label: &str| match bytes {
        Some(b) => Side::load(b, label),
        None => Ok(Side::empty(label)),
    };
    let (a, b) = std::thread::scope(|scope| {
        let hb = scope.spawn(|| load(new, new_label));
        let a = load(old, old_label);
        let b = hb.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (a, b)
    });
    let (a, mut b) = (a?, b?);
    let report = diff_sides(&a, &mut b, opts);
    Ok((report, a, b))
}

fn counts(d: &FuncDiff) -> (InstructionCounts, BlockCounts) {
    (
        InstructionCounts {
            old: d.insts_old,
            new: d.insts_new,
            added: d.added,
            removed: d.removed,
            changed: d.changed,
        },
        BlockCounts {
            old: d.blocks_old,
            new: d.blocks_new,
            added: d.blocks_added,
            removed: d.blocks_removed,
        },
    )
}

/// Compares two loaded sides. The new side's keys are rewritten in old
/// function names where renames were found (hence `&mut`).
pub fn diff_sides(old: &Side, new: &mut Side, opts: &Options) -> Report {
    let removed: Vec<usize> = (0..old.funcs.len())
        .filter(|&i| {
            let n = &old.funcs[i].name;
            !new.index.contains_key(n) && !new.declares(n)
        })
        .collect();
    let added: Vec<usize> = (0..new.funcs.len())
        .filter(|&i| {
            let n = &new.funcs[i].name;
            !old.index.contains_key(n) && !old.declares(n)
        })
        .collect();
    let found = renames::detect(old, new, &removed, &added, opts.rename_threshold);
    // New name -> old name, applied to every new key.
    let undo: BTreeMap<String, String> = found
        .iter()
        .map(|r| (new.funcs[r.new].name.clone(), old.funcs[r.old].name.clone()))
        .collect();
    if !undo.is_empty() {
        for f in &mut new.funcs {
            let own = f.name.clone();
            let mut map = undo.clone();
            map.remove(&own);
            let fix = |s: &mut String| {
                if s.contains('@') {
                    *s = crate::merge::rename::replace_globals(s, &map);
                }
            };
            fix(&mut f.header);
            for b in &mut f.blocks {
                b.insts.iter_mut().for_each(fix);
            }
        }
    }
    let new: &Side = new;
    let renamed_old: HashSet<usize> = found.iter().map(|r| r.old).collect();
    let renamed_new: HashMap<usize, &renames::Rename> = found.iter().map(|r| (r.new, r)).collect();

    let mut functions = Vec::new();
    let mut diffs: Vec<(Option<usize>, Option<usize>, FuncDiff)> = Vec::new();
    for (ni, f) in new.funcs.iter().enumerate() {
        let (status, oi, d) = if let Some(r) = renamed_new.get(&ni) {
            // Renames were compared before the other renames were undone in
            // the keys; compare again for exact counts.
            (Status::Renamed, Some(r.old), compare(&old.funcs[r.old], f))
        } else if let Some(&oi) = old.index.get(&f.name) {
            let d = compare(&old.funcs[oi], f);
            let s = if d.is_change() {
                Status::Changed
            } else {
                Status::Unchanged
            };
            (s, Some(oi), d)
        } else {
            (Status::Added, None, FuncDiff::added_function(f))
        };
        let (instructions, blocks) = counts(&d);
        functions.push(FunctionReport {
            name: f.name.clone(),
            old_name: (status == Status::Renamed).then(|| old.funcs[oi.unwrap_or(0)].name.clone()),
            status,
            changed: d.is_change(),
            similarity: (status == Status::Renamed)
                .then(|| (d.similarity() * 1000.0).round() / 1000.0),
            signature_changed: d.header_changed,
            instructions,
            blocks,
            old_index: oi,
            new_index: Some(ni),
        });
        diffs.push((oi, Some(ni), d));
    }
    for (oi, f) in old.funcs.iter().enumerate() {
        if new.index.contains_key(&f.name) || renamed_old.contains(&oi) {
            continue;
        }
        let d = FuncDiff::removed_function(f);
        let (instructions, blocks) = counts(&d);
        functions.push(FunctionReport {
            name: f.name.clone(),
            old_name: None,
            status: Status::Removed,
            changed: true,
            similarity: None,
            signature_changed: false,
            instructions,
            blocks,
            old_index: Some(oi),
            new_index: None,
        });
        diffs.push((Some(oi), None, d));
    }
    functions.sort_by(|a, b| a.name.cmp(&b.name).then(a.status.cmp(&b.status)));

    let moved = if opts.min_moved == 0 {
        Vec::new()
    } else {
        find_moved(old, new, &diffs, opts.min_moved)
    };
    let mut totals = Totals::default();
    for f in &functions {
        match f.status {
            Status::Added => totals.added += 1,
            Status::Removed => totals.removed += 1,
            Status::Renamed => totals.renamed += 1,
            Status::Changed => totals.changed += 1,
            Status::Unchanged => totals.unchanged += 1,
        }
    }
    totals.moved_instructions = moved.iter().map(|m| m.instructions).sum();
    Report {
        version: JSON_VERSION,
        old: old.label.clone(),
        new: new.label.clone(),
        summary: totals,
        functions,
        moved,
        globals: module_level::compare(old, new, &undo),
        attributes: module_level::attributes(old, new),
    }
}

fn location(side: &Side, r: &moved::Region) -> Location {
    let f = &side.funcs[r.func];
    let b = &f.blocks[r.block];
    Location {
        function: f.name.clone(),
        block: b.label.clone(),
        first: r.start + 1,
        last: r.start + r.len,
        line: b.lines.get(r.start).copied().unwrap_or(0),
    }
}

fn find_moved(
    old: &Side,
    new: &Side,
    diffs: &[(Option<usize>, Option<usize>, FuncDiff)],
    min_len: usize,
) -> Vec<Moved> {
    let mut search = moved::Search {
        old,
        new,
        added: Vec::new(),
        removed: HashSet::default(),
        counterpart: HashMap::default(),
        min_len,
    };
    for (oi, ni, d) in diffs {
        if let (Some(o), Some(n)) = (oi, ni) {
            search.counterpart.insert(*n, *o);
        }
        if let Some(n) = ni {
            search
                .added
                .extend(d.added_at.iter().map(|&(b, i)| (*n, b, i)));
        }
        if let Some(o) = oi {
            search
                .removed
                .extend(d.removed_at.iter().map(|&(b, i)| (*o, b, i)));
        }
    }
    let found = moved::find(&search);
    let mut groups: BTreeMap<(String, String, MoveKind), Vec<MovedRange>> = BTreeMap::new();
    for m in &found {
        let kind = if m.moved {
            MoveKind::Moved
        } else {
            MoveKind::Copied
        };
        let from = location(old, &m.old);
        let to = location(new, &m.new);
        groups
            .entry((from.function.clone(), to.function.clone(), kind))
            .or_default()
            .push(MovedRange {
                instructions: m.new.len,
                from,
                to,
            });
    }
    let mut out: Vec<Moved> = groups
        .into_iter()
        .map(|((from, to, kind), ranges)| Moved {
            kind,
            instructions: ranges.iter().map(|r| r.instructions).sum(),
            from,
            to,
            ranges,
        })
        .collect();
    out.sort_by(|a, b| {
        b.instructions
            .cmp(&a.instructions)
            .then(a.from.cmp(&b.from))
            .then(a.to.cmp(&b.to))
    });
    out
}
