//! `irgit diff`: what changed between two modules, function by function.
//!
//! A line diff of IR shows lines. People comparing two compiler runs, two
//! pass pipelines or two versions of a kernel first ask other questions:
//! which functions changed and how much, which were only renamed, where did
//! this code go. This module answers them from the engine the merge uses:
//! both modules are canonicalized ([`crate::canon`]), parsed
//! ([`crate::compare::model`]), and compared function by function.
//!
//! ```text
//! old.ll                                   new.ll
//! define i32 @sum(ptr %p, i32 %n) ...      define i32 @total(ptr %p, i32 %n) ...   (same body)
//! define i32 @main() { ... 12 insts }      define i32 @main() { ... 14 insts }
//! define internal i32 @sq(i32 %x) ...      (inlined into @main, gone)
//!
//! $ irgit diff old.ll new.ll
//! functions: 1 changed, 1 removed, 1 renamed, 0 unchanged
//!   changed   @main           +5 -0 ~1 instructions
//!   removed   @sq             3 instructions, 1 block
//!   renamed   @sum -> @total
//! moved: 3 instructions moved from @sq to @main
//! ```
//!
//! Functions that are the same on both sides before canonicalization are
//! left out of it (their bodies stripped), so the cost follows the size of
//! the change rather than the size of the module.
//!
//! Stages: [`side`] (fingerprints, canonical text, keys), [`mod@compare`] (one function),
//! [`renames`] (structural rename detection, as MergeFunctions compares
//! functions), [`moved`] (moved code by suffix array, as IRSimilarity finds
//! regions), [`module_level`] (globals, declarations,
//! attributes), [`render`] (summary, `--stat`, `-p`, JSON), [`html`]
//! (`--html`: the page with both sides' control-flow graphs), [`matched`]
//! (`--matched`: the files as written, the new one in the old one's
//! names), [`markdown`] (`--markdown`: a pull-request comment on the IR
//! files of a revision range, which [`range`] reads from git), [`plain`] (git's own line diff, for a side that is not IR), [`cli`] (the
//! command, git revisions, git's external-diff protocol). The git
//! configuration `irgit install --diff-summary` writes is
//! `crate::git::diff_summary`.

pub mod cli;
pub(crate) mod compare;
pub(crate) mod html;
pub(crate) mod markdown;
pub mod matched;
pub(crate) mod module_level;
pub(crate) mod moved;
pub(crate) mod plain;
pub(crate) mod range;
pub(crate) mod renames;
pub mod render;
pub(crate) mod side;

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
pub(crate) const DEFAULT_RENAME_THRESHOLD: f64 = 0.7;

/// Default shortest instruction sequence reported as moved code.
pub(crate) const DEFAULT_MIN_MOVED: usize = 5;

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
    /// Leave functions equal on both sides out of the canonicalization
    /// (same report, less work; off only to check that claim).
    pub reduce: bool,
    /// Keep each side's input text and the input's names of canonical
    /// locals ([`side::Side::written`]), for the page of `--html`.
    pub keep_written: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rename_threshold: DEFAULT_RENAME_THRESHOLD,
            min_moved: DEFAULT_MIN_MOVED,
            reduce: true,
            keep_written: false,
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
///
/// Functions that are the same on both sides before canonicalization
/// (equal under a value numbering of their own text, with metadata and
/// attribute numbers read as content and private globals by content) are
/// reported unchanged and turned into declarations first, so the cost of a
/// diff follows the size of the change rather than of the module. Should
/// that reduced module fail to canonicalize, the comparison is redone in
/// full.
pub fn diff_bytes(
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    old_label: &str,
    new_label: &str,
    opts: &Options,
) -> Result<(Report, Side, Side), SummaryError> {
    if opts.reduce {
        match load_pair(old, new, (old_label, new_label), true, opts.keep_written) {
            Err(SummaryError::Internal(_)) => {}
            Err(e) => return Err(e),
            Ok((a, mut b)) => {
                let report = diff_sides(&a, &mut b, opts);
                return Ok((report, a, b));
            }
        }
    }
    let (a, mut b) = load_pair(old, new, (old_label, new_label), false, opts.keep_written)?;
    let report = diff_sides(&a, &mut b, opts);
    Ok((report, a, b))
}

/// What one side tells the other before canonicalizing: per definition,
/// its name, the hash of its input keys, whether its body can be dropped,
/// and its size.
struct Fingerprint {
    name: String,
    hash: u64,
    strippable: bool,
}

