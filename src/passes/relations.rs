//! The three relations of one ordered pair of pipelines `(p, q)` on one
//! module, from the canonical forms [`run`](super::run) computed, through
//! the merge engine: [`apply::merge`] over `m` gives the edit scripts, the
//! conflict rules and the rebase.
//!
//! ```text
//! merge(m, ours = p(m), theirs = q(m))  conflicting regions    → conflict (evidence: the regions)
//!   resolved to ours, canonical         = δ(q,-) rebased onto p(m); ≠ q(p(m)) → p contributes to q
//! merge(m, ours = q(m), theirs = p(m))  resolved to ours     = δ(p,-) rebased onto q(m); ≠ p(q(m)) → q contributes to p
//! canon(p(q(m))) == canon(q(p(m)))                                    → commute
//! ```
//!
//! A conflict found on clang -O0 output (`@first_multiple` in
//! `tests/corpus/loops.c`): both passes delete the stores to `%a`, only
//! `sroa` also deletes `%b`'s, so one replaces an interval the other
//! deletes part of (rule i):
//!
//! ```text
//! m                          sroa(m)        instcombine(m)
//!   %a = alloca i32            (nothing)      %b = alloca i32
//!   %b = alloca i32                           store i32 %y, ptr %b
//!   store i32 %x, ptr %a
//!   store i32 %y, ptr %b
//! ```
//!
//! "Resolved to ours" keeps ours' lines in each conflicting region: with no
//! conflict it is the merge itself; with conflicts it rebases what can be
//! rebased (see the module doc of [`passes`](super)).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::compare::model::{self, local_refs};

use crate::text::def_name;

use crate::config::CanonOptions;
use crate::ir::Session;
use crate::merge::apply;
use crate::merge::render::{resolved, Keep, Piece};

use super::run::{ModuleOutputs, PassesError};
use super::textdiff::{function_of, small_diff, strip_comments, SmallDiff};

/// One conflicting region of `δ(p,-)` and `δ(q,-)`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Region {
    /// The function (`@f`) the region is in, if any.
    pub function: Option<String>,
    /// The block label, when the region is inside one block.
    pub block: Option<String>,
    /// The lines of `m`, of `p(m)` and of `q(m)` in the region (canonical).
    pub base: Vec<String>,
    pub p: Vec<String>,
    pub q: Vec<String>,
}

/// Whether `from` contributes to `to`: what `to` does on `from(m)` beyond
/// its own edits on `m`, rebased.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Contribution {
    pub from: String,
    pub to: String,
    /// From `δ(to,-)` rebased onto `from(m)`, to `to(from(m))`: `+` lines
    /// `to` writes only because `from` ran first, `-` lines its rebased
    /// edits would give but `to(from(m))` does not have.
    pub diff: SmallDiff,
    /// Conflicting regions where the rebase kept `from(m)`'s lines (0: the
    /// exact definition of a contribution applies).
    pub partial: usize,
    /// Whose lines the conflicting regions kept (`from` or `to`), when
    /// there was a conflict: whichever explains more of `to(from(m))`.
    pub kept: Option<String>,
    /// Functions where even that left broken IR, kept whole as `from(m)`
    /// has them (`to` was run again without them).
    pub whole_functions: Vec<String>,
    /// Why the rebase could not be computed (the partly rebased module did
    /// not verify), if it could not.
    pub undetermined: Option<String>,
}

impl Contribution {
    /// A contribution was found.
    pub fn exists(&self) -> bool {
        self.undetermined.is_none() && !self.diff.is_empty()
    }
}

/// The relations of `(p, q)` on one module.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PairReport {
    pub module: String,
    pub p: String,
    pub q: String,
    /// Size of `δ(p,-)` and `δ(q,-)` in canonical lines (removed, added).
    pub p_changes: (usize, usize),
    pub q_changes: (usize, usize),
    /// Number of conflicting regions (0: no conflict).
    pub conflicts: usize,
    /// The first conflicting regions.
    pub regions: Vec<Region>,
    /// `q` contributes to `p`.
    pub q_to_p: Contribution,
    /// `p` contributes to `q`.
    pub p_to_q: Contribution,
    pub commute: bool,
    /// From `canon(q(p(m)))` to `canon(p(q(m)))`, when they differ.
    pub first_difference: SmallDiff,
    /// No conflict, no contribution, yet no commutation: impossible (the
    /// union of two non-conflicting diffs is unique), so an irgit bug.
    pub implication_violated: bool,
}

