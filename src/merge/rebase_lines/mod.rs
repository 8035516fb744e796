//! Debug lines rebased across the two sides: the merge's rebasing
//! (`docs/merge-theory.md`, *Congruence and rebasing*) applied to the source
//! lines of debug info.
//!
//! Ours inserts a source line in one function, so every location below it
//! moves down a line. Theirs edits a function further down, and its new
//! locations sit at the base's lines. Before the merge, the lines of all
//! three versions are written in the merged source's numbering: a line of
//! the base moves by what both sides inserted above it; a line one side
//! added moves by what the *other* side inserted above it. The versions then
//! differ only where a side really changed something, and the merge proper
//! never sees a shift.
//!
//! ```text
//!               base        ours (a line inserted in f)   theirs (edits g)
//! f's !dbg      line: 5     line: 5, 6 (new), 7           line: 5, 6
//! g's !dbg      line: 20    line: 21                      line: 20, 21 (new)
//! rebased base  line: 5, 6 → 5, 7       line: 20 → 21
//! rebased ours  line: 5, 6, 7           line: 21
//! rebased theirs line: 5, 6 → 5, 7      line: 20, 21 → 21, 22
//! ```
//!
//! Where a line's shift cannot be known (the other side edited around the
//! same place, or both sides changed one function's debug info and one of
//! them moved lines in it: below where it did), the line
//! is written as a marker value no source file reaches; a merge that keeps
//! a marker becomes a conflict ([`Rebased::settle`]). The `DIFile` checksum
//! is merged on its own ([`checksum`]). A column one side moved on a line
//! the other side kept (an edit left of it) is rebased the same way
//! ([`columns`]).

pub(crate) mod checksum;
pub(crate) mod nodes;
pub(crate) mod shifts;

use crate::three::{Side, Three};
use std::collections::BTreeMap;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::canon::debug_lines::{field, with_field};
use crate::canon::metadata::numbered_definition;
use crate::text::{scan_refs, Ref};
use nodes::Nodes;
use shifts::{Evidence, ShiftMap};

use super::disputes;
use super::outcome::{debug_dump, Conflict, Outcome};
use super::render::{self, Markers};

/// Lines from here on are markers: an unknown line (`MARK + side * SPAN + line`).
const MARK: u32 = 1 << 31;
/// The marker range of one side; real lines stay below it.
const SPAN: u32 = 1 << 28;

/// The line a version had where the rebasing wrote a marker (the merged
/// line is not known), else `line` itself.
pub(crate) fn own_line(line: u32) -> u32 {
    match line >= MARK {
        true => (line - MARK) % SPAN,
        false => line,
    }
}

/// The three inputs with their lines in the merged source's numbering.
pub(crate) struct Rebased {
    /// Base, ours, theirs.
    pub texts: Three<String>,
    /// What the user should know (a checksum left out).
    pub notes: Vec<String>,
    /// Marker → the line written in its place when a marker must be shown.
    stand_in: HashMap<u32, u32>,
}

/// Rebases three modules with debug info (`None`: no debug lines to
/// rebase, or inputs that are not text).
pub(crate) fn rebase_bytes(base: &[u8], ours: &[u8], theirs: &[u8]) -> Option<Rebased> {
    fn text(b: &[u8]) -> Option<&str> {
        if crate::canon::is_bitcode(b) {
            return None;
        }
        std::str::from_utf8(b).ok().filter(|t| t.contains("!DI"))
    }
    rebase(text(base)?, text(ours)?, text(theirs)?)
}