fn load_pair(
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    (old_label, new_label): (&str, &str),
    reduce: bool,
    keep_written: bool,
) -> Result<(Side, Side), SummaryError> {
    use std::sync::mpsc::channel;
    let (old_fp_tx, old_fp_rx) = channel();
    let (new_fp_tx, new_fp_rx) = channel();
    let (old_clean_tx, old_clean_rx) = channel();
    let (new_clean_tx, new_clean_rx) = channel();
    let (a, b) = std::thread::scope(|scope| {
        let how = How {
            reduce,
            keep_written,
        };
        let ha = scope.spawn(move || load_side(old, old_label, how, old_fp_tx, old_clean_rx));
        let hb = scope.spawn(move || load_side(new, new_label, how, new_fp_tx, new_clean_rx));
        // The functions both sides have, equal and strippable on both.
        let fa: Option<Vec<Fingerprint>> = old_fp_rx.recv().ok().flatten();
        let fb: Option<Vec<Fingerprint>> = new_fp_rx.recv().ok().flatten();
        let clean: HashSet<String> = match (fa, fb) {
            (Some(fa), Some(fb)) => {
                let theirs: HashMap<&str, &Fingerprint> =
                    fb.iter().map(|f| (f.name.as_str(), f)).collect();
                fa.iter()
                    .filter(|f| {
                        theirs
                            .get(f.name.as_str())
                            .is_some_and(|g| g.hash == f.hash && f.strippable && g.strippable)
                    })
                    .map(|f| f.name.clone())
                    .collect()
            }
            _ => HashSet::default(),
        };
        let _ = old_clean_tx.send(clean.clone());
        let _ = new_clean_tx.send(clean);
        let join = |h: std::thread::ScopedJoinHandle<'_, Result<Side, SummaryError>>| {
            h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
        };
        (join(ha), join(hb))
    });
    Ok((a?, b?))
}

/// How a side is loaded.
#[derive(Clone, Copy)]
struct How {
    reduce: bool,
    keep_written: bool,
}

/// Loads one side: parse and verify, fingerprint the definitions (when
/// `reduce`), wait for the set of functions both sides share unchanged,
/// strip those, canonicalize the rest.
fn load_side(
    bytes: Option<&[u8]>,
    label: &str,
    how: How,
    fingerprints: std::sync::mpsc::Sender<Option<Vec<Fingerprint>>>,
    clean: std::sync::mpsc::Receiver<HashSet<String>>,
) -> Result<Side, SummaryError> {
    let Some(bytes) = bytes else {
        let _ = fingerprints.send(None);
        return Ok(Side::empty(label));
    };
    let mut timer = crate::canon::PhaseTimer::new();
    let session = crate::ir::Session::new();
    let module = match crate::canon::parse_verified(&session, bytes, label) {
        Ok(m) => m,
        Err(e) => {
            let _ = fingerprints.send(None);
            return Err(e.into());
        }
    };
    timer.lap(&format!("diff: {label} parse and verify"));
    let defs = crate::ir::summary::definitions(&module);
    let types: Vec<String> = defs.iter().map(|d| d.fn_type.clone()).collect();
    let written = how
        .keep_written
        .then(|| input_text(&module, bytes).into_owned());
    let input: Option<(std::borrow::Cow<'_, str>, Vec<side::Fingerprint>)> = if how.reduce {
        let text = if crate::canon::is_bitcode(bytes) {
            Some(std::borrow::Cow::Owned(module.print()))
        } else {
            std::str::from_utf8(bytes)
                .ok()
                .map(std::borrow::Cow::Borrowed)
        };
        text.and_then(|t| side::fingerprints(&t, &types).map(|f| (t, f)))
    } else {
        None
    };
    timer.lap(&format!("diff: {label} fingerprints"));
    let _ = fingerprints.send(input.as_ref().map(|(_, prints)| {
        prints
            .iter()
            .zip(&defs)
            .map(|(f, d)| Fingerprint {
                name: d.name.clone(),
                hash: f.hash,
                strippable: d.strippable,
            })
            .collect()
    }));
    let clean = clean.recv().unwrap_or_default();
    timer.lap(&format!("diff: {label} wait for the other side"));
    let mut unchanged = Vec::new();
    let mut attributes = std::collections::BTreeSet::new();
    let mut source_text = None;
    if let (false, Some((text, prints))) = (clean.is_empty(), input) {
        let which: Vec<bool> = defs.iter().map(|d| clean.contains(&d.name)).collect();
        crate::ir::summary::strip_bodies(&module, &which);
        for (f, d) in prints.into_iter().zip(&defs) {
            if clean.contains(&d.name) {
                unchanged.push(side::Unchanged {
                    name: d.name.clone(),
                    instructions: d.instructions,
                    blocks: d.blocks,
                });
                attributes.extend(f.attributes);
            }
        }
        source_text = Some((text.into_owned(), clean));
    }
    timer.lap(&format!("diff: {label} strip"));
    let (text, names) = canonical(&module, label, how.keep_written, !unchanged.is_empty())?;
    let types = crate::ir::summary::definition_types(&module);
    timer.lap(&format!("diff: {label} canonicalize"));
    drop(module);
    drop(session);
    timer.lap(&format!("diff: {label} free"));
    let mut side = Side::from_canonical(text, types, label)?;
    timer.lap(&format!("diff: {label} canonical keys"));
    side.unchanged = unchanged;
    side.unchanged_input = source_text;
    side.unchanged_attributes = attributes;
    side.written = written.map(|text| side::Written {
        text,
        names: names.unwrap_or_default(),
    });
    Ok(side)
}