impl PairReport {
    pub fn conflict(&self) -> bool {
        self.conflicts > 0
    }
}

/// The merge of `base`, `ours`, `theirs`, with conflicts resolved to ours.
struct Union {
    conflicts: usize,
    regions: Vec<Region>,
    resolved: Resolved,
}

enum Resolved {
    /// One side is the result (the other changed nothing, or both are
    /// equal): already a canonical pass output.
    Canonical(String),
    /// The merge, and per function the local names any of the three
    /// versions defines (to tell a dangling value from a named type).
    Merged {
        pieces: Vec<Piece>,
        locals: HashMap<String, HashSet<String>>,
    },
}

fn regions(pieces: &[Piece]) -> Vec<Region> {
    let mut out = Vec::new();
    let (mut function, mut block) = (None, None);
    for piece in pieces {
        match piece {
            Piece::Text(t) => {
                for l in t.lines() {
                    if let Some(f) = function_of(l) {
                        function = Some(f);
                        block = None;
                    } else if l == "}" {
                        function = None;
                        block = None;
                    } else if !l.starts_with(' ') && l.ends_with(':') {
                        block = Some(l.trim_end_matches(':').to_string());
                    }
                }
            }
            Piece::Conflict { ours, base, theirs } => {
                let header = base.iter().chain(ours).find_map(|l| function_of(l));
                out.push(Region {
                    function: function.clone().or_else(|| header.clone()),
                    block: if header.is_some() {
                        None
                    } else {
                        block.clone()
                    },
                    base: base.clone(),
                    p: ours.clone(),
                    q: theirs.clone(),
                });
            }
        }
    }
    out
}

fn union(base: &str, ours: &str, theirs: &str, name: &str) -> Result<Union, PassesError> {
    let (sb, so, st) = (
        strip_comments(base),
        strip_comments(ours),
        strip_comments(theirs),
    );
    let trivial = |text: &str| Union {
        conflicts: 0,
        regions: Vec::new(),
        resolved: Resolved::Canonical(text.to_string()),
    };
    if so == sb {
        return Ok(trivial(theirs));
    }
    if st == sb || so == st {
        return Ok(trivial(ours));
    }
    let parse = |t: &str, side: &str| {
        model::parse(t, side).map_err(|e| PassesError::Internal(format!("{name}: {e}")))
    };
    let (mo, ma, mb) = (
        parse(base, "m")?,
        parse(ours, "ours")?,
        parse(theirs, "theirs")?,
    );
    let merged = apply::merge(&mo, &ma, &mb);
    let mut locals: HashMap<String, HashSet<String>> = HashMap::default();
    for f in mo.funcs.iter().chain(&ma.funcs).chain(&mb.funcs) {
        locals.entry(f.name.clone()).or_default().extend(f.locals());
    }
    Ok(Union {
        conflicts: merged.conflicts,
        regions: regions(&merged.pieces),
        resolved: Resolved::Merged {
            pieces: merged.pieces,
            locals,
        },
    })
}

/// Why a resolved merge is not a module.
enum Invalid {
    /// These functions are broken (a value used but no longer defined,
    /// defined twice, or rejected by the verifier).
    Functions(Vec<String>),
    /// Something else; the message.
    Other(String),
}

/// Functions of `text` that use a local some version defined but the
/// merged function does not, or define one twice.
fn dangling(text: &str, locals: &HashMap<String, HashSet<String>>) -> Vec<String> {
    let Ok(m) = model::parse(text, "merged") else {
        return Vec::new();
    };
    let mut bad = Vec::new();
    for f in &m.funcs {
        let mut defs: HashSet<String> = HashSet::default();
        let mut ok = true;
        for b in &f.blocks {
            ok &= defs.insert(b.label.clone());
            for l in &b.lines {
                if let Some(d) = def_name(l) {
                    ok &= defs.insert(d.to_string());
                }
            }
        }
        defs.extend(
            local_refs(&f.header)
                .into_iter()
                .filter(|r| r.starts_with("arg")),
        );
        let known = locals.get(&f.name);
        for l in f.blocks.iter().flat_map(|b| &b.lines) {
            for r in local_refs(l) {
                if known.is_some_and(|k| k.contains(&r)) && !defs.contains(&r) {
                    ok = false;
                }
            }
        }
        if !ok {
            bad.push(f.name.clone());
        }
    }
    bad
}