/// See the module doc.
pub(crate) fn rebase(base: &str, ours: &str, theirs: &str) -> Option<Rebased> {
    let nodes = Three::new(base, ours, theirs).map(Nodes::parse);
    let too_long = nodes
        .iter()
        .any(|n| n.lined.values().any(|x| x.line >= SPAN));
    if too_long {
        return None;
    }
    let sides = [
        pair(&nodes.base, &nodes.ours),
        pair(&nodes.base, &nodes.theirs),
    ];
    let contested = contested(&nodes, &sides);
    let kept = [0, 1].map(|k| sides[k].partner.values().copied().collect());
    let mut r = Rebaser {
        nodes: &nodes,
        sides: &sides,
        contested,
        kept,
        stand_in: HashMap::default(),
        unknown: ShiftMap::unknown(),
        none: ShiftMap::new(Evidence::default()),
    };
    let lines: Vec<HashMap<u32, u32>> = (0..3).map(|who| r.lines_of(who)).collect();
    let columns = columns(&nodes, &sides);
    let sums = checksum::decide(base, ours, theirs);
    let texts = [base, ours, theirs];
    let rewritten = std::array::from_fn(|who| {
        let moved = Moved {
            lines: &lines[who],
            columns: &columns[Side::nth(who)],
        };
        rewrite(texts[who], &nodes[Side::nth(who)], &moved, &sums)
    });
    debug_dump(&[
        ("rebased-base.ll", &rewritten[0]),
        ("rebased-ours.ll", &rewritten[1]),
        ("rebased-theirs.ll", &rewritten[2]),
    ]);
    let notes = sums
        .left_out
        .iter()
        .map(|f| {
            format!(
                "the checksum of source file {f} differs on all three sides (no merge can know \
                 the merged source's): the result leaves it out"
            )
        })
        .collect();
    Some(Rebased {
        texts: Three::from(rewritten),
        notes,
        stand_in: r.stand_in,
    })
}

/// What one side kept of the base, and what it changed.
struct Pairing {
    /// Side node → the base node it is.
    partner: HashMap<u32, u32>,
    /// Per source file, how the side moved the base's lines.
    maps: HashMap<String, ShiftMap>,
    /// Functions (domain ids) whose debug info the side changed.
    changed: HashSet<String>,
}

/// The nodes with a line, by key, in line order.
fn by_key(n: &Nodes) -> BTreeMap<u64, Vec<u32>> {
    let mut out: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
    for &k in n.lined.keys() {
        out.entry(n.key[&k]).or_default().push(k);
    }
    for v in out.values_mut() {
        v.sort_by_key(|k| (n.lined[k].line, *k));
    }
    out
}

/// Nodes left unpaired, paired by a looser key ([`Nodes::looser`]) where
/// both versions have as many of them (in line order): nodes whose lines
/// moved inside their function.
fn loose_pairs(base: &Nodes, side: &Nodes, paired: &[(u32, u32)], tier: usize) -> Vec<(u32, u32)> {
    let (taken_s, taken_b): (HashSet<u32>, HashSet<u32>) = paired.iter().copied().unzip();
    let unpaired = |n: &Nodes, taken: &HashSet<u32>| {
        let mut by: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
        for &k in n.lined.keys().filter(|k| !taken.contains(k)) {
            by.entry(n.looser[tier][&k]).or_default().push(k);
        }
        for v in by.values_mut() {
            v.sort_by_key(|k| (n.lined[k].line, *k));
        }
        by
    };
    let (ub, us) = (unpaired(base, &taken_b), unpaired(side, &taken_s));
    us.iter()
        .filter_map(|(l, sn)| Some((sn, ub.get(l).filter(|bn| bn.len() == sn.len())?)))
        .flat_map(|(sn, bn)| sn.iter().copied().zip(bn.iter().copied()))
        .collect()
}

/// Nodes left unpaired inside functions, paired where the pairs around
/// them put them: a base node at line `l` between two pairs (or on one)
/// that moved by the same shift `d`, and the side's node at `l + d` with
/// the same loose key ([`Nodes::looser`]), each the only one of its
/// version there (a line whose other nodes changed: a location of
/// `printf(..., moves)` once `moves` is a constant).
fn placed_pairs(base: &Nodes, side: &Nodes, paired: &HashMap<u32, u32>) -> Vec<(u32, u32)> {
    let mut anchors: HashMap<&str, BTreeMap<u32, u32>> = HashMap::default();
    for (&s, &b) in paired {
        let node = &base.lined[&b];
        anchors
            .entry(node.file.as_str())
            .or_default()
            .insert(node.line, side.lined[&s].line);
    }
    let taken: HashSet<u32> = paired.keys().copied().collect();
    let kept: HashSet<u32> = paired.values().copied().collect();
    let base_at = unpaired_at(base, &kept);
    let side_at = unpaired_at(side, &taken);
    let mut out = Vec::new();
    for ((file, line, key), bn) in &base_at {
        let Some(a) = anchors.get(file.as_str()) else {
            continue;
        };
        let shift = |(b, s): (&u32, &u32)| *s as i64 - *b as i64;
        let before = a.range(..=*line).next_back().map(shift);
        let after = a.range(*line..).next().map(shift);
        let (Some(d), true) = (before, before == after) else {
            continue;
        };
        let Ok(to) = u32::try_from(*line as i64 + d) else {
            continue;
        };
        if let (Some(sn), [b]) = (side_at.get(&(file.clone(), to, *key)), bn.as_slice()) {
            if let [s] = sn.as_slice() {
                out.push((*s, *b));
            }
        }
    }
    out
}