/// The canonical text of a side (and the input's names of its locals when
/// `names` is set); an error of a `reduced` module asks for the comparison
/// to be redone in full.
fn canonical(
    module: &crate::ir::IrModule<'_>,
    label: &str,
    names: bool,
    reduced: bool,
) -> Result<(String, Option<crate::canon::source_map::SourceNames>), SummaryError> {
    let extras = crate::canon::Extras {
        source_names: names,
        verify_after: true,
    };
    let opts = crate::config::CanonOptions::default();
    crate::canon::canonical_text_for(module, &[], label, &opts, extras).map_err(|e| {
        if reduced {
            SummaryError::Internal(e.to_string())
        } else {
            SummaryError::from(e)
        }
    })
}

/// The input as text: as written, or as LLVM prints a bitcode input.
fn input_text<'a>(module: &crate::ir::IrModule<'_>, bytes: &'a [u8]) -> std::borrow::Cow<'a, str> {
    if crate::canon::is_bitcode(bytes) {
        std::borrow::Cow::Owned(module.print())
    } else {
        String::from_utf8_lossy(bytes)
    }
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
pub(crate) fn diff_sides(old: &Side, new: &mut Side, opts: &Options) -> Report {
    let mut timer = crate::canon::PhaseTimer::new();
    let removed = only_in(old, new);
    let added = only_in(new, old);
    let found = renames::detect(old, new, &removed, &added, opts.rename_threshold);
    timer.lap("diff: compare renames");
    // New name -> old name, applied to every new key.
    let undo: BTreeMap<String, String> = found
        .iter()
        .map(|r| (new.funcs[r.new].name.clone(), old.funcs[r.old].name.clone()))
        .collect();
    undo_renames(new, &undo);
    let new: &Side = new;
    let (mut functions, diffs) = compare_functions(old, new, &found);
    functions.extend(old.unchanged.iter().map(unchanged_report));
    functions.sort_by(|a, b| a.name.cmp(&b.name).then(a.status.cmp(&b.status)));
    timer.lap("diff: compare functions");
    let moved = if opts.min_moved == 0 {
        Vec::new()
    } else {
        find_moved(old, new, &diffs, opts.min_moved)
    };
    let summary = Totals::of(&functions, &moved);
    timer.lap("diff: compare moved");
    Report {
        version: JSON_VERSION,
        old: old.label.clone(),
        new: new.label.clone(),
        summary,
        functions,
        moved,
        globals: module_level::compare(old, new, &undo),
        attributes: module_level::attributes(old, new),
    }
}

/// Indexes of the functions of `a` that `b` neither defines nor declares.
fn only_in(a: &Side, b: &Side) -> Vec<usize> {
    (0..a.funcs.len())
        .filter(|&i| {
            let n = &a.funcs[i].name;
            !b.index.contains_key(n) && !b.declares(n)
        })
        .collect()
}

/// Rewrites the new side's keys in old function names (`undo`: new name ->
/// old name); a function's own name stays, as keys read it as `@SELF`.
fn undo_renames(new: &mut Side, undo: &BTreeMap<String, String>) {
    if undo.is_empty() {
        return;
    }
    for f in &mut new.funcs {
        let mut map = undo.clone();
        map.remove(&f.name);
        let fix = |s: &mut String| {
            if s.contains('@') {
                *s = crate::compare::rename::replace_globals(s, &map);
            }
        };
        fix(&mut f.header);
        for b in &mut f.blocks {
            b.insts.iter_mut().for_each(fix);
        }
    }
}

/// One diff per function pair (old index, new index): the new side's
/// functions (renamed, changed, unchanged or added), then the removed ones.
type Diffs = Vec<(Option<usize>, Option<usize>, FuncDiff)>;

/// Reports and diffs of every function of both sides, except those found
/// unchanged before canonicalization.
fn compare_functions(
    old: &Side,
    new: &Side,
    found: &[renames::Rename],
) -> (Vec<FunctionReport>, Diffs) {
    let renamed_old: HashSet<usize> = found.iter().map(|r| r.old).collect();
    let renamed_new: HashMap<usize, &renames::Rename> = found.iter().map(|r| (r.new, r)).collect();
    let mut functions = Vec::new();
    let mut diffs: Diffs = Vec::new();
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
        let old_name = oi
            .filter(|_| status == Status::Renamed)
            .map(|i| old.funcs[i].name.clone());
        functions.push(function_report(
            &f.name,
            old_name,
            status,
            &d,
            (oi, Some(ni)),
        ));
        diffs.push((oi, Some(ni), d));
    }
    for (oi, f) in old.funcs.iter().enumerate() {
        if new.index.contains_key(&f.name) || renamed_old.contains(&oi) {
            continue;
        }
        let d = FuncDiff::removed_function(f);
        functions.push(function_report(
            &f.name,
            None,
            Status::Removed,
            &d,
            (Some(oi), None),
        ));
        diffs.push((Some(oi), None, d));
    }
    (functions, diffs)
}