/// The function around line `line` (1-based) of `text`.
fn function_at(text: &str, line: usize) -> Option<String> {
    text.lines()
        .take(line)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .take_while(|l| *l != "}")
        .find_map(function_of)
}

/// The canonical form of a resolved merge, or what is wrong with it.
/// `text` with the bodies of the functions in `names` replaced by one
/// `unreachable` block, so the rest of the module can still be checked.
fn stub(text: &str, names: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut skipping = false;
    for l in text.lines() {
        if skipping {
            if l == "}" {
                out.push_str("entry:\n  unreachable\n}\n");
                skipping = false;
            }
            continue;
        }
        out.push_str(l);
        out.push('\n');
        skipping = function_of(l).is_some_and(|f| names.contains(&f));
    }
    out
}

/// The line LLVM's parser names in "name:LINE:COL: error: ...".
fn error_line(msg: &str) -> Option<usize> {
    msg.split(": error:")
        .next()
        .and_then(|head| head.rsplit(':').nth(1))
        .and_then(|n| n.parse::<usize>().ok())
}

/// The canonical form of a resolved merge, or what is wrong with it: all
/// broken functions at once (each found is stubbed out and the check goes
/// on), so the caller reruns the pass once, not once per function.
fn canonical(u: &Union, keep: Keep, name: &str) -> Result<String, Invalid> {
    let (text, locals) = match &u.resolved {
        Resolved::Canonical(t) => return Ok(t.clone()),
        Resolved::Merged { pieces, locals } => (resolved(pieces, keep), locals),
    };
    let mut bad = dangling(&text, locals);
    let mut text = stub(&text, &bad);
    let session = Session::new();
    let m = loop {
        match session.parse(text.as_bytes(), name) {
            Ok(m) => break m,
            Err(e) => {
                let msg = e.to_string();
                match error_line(&msg).and_then(|l| function_at(&text, l)) {
                    Some(f) if !bad.contains(&f) => {
                        text = stub(&text, std::slice::from_ref(&f));
                        bad.push(f);
                    }
                    _ => return Err(Invalid::Other(msg)),
                }
            }
        }
    };
    if let Err(e) = m.verify() {
        let more: Vec<String> = m
            .invalid_functions()
            .into_iter()
            .map(|f| format!("@{f}"))
            .filter(|f| !bad.contains(f))
            .collect();
        if more.is_empty() {
            return Err(Invalid::Other(e.to_string()));
        }
        bad.extend(more);
    }
    if !bad.is_empty() {
        return Err(Invalid::Functions(bad));
    }
    crate::canon::canonical_text(&m, &[], name, &CanonOptions::default())
        .map_err(|e| Invalid::Other(e.to_string()))
}

/// `δ(to,-)` rebased onto `from(m)`: the merge of `m`, ours = `from(m)`,
/// theirs = `to(m)`, each conflicting region keeping `keep`'s lines. Where
/// that leaves a function broken, `to` is run again on `m` without that
/// function, so the function stays as `from(m)` has it.
struct Rebased {
    resolved: Result<String, String>,
    /// Functions kept whole as `from(m)` has them.
    whole: Vec<String>,
}

fn rebase(
    out: &ModuleOutputs,
    (from, to): (usize, usize),
    first: &Union,
    keep: Keep,
) -> Result<Rebased, PassesError> {
    let (base, ours) = (&out.base, &out.single[from]);
    let mut whole: Vec<String> = Vec::new();
    let mut next: Option<Union> = None;
    loop {
        let u = next.as_ref().unwrap_or(first);
        let bad = match canonical(u, keep, &out.name) {
            Ok(text) => {
                return Ok(Rebased {
                    resolved: Ok(text),
                    whole,
                })
            }
            Err(Invalid::Functions(fs)) => fs,
            Err(Invalid::Other(msg)) => {
                return Ok(Rebased {
                    resolved: Err(msg),
                    whole,
                })
            }
        };
        let fresh: Vec<String> = bad.into_iter().filter(|f| !whole.contains(f)).collect();
        if fresh.is_empty() {
            return Ok(Rebased {
                resolved: Err(format!(
                    "functions {} stay invalid when kept whole",
                    whole.join(", ")
                )),
                whole,
            });
        }
        whole.extend(fresh);
        let theirs = out.single_skipping(to, &whole)?;
        next = Some(union(base, ours, &theirs, &out.name)?);
    }
}