/// A version's nodes inside functions not in `paired`, by file, line and
/// loose key.
fn unpaired_at(n: &Nodes, paired: &HashSet<u32>) -> HashMap<(String, u32, u64), Vec<u32>> {
    let mut out: HashMap<(String, u32, u64), Vec<u32>> = HashMap::default();
    for (k, node) in &n.lined {
        if paired.contains(k) || node.domain.is_none() || node.subprogram {
            continue;
        }
        let key = (node.file.clone(), node.line, n.looser[1][k]);
        out.entry(key).or_default().push(*k);
    }
    out
}

/// The functions (domain ids) of the nodes in `partner` whose fields
/// other than their lines changed (a column, or a scope's): found by their
/// place among their function's nodes ([`Nodes::looser`]'s last key), they
/// are still a change of the function's debug info.
fn reshaped(base: &Nodes, side: &Nodes, partner: &HashMap<u32, u32>) -> HashSet<String> {
    partner
        .iter()
        .filter(|(s, b)| side.looser[1][*s] != base.looser[1][*b])
        .filter_map(|(s, _)| side.lined[s].domain.clone())
        .collect()
}

/// Pairs a side's nodes with the base's by key (equal keys in equal
/// numbers, in line order, the pairs' lines increasing together); the
/// others are what the side added or removed.
fn pair(base: &Nodes, side: &Nodes) -> Pairing {
    let (gb, gs) = (by_key(base), by_key(side));
    let mut candidates: Vec<(u32, u32)> = Vec::new();
    for (k, sn) in &gs {
        if let Some(bn) = gb.get(k).filter(|bn| bn.len() == sn.len()) {
            candidates.extend(sn.iter().zip(bn).map(|(&s, &b)| (s, b)));
        }
    }
    for tier in 0..3 {
        let more = loose_pairs(base, side, &candidates, tier);
        candidates.extend(more);
    }
    let line_pair = |&(s, b): &(u32, u32)| {
        let file = &side.lined[&s].file;
        (file, (base.lined[&b].line, side.lined[&s].line))
    };
    // Nodes outside functions (functions' own, globals', types') are known
    // by name: far more reliable than a line inside a function.
    let weight = |s: u32| {
        let node = &side.lined[&s];
        if node.subprogram || node.domain.is_none() {
            1 << 20
        } else {
            1
        }
    };
    let mut per_file: HashMap<&String, Vec<(u32, u32, u64)>> = HashMap::default();
    for c in &candidates {
        let (f, (b, s)) = line_pair(c);
        per_file.entry(f).or_default().push((b, s, weight(c.0)));
    }
    let agreeing: HashSet<(&String, (u32, u32))> = per_file
        .into_iter()
        .flat_map(|(f, pairs)| {
            shifts::heaviest_chain(&pairs)
                .into_iter()
                .map(move |p| (f, p))
        })
        .collect();
    let mut partner: HashMap<u32, u32> = candidates
        .iter()
        .filter(|c| agreeing.contains(&line_pair(c)))
        .copied()
        .collect();
    let placed = placed_pairs(base, side, &partner);
    partner.extend(placed);
    let kept_base: HashSet<u32> = partner.values().copied().collect();
    let mut evidence: HashMap<String, Evidence> = HashMap::default();
    let mut changed = reshaped(base, side, &partner);
    for (s, node) in &side.lined {
        let e = evidence.entry(node.file.clone()).or_default();
        match partner.get(s) {
            Some(b) => e.anchors.push((base.lined[b].line, node.line)),
            None => {
                e.added.push(node.line);
                changed.extend(node.domain.clone());
            }
        }
    }
    for (b, node) in &base.lined {
        if !kept_base.contains(b) {
            let e = evidence.entry(node.file.clone()).or_default();
            e.removed.push(node.line);
            changed.extend(node.domain.clone());
        }
    }
    Pairing {
        partner,
        maps: evidence
            .into_iter()
            .map(|(f, e)| (f, ShiftMap::new(e)))
            .collect(),
        changed,
    }
}