fn function_report(
    name: &str,
    old_name: Option<String>,
    status: Status,
    d: &FuncDiff,
    (old_index, new_index): (Option<usize>, Option<usize>),
) -> FunctionReport {
    let (instructions, blocks) = counts(d);
    FunctionReport {
        name: name.to_string(),
        old_name,
        status,
        changed: status == Status::Removed || d.is_change(),
        similarity: (status == Status::Renamed).then(|| (d.similarity() * 1000.0).round() / 1000.0),
        signature_changed: status != Status::Removed && d.header_changed,
        instructions,
        blocks,
        old_index,
        new_index,
    }
}

/// The report of a function found unchanged before canonicalization.
fn unchanged_report(u: &side::Unchanged) -> FunctionReport {
    FunctionReport {
        name: u.name.clone(),
        old_name: None,
        status: Status::Unchanged,
        changed: false,
        similarity: None,
        signature_changed: false,
        instructions: InstructionCounts {
            old: u.instructions,
            new: u.instructions,
            ..InstructionCounts::default()
        },
        blocks: BlockCounts {
            old: u.blocks,
            new: u.blocks,
            ..BlockCounts::default()
        },
        old_index: None,
        new_index: None,
    }
}

impl Totals {
    fn of(functions: &[FunctionReport], moved: &[Moved]) -> Totals {
        let mut totals = Totals::default();
        for f in functions {
            match f.status {
                Status::Added => totals.added += 1,
                Status::Removed => totals.removed += 1,
                Status::Renamed => totals.renamed += 1,
                Status::Changed => totals.changed += 1,
                Status::Unchanged => totals.unchanged += 1,
            }
        }
        totals.moved_instructions = moved.iter().map(|m| m.instructions).sum();
        totals
    }
}

fn location(f: &side::FuncKeys, r: &moved::Region) -> Location {
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
        old: Vec::new(),
        new: &new.funcs,
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
    // Functions left out of the canonicalization can be where code was
    // copied from: key them (from the input text) only when there is
    // something to look for.
    let sources = if moved::has_runs(&search) {
        old.unchanged_sources()
    } else {
        Vec::new()
    };
    search.old = old.funcs.iter().chain(&sources).collect();
    let found = moved::convincing_copies(moved::find(&search), &search);
    let mut groups: BTreeMap<(String, String, MoveKind), Vec<MovedRange>> = BTreeMap::new();
    for m in &found {
        let kind = if m.moved {
            MoveKind::Moved
        } else {
            MoveKind::Copied
        };
        let from = location(search.old[m.old.func], &m.old);
        let to = location(&new.funcs[m.new.func], &m.new);
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