fn contribution(
    r: &Rebased,
    conflicts: usize,
    keep: Keep,
    names: (&str, &str),
    actual: &str,
    max_lines: usize,
) -> Contribution {
    let (from, to) = names;
    let (diff, undetermined) = match &r.resolved {
        Ok(rebased) => (small_diff(rebased, actual, max_lines), None),
        Err(e) => (SmallDiff::default(), Some(e.clone())),
    };
    let conflicting = conflicts > 0;
    Contribution {
        from: from.to_string(),
        to: to.to_string(),
        diff,
        partial: conflicts,
        kept: conflicting.then(|| match keep {
            Keep::Ours => from.to_string(),
            Keep::Theirs => to.to_string(),
        }),
        whole_functions: r.whole.clone(),
        undetermined,
    }
}

/// The contribution of pipeline `from` to pipeline `to`, compared with
/// `actual = canon(to(from(m)))`. Over a conflict the rebase is not
/// unique: both ways of resolving the conflicting regions are tried and
/// the one that explains more of `actual` is kept. Also returns the merge
/// of `m`, `from(m)`, `to(m)`.
fn best_contribution(
    out: &ModuleOutputs,
    (from, to): (usize, usize),
    actual: &str,
    max_lines: usize,
) -> Result<(Contribution, Union), PassesError> {
    let names = (out.pipelines[from].as_str(), out.pipelines[to].as_str());
    let first = union(&out.base, &out.single[from], &out.single[to], &out.name)?;
    let n = first.conflicts;
    let r = rebase(out, (from, to), &first, Keep::Ours)?;
    let mut best = contribution(&r, n, Keep::Ours, names, actual, max_lines);
    if n > 0 {
        let r2 = rebase(out, (from, to), &first, Keep::Theirs)?;
        let other = contribution(&r2, n, Keep::Theirs, names, actual, max_lines);
        let size = |c: &Contribution| {
            c.undetermined
                .is_none()
                .then_some(c.diff.added + c.diff.removed)
        };
        match (size(&best), size(&other)) {
            (Some(a), Some(b)) if b < a => best = other,
            (None, Some(_)) => best = other,
            _ => {}
        }
    }
    Ok((best, first))
}

fn size(a: &str, b: &str) -> (usize, usize) {
    let d = small_diff(a, b, 0);
    (d.removed, d.added)
}

/// The relations of pipelines `i` (`p`) and `j` (`q`) of `out`, which must
/// hold `p(q(m))` and `q(p(m))`. Diffs shown as evidence are cut at
/// `max_lines` lines; at most `max_regions` conflicting regions are kept.
pub fn analyse(
    out: &ModuleOutputs,
    i: usize,
    j: usize,
    max_lines: usize,
    max_regions: usize,
) -> Result<PairReport, PassesError> {
    let (p, q) = (&out.pipelines[i], &out.pipelines[j]);
    let missing = |a: usize, b: usize| {
        PassesError::Internal(format!("{}: p(q(m)) not computed for ({a}, {b})", out.name))
    };
    let pq = out.double.get(&(i, j)).ok_or_else(|| missing(i, j))?;
    let qp = out.double.get(&(j, i)).ok_or_else(|| missing(j, i))?;
    let (base, pm, qm) = (&out.base, &out.single[i], &out.single[j]);
    // Ours = p(m): δ(q,-) rebased onto p(m). Ours = q(m): δ(p,-) rebased onto q(m).
    let (p_to_q, onto_p) = best_contribution(out, (i, j), qp, max_lines)?;
    let (q_to_p, onto_q) = best_contribution(out, (j, i), pq, max_lines)?;
    let first_difference = small_diff(qp, pq, max_lines);
    let commute = first_difference.is_empty();
    let conflicts = onto_p.conflicts.max(onto_q.conflicts);
    let decided = q_to_p.undetermined.is_none() && p_to_q.undetermined.is_none();
    let implication_violated =
        conflicts == 0 && decided && !q_to_p.exists() && !p_to_q.exists() && !commute;
    let mut regions = onto_p.regions;
    regions.truncate(max_regions);
    Ok(PairReport {
        module: out.name.clone(),
        p: p.clone(),
        q: q.clone(),
        p_changes: size(base, pm),
        q_changes: size(base, qm),
        conflicts,
        regions,
        q_to_p,
        p_to_q,
        commute,
        first_difference,
        implication_violated,
    })
}