/// Functions (domain, file) whose debug info both sides changed, one side
/// moving some of their lines against the others, and the base line from
/// which each side moved lines there (`None`: it moved none). Inside, a
/// node is found by its distance from the function's start and what its
/// line holds, and two lines alike (two `return 0;`) may be taken for each
/// other below where lines moved: where the other side placed a change is
/// not known there. Above it, the side kept every line where it was.
type Contested = HashMap<(String, String), [Option<u32>; 2]>;

/// See [`Contested`].
fn contested(nodes: &Three<Nodes>, sides: &[Pairing; 2]) -> Contested {
    let both: HashSet<&String> = sides[0].changed.intersection(&sides[1].changed).collect();
    // Each function's first and last line per file: in the base (both),
    // then the last in ours and theirs.
    let mut spans: HashMap<(&String, &String), [u32; 4]> = HashMap::default();
    for (who, n) in nodes.iter().enumerate() {
        for node in n.lined.values() {
            let Some(d) = node.domain.as_ref().filter(|d| both.contains(d)) else {
                continue;
            };
            let l = node.line;
            let s = spans.entry((d, &node.file)).or_insert([u32::MAX, 0, 0, 0]);
            if who == 0 {
                s[0] = s[0].min(l);
            }
            s[who + 1] = s[who + 1].max(l);
        }
    }
    let mut out = Contested::default();
    for ((d, file), [lo, hi, hi_o, hi_t]) in spans {
        let moved = |p: &Pairing, side_hi| {
            let m = p.maps.get(file)?;
            m.moves_within(lo, hi, side_hi)
                .then(|| m.first_move(lo, hi))
        };
        // A function the base does not have in this file: its lines are
        // not known either.
        let from = match lo > hi {
            true => [Some(0), Some(0)],
            false => [moved(&sides[0], hi_o), moved(&sides[1], hi_t)],
        };
        if from.iter().any(Option::is_some) {
            out.insert((d.clone(), file.clone()), from);
        }
    }
    out
}

/// Computes every node's line in the merged numbering.
struct Rebaser<'a> {
    /// Base, ours, theirs.
    nodes: &'a Three<Nodes<'a>>,
    /// Ours and theirs against the base.
    sides: &'a [Pairing; 2],
    /// Functions whose debug info both sides changed, one moving lines.
    contested: Contested,
    /// Ours', theirs': the base nodes the side kept.
    kept: [HashSet<u32>; 2],
    stand_in: HashMap<u32, u32>,
    unknown: ShiftMap,
    /// The map of a file a side has no node in: nothing moved.
    none: ShiftMap,
}

impl Rebaser<'_> {
    /// The merged line of every node of version `who` (0 base, 1 ours, 2 theirs).
    fn lines_of(&mut self, who: usize) -> HashMap<u32, u32> {
        let nodes = self.nodes;
        nodes[Side::nth(who)]
            .lined
            .keys()
            .map(|&n| {
                let line = match who {
                    0 => self.base_line(n),
                    _ => self.side_line(who - 1, n),
                };
                (n, line)
            })
            .collect()
    }

    fn map(&self, side: usize, file: &str) -> &ShiftMap {
        self.sides[side].maps.get(file).unwrap_or(&self.none)
    }

    /// Where each side moved lines in the contested function of `node`.
    fn moved_from(&self, node: &nodes::Node) -> [Option<u32>; 2] {
        let Some(d) = &node.domain else {
            return [None, None];
        };
        let key = (d.clone(), node.file.clone());
        self.contested.get(&key).copied().unwrap_or_default()
    }

    /// Whether base node `n` (at `node`) sits where no side moved lines
    /// of its contested function, or each side that did kept it.
    fn base_placed(&self, n: u32, node: &nodes::Node) -> bool {
        let from = self.moved_from(node);
        (0..2).all(|k| from[k].is_none_or(|m| node.line < m || self.kept[k].contains(&n)))
    }

    /// Whether a node `side` added at `node`, between base lines `..=hi`,
    /// sits above where the other side moved lines of its contested
    /// function (its shift is the other side's).
    fn side_placed(&self, side: usize, node: &nodes::Node, hi: u32) -> bool {
        self.moved_from(node)[1 - side].is_none_or(|m| hi < m)
    }

    /// A base node's line moves by what both sides inserted above it.
    fn base_line(&mut self, n: u32) -> u32 {
        let node = &self.nodes.base.lined[&n];
        let (l, file) = (node.line, node.file.as_str());
        let (mo, mt) = (self.map(0, file), self.map(1, file));
        let known = match (mo.at(l), mt.at(l)) {
            (Some(a), Some(b)) if self.base_placed(n, node) => Some(l as i64 + a + b),
            _ => None,
        };
        let guess = l as i64 + mo.guess(l) + mt.guess(l);
        self.settled(known, 0, l, guess)
    }

    /// A side's node: the base's line when the side kept it, else its own
    /// line moved by what the other side inserted above where it sits.
    fn side_line(&mut self, side: usize, n: u32) -> u32 {
        if let Some(&b) = self.sides[side].partner.get(&n) {
            return self.base_line(b);
        }
        let node = &self.nodes[Side::changed(side)].lined[&n];
        let (l, file) = (node.line, node.file.as_str());
        let own = self.sides[side].maps.get(file).unwrap_or(&self.unknown);
        let other = self.map(1 - side, file);
        let (lo, hi) = own.base_range_of(l);
        let known = match other.over(lo, hi) {
            Some(s) if self.side_placed(side, node, hi) => Some(l as i64 + s),
            _ => None,
        };
        let guess = l as i64 + other.guess(lo);
        self.settled(known, side + 1, l, guess)
    }

    /// A known line, or a marker standing for line `l` of version `who`.
    fn settled(&mut self, known: Option<i64>, who: usize, l: u32, guess: i64) -> u32 {
        match known {
            Some(v) if v >= 1 && v < SPAN as i64 => v as u32,
            _ => {
                let marker = MARK + who as u32 * SPAN + l;
                self.stand_in
                    .insert(marker, guess.clamp(1, SPAN as i64 - 1) as u32);
                marker
            }
        }
    }
}

/// The column of a node (`None`: it has none).
fn column(rhs: &str) -> Option<u32> {
    field(rhs, "column")?.1.parse().ok()
}

/// The columns rebased like lines, per version (node → the merged
/// column): a node one side found where it was (its line moved as the
/// lines around it did) but at another column, which the other side kept
/// at the base's column, sits at the changing side's column in the merged
/// source (the line is the changing side's). `i < 5` edited to `i <= 5`
/// moves the loop body's block one column right; with the base's and the
/// other side's block moved too, the body's locations and the calls
/// inlined there are the same nodes on all sides again.
fn columns(nodes: &Three<Nodes>, sides: &[Pairing; 2]) -> Three<HashMap<u32, u32>> {
    let mut out: Three<HashMap<u32, u32>> = Three::default();
    for k in 0..2 {
        let o = 1 - k;
        let kept_by_other: HashMap<u32, u32> =
            sides[o].partner.iter().map(|(&s, &b)| (b, s)).collect();
        for (&s, &b) in &sides[k].partner {
            let (node, base) = (&nodes[Side::changed(k)].lined[&s], &nodes.base.lined[&b]);
            let in_place = sides[k].maps.get(&node.file).and_then(|m| m.at(base.line))
                == Some(node.line as i64 - base.line as i64);
            let (Some(to), Some(from)) = (
                column(nodes[Side::changed(k)].defs[&s]),
                column(nodes.base.defs[&b]),
            ) else {
                continue;
            };
            let Some(&other) = kept_by_other.get(&b) else {
                continue;
            };
            if to != from && in_place && column(nodes[Side::changed(o)].defs[&other]) == Some(from)
            {
                out.base.insert(b, to);
                out[Side::changed(o)].insert(other, to);
            }
        }
    }
    out
}

/// Where one version's nodes go in the merged source.
struct Moved<'a> {
    /// Node → its merged line.
    lines: &'a HashMap<u32, u32>,
    /// Node → its merged column, where it moved ([`columns`]).
    columns: &'a HashMap<u32, u32>,
}

/// `text` with its nodes' lines and columns set to `moved`'s (a
/// subprogram's `scopeLine:` keeps its distance to its line) and its
/// files' checksums decided.
fn rewrite(text: &str, nodes: &Nodes, moved: &Moved, sums: &checksum::Decision) -> String {
    let mut out = String::with_capacity(text.len());
    for l in text.split_inclusive('\n') {
        let body = l.trim_end_matches('\n');
        let new = numbered_definition(body).and_then(|(n, rhs)| {
            let prefix = &body[..body.len() - rhs.len()];
            let lined = match (nodes.lined.get(&n), moved.lines.get(&n)) {
                (Some(node), Some(&to)) if node.line != to => Some(with_line(rhs, node.line, to)),
                _ => None,
            };
            let rhs = match (lined, moved.columns.get(&n)) {
                (l, Some(c)) => {
                    let l = l.unwrap_or_else(|| rhs.to_string());
                    with_field(&l, "column", &c.to_string()).unwrap_or(l)
                }
                (Some(l), None) => l,
                (None, None) => sums.apply(rhs)?,
            };
            Some(format!("{prefix}{rhs}"))
        });
        match new {
            Some(n) => {
                out.push_str(&n);
                out.push_str(&l[body.len()..]);
            }
            None => out.push_str(l),
        }
    }
    out
}

/// `rhs` moved from line `from` to line `to`.
fn with_line(rhs: &str, from: u32, to: u32) -> String {
    let mut out = with_field(rhs, "line", &to.to_string()).unwrap_or_else(|| rhs.to_string());
    if let Some(s) = field(&out, "scopeLine").and_then(|(_, v)| v.parse::<i64>().ok()) {
        let moved = (s + to as i64 - from as i64).max(0);
        out = with_field(&out, "scopeLine", &moved.to_string()).unwrap_or(out);
    }
    out
}

impl Rebased {
    /// `text` with every marker line replaced by its stand-in, and the
    /// nodes that had one.
    fn shown(&self, text: &str) -> (String, Vec<u32>) {
        let mut marked = Vec::new();
        let mut out = String::with_capacity(text.len());
        for l in text.split_inclusive('\n') {
            let body = l.trim_end_matches('\n');
            let line = numbered_definition(body).and_then(|(n, rhs)| {
                let (_, v) = field(rhs, "line")?;
                let v: u32 = v.parse().ok().filter(|&v| v >= MARK)?;
                marked.push(n);
                let to = self.stand_in.get(&v).copied().unwrap_or(v - MARK);
                let prefix = &body[..body.len() - rhs.len()];
                Some(format!("{prefix}{}", with_line(rhs, v, to)))
            });
            match line {
                Some(n) => {
                    out.push_str(&n);
                    out.push_str(&l[body.len()..]);
                }
                None => out.push_str(l),
            }
        }
        (out, marked)
    }

    /// The merge of the rebased inputs, as the user gets it: a clean
    /// result that kept a line whose shift is not known is a conflict on
    /// the functions that use it; markers are never shown.
    pub(crate) fn settle(&self, mut o: Outcome, markers: &Markers) -> Outcome {
        o.notes.extend(self.notes.iter().cloned());
        let (text, marked) = self.shown(&o.text);
        if marked.is_empty() {
            return o;
        }
        if o.conflicts > 0 {
            let notes = std::mem::take(&mut o.notes);
            let mut shown = Outcome::exact(text.as_bytes(), o.conflicts, o.made_by);
            shown.notes = notes;
            return shown;
        }
        let functions = users(&text, &marked);
        let Three { base, ours, theirs } = self.texts.as_ref().map(|t| self.shown(t).0);
        let (written, conflicts) = (!functions.is_empty())
            .then(|| {
                disputes::conflict_on_functions(
                    &text,
                    &functions,
                    Three::new(&base, &ours, &theirs),
                    markers,
                )
            })
            .flatten()
            .unwrap_or_else(|| (render::conflict_hunk(&ours, &base, &theirs, markers), 1));
        let what = if functions.is_empty() {
            "the module".to_string()
        } else {
            functions.join(", ")
        };
        let mut c = Outcome::exact(written.as_bytes(), conflicts, Conflict::DebugLines.into());
        c.notes = o.notes;
        c.notes.push(format!(
            "debug info: where one side's source lines moved, the other side's changes to {what} \
             cannot be placed (both sides changed its lines, or around the same place); \
             written as a conflict for review"
        ));
        c
    }
}

/// The functions of `text` that use one of the `marked` nodes (directly
/// or through other nodes).
fn users(text: &str, marked: &[u32]) -> Vec<String> {
    let defs: BTreeMap<u32, &str> = text.lines().filter_map(numbered_definition).collect();
    let mut reach: HashSet<u32> = marked.iter().copied().collect();
    loop {
        let before = reach.len();
        for (&n, rhs) in &defs {
            if !reach.contains(&n) && refs_any(rhs, &reach) {
                reach.insert(n);
            }
        }
        if reach.len() == before {
            break;
        }
    }
    disputes::function_ranges(text)
        .into_iter()
        .filter(|(_, r)| text[r.clone()].lines().any(|l| refs_any(l, &reach)))
        .map(|(name, _)| name)
        .collect()
}

fn refs_any(line: &str, nodes: &HashSet<u32>) -> bool {
    let mut hit = false;
    scan_refs(line, |_, _, r| {
        hit |= matches!(r, Ref::Meta(n) if nodes.contains(&n))
    });
    hit
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "\
!1 = !DIFile(filename: \"a.c\", directory: \"/s\")
!2 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 1, scopeLine: 1, unit: !9)
!3 = !DILocation(line: 2, column: 3, scope: !2)
!4 = !DILocalVariable(name: \"v\", scope: !2, file: !1, line: 4, type: !8)
!5 = !DILocation(line: 4, column: 3, scope: !2)
!6 = !DILocation(line: 5, column: 3, scope: !2)
";

    #[test]
    fn a_node_whose_line_lost_another_node_is_paired_where_it_sits() {
        // Line 4 loses its column-9 node, and a statement like line 4's
        // is added at line 6: the node at line 4 is found by its place.
        let base = format!("{BASE}!7 = !DILocation(line: 4, column: 9, scope: !2)\n");
        let side = format!("{BASE}!8 = !DILocation(line: 6, column: 3, scope: !2)\n");
        let (b, s) = (Nodes::parse(&base), Nodes::parse(&side));
        let p = pair(&b, &s);
        assert_eq!(p.partner.get(&5), Some(&5), "the node of line 4");
        assert_eq!(p.partner.get(&8), None, "the new statement");
        assert_eq!(p.maps["a.c\u{0}/s"].at(4), Some(0));
    }

    #[test]
    fn nodes_below_a_line_inserted_in_their_function_are_still_paired() {
        // A statement inserted at line 3: line 4 and 5 move down.
        let side = BASE
            .replace("line: 5,", "line: 6,")
            .replace("line: 4,", "line: 5,")
            + "!7 = !DILocation(line: 3, column: 3, scope: !2)\n";
        let (b, s) = (Nodes::parse(BASE), Nodes::parse(&side));
        let p = pair(&b, &s);
        assert_eq!(p.partner.get(&4), Some(&4), "the variable");
        assert_eq!(p.partner.get(&3), Some(&3), "the line above");
        assert_eq!(p.partner.get(&7), None, "the new statement");
        let m = &p.maps["a.c\u{0}/s"];
        assert_eq!(m.at(2), Some(0));
        assert_eq!(m.at(4), Some(1));
        assert_eq!(m.at(3), None);
    }
}
