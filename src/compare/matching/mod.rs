//! Matching one side's function to the base's: which block of A is which
//! block of O, and which value of A is which value of O (congruence).
//!
//! Canonical names do most of the work, but an edited value is renamed on
//! its side, and so are the values that looked at it:
//!
//! ```text
//! O:  %add.5e1c = add i32 %arg0, 1        A:  %add.77f0 = add i32 %arg0, 2
//!     %mul.c2a9 = mul i32 %add.5e1c, 3        %mul.0b1d = mul i32 %add.77f0, 3
//! ```
//!
//! Order of work: blocks by unifying the CFGs from the entry along successor
//! edges (content similarity for what is left); values by equal canonical
//! name (unique anchors), then, per matched block pair, a diff of the lines
//! with unmatched names blanked out: equal lines match their values, and in
//! the gaps a line matches a similar line (same shape, at most two tokens
//! different) or a call to the same callee ([`same_callee`]). Matching `%add.77f0 -> %add.5e1c` makes the `mul` lines equal,
//! so the loop runs until nothing new matches. Def-use edges extend matches:
//! matched users whose operands at the same position are unmatched values of
//! the same opcode match them.

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

mod renamed_layout;
mod same_callee;

use super::diff;
use super::model::{local_refs, local_refs_str, FuncText};
use crate::text::{def_name, opcode, rewrite, rewrite_with, Ref};

use renamed_layout::renamed_layout;

/// Side name -> base name, for blocks and values.
#[derive(Debug, Default, Clone)]
pub struct Matching {
    pub blocks: HashMap<String, String>,
    pub values: HashMap<String, String>,
    /// Every local name stands for itself (the side kept the base's layout).
    pub identity: bool,
}

/// Each function's [`Matching`] to the base's, by function name: what the
/// structured merge computed, for the ours'-text writer to reuse.
pub(crate) type Matchings = HashMap<String, Matching>;

/// Entries of a name map in name order (deterministic, as the matching
/// depends on the order it extends matches in).
fn sorted(m: &HashMap<String, String>) -> Vec<(&String, &String)> {
    let mut v: Vec<(&String, &String)> = m.iter().collect();
    v.sort_unstable();
    v
}

/// Successor labels of a block, each with a key saying which edge it is:
/// the case value for a `switch` (so an added case does not shift the
/// others), the position otherwise.
pub(crate) fn successors(f: &FuncText, labels: &HashSet<&str>, bi: usize) -> Vec<(String, String)> {
    let Some(t) = f.blocks[bi].lines.last() else {
        return Vec::new();
    };
    if opcode(t) == "switch" {
        let mut out = Vec::new();
        for (k, part) in t.split("label %").enumerate().skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "$._-".contains(*c))
                .collect();
            let key = if k == 1 {
                "default".to_string()
            } else {
                let prev = t.split("label %").nth(k - 1).unwrap_or("");
                let prev = prev.trim_end().trim_end_matches(',');
                let toks: Vec<&str> = prev.split_whitespace().collect();
                toks[toks.len().saturating_sub(2)..].join(" ")
            };
            if labels.contains(name.as_str()) {
                out.push((key, name));
            }
        }
        return out;
    }
    local_refs(t)
        .into_iter()
        .filter(|r| labels.contains(r.as_str()))
        .enumerate()
        .map(|(i, r)| (i.to_string(), r))
        .collect()
}

/// `var.8263.1` -> `var.8263`; `add.0405` stays.
pub(crate) fn stem(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((head, tail)) if head.contains('.') && tail.bytes().all(|c| c.is_ascii_digit()) => {
            head
        }
        _ => name,
    }
}

/// Each wanted value's users in `f`, printed with the value as `%SELF`,
/// the other local names as `other` says (`None`: as written) and metadata
/// and attribute-group numbers blanked.
fn user_contexts(
    f: &FuncText,
    wanted: impl Fn(&str) -> bool,
    other: impl Fn(&str) -> Option<String>,
) -> BTreeMap<String, Vec<String>> {
    let mut contexts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for l in f.blocks.iter().flat_map(|b| &b.lines) {
        for r in local_refs_str(l) {
            if !wanted(r) || def_name(l) == Some(r) {
                continue;
            }
            let shape = rewrite(l, |x| match x {
                Ref::Local(n) if n == r => Some("%SELF".into()),
                Ref::Local(n) => other(n),
                Ref::Meta(_) => Some("!".into()),
                Ref::Attr(_) => Some("#".into()),
            });
            contexts.entry(r.to_string()).or_default().push(shape);
        }
    }
    contexts
}

/// Matches values whose names are ambiguous by how they are used: each
/// unmatched value's users, printed with the value as `%SELF` and the other
/// operands in base names, form its context; a side value and a base value
/// whose contexts share the most lines, uniquely and mutually, match.
fn match_by_users(st: &mut State<'_>) -> bool {
    if st.amb_s.is_empty() || st.amb_o.is_empty() {
        return false;
    }
    let (amb_s, amb_o) = (&st.amb_s.clone(), &st.amb_o.clone());
    let (s_line_of, o_line_of) = (st.s_line_of.clone(), st.o_line_of.clone());
    let ctx_s = user_contexts(
        st.s,
        |r| amb_s.contains(r) && !st.m.values.contains_key(r),
        |n| {
            st.s_locals.contains(n).then(|| {
                st.m.values
                    .get(n)
                    .or_else(|| st.m.blocks.get(n))
                    .map(|o| format!("%{o}"))
                    .unwrap_or_else(|| "%?".into())
            })
        },
    );
    let ctx_o = user_contexts(
        st.o,
        |r| amb_o.contains(r) && !st.image.contains(r),
        |n| {
            let unmatched = !st.image.contains(n) && !st.block_image.contains(n);
            (st.o_locals.contains(n) && unmatched).then(|| "%?".to_string())
        },
    );
    let same_def = |a: &str, b: &str| {
        let (Some(la), Some(lb)) = (s_line_of.get(a), o_line_of.get(b)) else {
            return false;
        };
        let strip = |l: &str| {
            l.split_once(" = ")
                .map(|(_, r)| r.to_string())
                .unwrap_or_default()
        };
        mnemonic(a) == mnemonic(b)
            && opcode(la) == opcode(lb)
            && (stem(a) == stem(b) || strip(la) == strip(lb))
    };
    let mut changed = false;
    for (a, ca) in &ctx_s {
        let cand: Vec<(usize, String)> = ctx_o
            .iter()
            .filter(|(b, _)| !st.image.contains(*b) && same_def(a, b))
            .map(|(b, cb)| (shared_lines(ca, cb), b.clone()))
            .collect();
        let Some(b) = unique_best(cand) else { continue };
        let back: Vec<(usize, String)> = ctx_s
            .iter()
            .filter(|(x, _)| !st.m.values.contains_key(*x) && same_def(x, &b))
            .map(|(x, cx)| (shared_lines(cx, &ctx_o[&b]), x.clone()))
            .collect();
        if unique_best(back).as_deref() == Some(a.as_str()) {
            changed |= st.add_value(a, &b);
        }
    }
    changed
}

/// How many lines of `x` have an equal line in `y` (each used once).
fn shared_lines(x: &[String], y: &[String]) -> usize {
    let mut y: Vec<&String> = y.iter().collect();
    let mut n = 0;
    for a in x {
        if let Some(p) = y.iter().position(|b| *b == a) {
            y.swap_remove(p);
            n += 1;
        }
    }
    n
}

/// The name with the highest positive score, when no other has it.
fn unique_best(scores: Vec<(usize, String)>) -> Option<String> {
    let max = scores.iter().map(|x| x.0).max()?;
    let mut top = scores.into_iter().filter(|x| x.0 == max);
    let first = top.next()?;
    (max > 0 && top.next().is_none()).then_some(first.1)
}

pub(crate) fn mnemonic(name: &str) -> &str {
    name.split('.').next().unwrap_or(name)
}

/// The matching of one function pair as it grows.
struct State<'a> {
    o: &'a FuncText,
    s: &'a FuncText,
    o_locals: HashSet<String>,
    s_locals: HashSet<String>,
    m: Matching,
    /// Base values already matched.
    image: HashSet<String>,
    /// Base blocks already matched.
    block_image: HashSet<String>,
    o_idx: HashMap<&'a str, usize>,
    s_idx: HashMap<&'a str, usize>,
    o_line_of: HashMap<&'a str, &'a str>,
    s_line_of: HashMap<&'a str, &'a str>,
    amb_o: HashSet<String>,
    amb_s: HashSet<String>,
}

impl State<'_> {
    fn add_value(&mut self, s: &str, o: &str) -> bool {
        if self.m.values.contains_key(s) || self.image.contains(o) {
            return false;
        }
        self.m.values.insert(s.to_string(), o.to_string());
        self.image.insert(o.to_string());
        true
    }

    fn shape_s(&self, line: &str) -> String {
        rewrite_with(line, |r, out| match r {
            Ref::Local(n) if self.s_locals.contains(n) => {
                match self.m.values.get(n).or_else(|| self.m.blocks.get(n)) {
                    Some(o) => {
                        out.push('%');
                        out.push_str(o);
                    }
                    None => out.push_str("%?"),
                }
                true
            }
            other => blank_numbering(other, out),
        })
    }

    fn shape_o(&self, line: &str) -> String {
        rewrite_with(line, |r, out| match r {
            Ref::Local(n) if self.o_locals.contains(n) => {
                if self.image.contains(n) || self.block_image.contains(n) {
                    false
                } else {
                    out.push_str("%?");
                    true
                }
            }
            other => blank_numbering(other, out),
        })
    }
}

/// Metadata and attribute-group numbers say nothing about a line's shape:
/// `!12` becomes `!`, `#3` becomes `#`. Returns whether `r` was one of them.
pub(crate) fn blank_numbering(r: Ref<'_>, out: &mut String) -> bool {
    match r {
        Ref::Meta(_) => out.push('!'),
        Ref::Attr(_) => out.push('#'),
        _ => return false,
    }
    true
}

pub(crate) fn similar(a: &str, b: &str) -> bool {
    let ta: Vec<&str> = a.split_whitespace().collect();
    let tb: Vec<&str> = b.split_whitespace().collect();
    if ta.len() != tb.len() {
        return false;
    }
    let differ = ta.iter().zip(&tb).filter(|(x, y)| x != y).count();
    differ <= 2 && differ * 3 <= ta.len()
}

/// The fast path of [`match_function`] for a side that kept the base's
/// layout: same header, same blocks under the same labels, same number of
/// lines, and every line that differs keeps its defined name, is no
/// terminator and is [`similar`] to the base's line (a changed constant):
///
/// ```text
/// O:  %xor.040a = xor i8 %ee.324e, -1     S:  %xor.040a = xor i8 %ee.324e, 6
/// ```
///
/// Every name then stands for itself, which is what the full matching finds
/// there (equal lines anchor their names, a similar line in a one-line gap
/// matches its counterpart), without shaping and diffing every line. Names
/// that differ only by a collision suffix (`%var.8263.1`) are no identity:
/// such functions take the full path.
fn same_layout(o: &FuncText, s: &FuncText) -> Option<Matching> {
    if o.header != s.header || o.blocks.len() != s.blocks.len() {
        return None;
    }
    let mut m = Matching {
        identity: true,
        ..Matching::default()
    };
    for (bo, bs) in o.blocks.iter().zip(&s.blocks) {
        if bo.label != bs.label || bo.lines.len() != bs.lines.len() {
            return None;
        }
        let last = bo.lines.len().saturating_sub(1);
        for (k, (lo, ls)) in bo.lines.iter().zip(&bs.lines).enumerate() {
            let d = def_name(lo);
            if lo != ls {
                let blank = |l: &str| rewrite_with(l, blank_numbering);
                if k == last || d != def_name(ls) || !similar(&blank(lo), &blank(ls)) {
                    return None;
                }
            }
            if let Some(d) = d {
                if stem(d) != d {
                    return None;
                }
                m.values.insert(d.to_string(), d.to_string());
            }
        }
        m.blocks.insert(bo.label.clone(), bo.label.clone());
    }
    for r in local_refs(&o.header) {
        if r.starts_with("arg") {
            m.values.insert(r.clone(), r);
        }
    }
    Some(m)
}

/// Matches side function `s` to base function `o`.
pub fn match_function(o: &FuncText, s: &FuncText) -> Matching {
    same_layout(o, s)
        .or_else(|| renamed_layout(o, s))
        .unwrap_or_else(|| match_full(o, s))
}

/// [`match_function`] without the fast path: blocks by unifying the CFGs,
/// values anchored by equal names, then rounds of line matching in matched
/// block pairs, def-use extension, users' contexts and leftover blocks,
/// until a round teaches nothing new.
pub(crate) fn match_full(o: &FuncText, s: &FuncText) -> Matching {
    let mut st = State::new(o, s);
    st.unify_cfgs();
    st.anchor_equal_names();
    let mut settled: HashSet<(usize, usize)> = HashSet::default();
    let mut extended: HashSet<String> = HashSet::default();
    for _round in 0..12 {
        let mut changed = st.match_lines_in_block_pairs(&mut settled);
        changed |= st.extend_def_use(&mut extended);
        if !changed {
            changed |= match_by_users(&mut st);
        }
        if !changed && !st.pair_a_leftover_block() {
            break;
        }
    }
    st.m
}

/// Label -> block index.
fn block_index(f: &FuncText) -> HashMap<&str, usize> {
    f.blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label.as_str(), i))
        .collect()
}

/// Defined name -> its line.
fn defining_lines(f: &FuncText) -> HashMap<&str, &str> {
    f.blocks
        .iter()
        .flat_map(|b| {
            b.lines
                .iter()
                .filter_map(|l| def_name(l).map(|d| (d, l.as_str())))
        })
        .collect()
}

/// Names that differ only by a collision suffix (`%var.8263`,
/// `%var.8263.1`): their suffixes follow canonical order, so they are no
/// identity.
pub(crate) fn ambiguous_names(f: &FuncText) -> HashSet<String> {
    let defined = || {
        f.blocks
            .iter()
            .flat_map(|b| b.lines.iter().filter_map(|l| def_name(l)))
    };
    // Group sizes by stem, counting the names with a suffix first: most
    // functions have none, and then no group has two names.
    let mut group_size: HashMap<&str, usize> = HashMap::default();
    for d in defined().filter(|d| stem(d) != *d) {
        *group_size.entry(stem(d)).or_default() += 1;
    }
    if group_size.is_empty() {
        return HashSet::default();
    }
    for d in defined().filter(|d| stem(d) == *d) {
        if let Some(size) = group_size.get_mut(d) {
            *size += 1;
        }
    }
    defined()
        .filter(|d| group_size.get(stem(d)).is_some_and(|&size| size > 1))
        .map(str::to_string)
        .collect()
}

impl<'a> State<'a> {
    fn new(o: &'a FuncText, s: &'a FuncText) -> Self {
        State {
            o,
            s,
            o_locals: o.locals(),
            s_locals: s.locals(),
            m: Matching::default(),
            image: HashSet::default(),
            block_image: HashSet::default(),
            o_idx: block_index(o),
            s_idx: block_index(s),
            o_line_of: defining_lines(o),
            s_line_of: defining_lines(s),
            amb_o: ambiguous_names(o),
            amb_s: ambiguous_names(s),
        }
    }

    fn add_block(&mut self, s: &str, o: &str) {
        self.m.blocks.insert(s.to_string(), o.to_string());
        self.block_image.insert(o.to_string());
    }

    /// [`State::add_value`] unless either name is ambiguous.
    fn add_unambiguous(&mut self, s: &str, o: &str) -> bool {
        !self.amb_s.contains(s) && !self.amb_o.contains(o) && self.add_value(s, o)
    }

    /// Blocks: from the entries, along successor edges with the same key
    /// under terminators of the same opcode.
    fn unify_cfgs(&mut self) {
        let (o, s) = (self.o, self.s);
        let o_labels: HashSet<&str> = self.o_idx.keys().copied().collect();
        let s_labels: HashSet<&str> = self.s_idx.keys().copied().collect();
        let mut queue = VecDeque::new();
        if !o.blocks.is_empty() && !s.blocks.is_empty() {
            self.add_block(&s.blocks[0].label, &o.blocks[0].label);
            queue.push_back((0usize, 0usize));
        }
        while let Some((si, oi)) = queue.pop_front() {
            let ss = successors(s, &s_labels, si);
            let os = successors(o, &o_labels, oi);
            let sop = s.blocks[si].lines.last().map(|l| opcode(l)).unwrap_or("");
            let oop = o.blocks[oi].lines.last().map(|l| opcode(l)).unwrap_or("");
            if sop != oop || (sop != "switch" && ss.len() != os.len()) {
                continue;
            }
            for (key, a) in &ss {
                let Some((_, b)) = os.iter().find(|(k, _)| k == key) else {
                    continue;
                };
                if self.m.blocks.contains_key(a) || self.block_image.contains(b) {
                    continue;
                }
                self.add_block(a, b);
                queue.push_back((self.s_idx[a.as_str()], self.o_idx[b.as_str()]));
            }
        }
    }

    /// Values: arguments, and equal canonical names whose lines agree
    /// apart from the local names they use (names are local hashes and
    /// can coincide).
    fn anchor_equal_names(&mut self) {
        for n in self.s_locals.clone() {
            if n.starts_with("arg") && self.o_locals.contains(&n) {
                self.add_value(&n, &n);
            }
        }
        let blank = |line: &str, locals: &HashSet<String>| {
            rewrite(line, |r| match r {
                Ref::Local(n) if locals.contains(n) => Some("%?".into()),
                Ref::Meta(_) => Some("!".into()),
                Ref::Attr(_) => Some("#".into()),
                _ => None,
            })
        };
        let s = self.s;
        for l in s.blocks.iter().flat_map(|b| &b.lines) {
            let Some(d) = def_name(l) else { continue };
            if self.amb_s.contains(d) || self.amb_o.contains(d) {
                continue;
            }
            let Some(&base_line) = self.o_line_of.get(d) else {
                continue;
            };
            if l == base_line || blank(l, &self.s_locals) == blank(base_line, &self.o_locals) {
                self.add_value(d, d);
            }
        }
    }

    /// One pass over the matched block pairs not yet settled: a pair whose
    /// shaped lines are all equal matches line by line and is settled;
    /// otherwise the common lines of a diff match, and in the gaps a line
    /// matches a [`similar`] one.
    fn match_lines_in_block_pairs(&mut self, settled: &mut HashSet<(usize, usize)>) -> bool {
        let pairs: Vec<(usize, usize)> = sorted(&self.m.blocks)
            .into_iter()
            .map(|(a, b)| (self.s_idx[a.as_str()], self.o_idx[b.as_str()]))
            .filter(|p| !settled.contains(p))
            .collect();
        let mut changed = false;
        for (si, oi) in pairs {
            let (s, o) = (self.s, self.o);
            let sl = &s.blocks[si].lines;
            let ol = &o.blocks[oi].lines;
            let sk: Vec<String> = sl.iter().map(|l| self.shape_s(l)).collect();
            let ok: Vec<String> = ol.iter().map(|l| self.shape_o(l)).collect();
            if sk == ok {
                settled.insert((si, oi));
                changed |= self.match_defs_at(sl, ol, (0..sl.len()).map(|k| (k, k)));
                continue;
            }
            let common = diff::common(&ok, &sk);
            changed |= self.match_defs_at(sl, ol, common.iter().map(|&(i, j)| (j, i)));
            for (o0, o1, s0, s1) in gaps(&common, ol.len(), sl.len()) {
                changed |= self.match_similar_in_gap(sl, ol, (&sk, &ok), (s0..s1, o0..o1));
                changed |= self.match_calls_in_gap((sl, ol), (&sk, &ok), (s0..s1, o0..o1));
            }
        }
        changed
    }

    /// Matches the values defined at the paired positions (side, base).
    fn match_defs_at(
        &mut self,
        sl: &[String],
        ol: &[String],
        positions: impl Iterator<Item = (usize, usize)>,
    ) -> bool {
        let mut changed = false;
        for (j, i) in positions {
            if let (Some(a), Some(b)) = (def_name(&sl[j]), def_name(&ol[i])) {
                changed |= self.add_unambiguous(a, b);
            }
        }
        changed
    }

    /// In a gap of the diff, each unmatched side value takes the first
    /// later base value of the same mnemonic whose shaped line is similar.
    fn match_similar_in_gap(
        &mut self,
        sl: &[String],
        ol: &[String],
        (sk, ok): (&[String], &[String]),
        (side, base): (std::ops::Range<usize>, std::ops::Range<usize>),
    ) -> bool {
        let mut changed = false;
        let mut next_o = base.start;
        for j in side {
            let Some(a) = def_name(&sl[j]) else { continue };
            if self.m.values.contains_key(a) || self.amb_s.contains(a) {
                continue;
            }
            for i in next_o..base.end {
                let Some(b) = def_name(&ol[i]) else { continue };
                if self.image.contains(b) || mnemonic(a) != mnemonic(b) {
                    continue;
                }
                if similar(&sk[j], &ok[i]) {
                    changed |= self.add_value(a, b);
                    next_o = i + 1;
                    break;
                }
            }
        }
        changed
    }

    /// Def-use extension, once per matched pair: operands at equal
    /// positions of two matched lines of one opcode match when they are
    /// unmatched values of the same mnemonic and opcode.
    fn extend_def_use(&mut self, extended: &mut HashSet<String>) -> bool {
        // Only the pairs not extended yet, in name order (sorting just
        // those: every round sorting all matched values cost more than the
        // extension itself on large functions).
        let mut fresh: Vec<(&String, &String)> = self
            .m
            .values
            .iter()
            .filter(|(a, _)| !extended.contains(*a))
            .collect();
        fresh.sort_unstable();
        let matched: Vec<(String, String)> = fresh
            .into_iter()
            .map(|(a, b)| (a.clone(), b.clone()))
            .collect();
        extended.extend(matched.iter().map(|(a, _)| a.clone()));
        let mut changed = false;
        for (a, b) in matched {
            let (Some(&la), Some(&lb)) = (
                self.s_line_of.get(a.as_str()),
                self.o_line_of.get(b.as_str()),
            ) else {
                continue;
            };
            let (ra, rb) = (local_refs_str(la), local_refs_str(lb));
            if opcode(la) != opcode(lb) || ra.len() != rb.len() {
                continue;
            }
            for (&x, &y) in ra.iter().zip(&rb) {
                let (Some(&lx), Some(&ly)) = (self.s_line_of.get(x), self.o_line_of.get(y)) else {
                    continue;
                };
                if x != a.as_str()
                    && !self.m.values.contains_key(x)
                    && !self.image.contains(y)
                    && mnemonic(x) == mnemonic(y)
                    && opcode(lx) == opcode(ly)
                {
                    changed |= self.add_value(x, y);
                }
            }
        }
        changed
    }

    /// Pairs the unmatched side block and base block sharing the most lines
    /// (more than half of the longer one). Quadratic, so only for a bounded
    /// number of unmatched blocks: the rest stay added/removed, which can
    /// only cost conflicts. Returns whether a pair was made.
    fn pair_a_leftover_block(&mut self) -> bool {
        let (o, s) = (self.o, self.s);
        let free_s = s.blocks.len() - self.m.blocks.len();
        let free_o = o.blocks.len() - self.block_image.len();
        if free_s * free_o > 4096 {
            return false;
        }
        let mut best: Option<(usize, usize, usize)> = None;
        for (si, sb) in s.blocks.iter().enumerate() {
            if self.m.blocks.contains_key(&sb.label) {
                continue;
            }
            let sk: Vec<String> = sb.lines.iter().map(|l| self.shape_s(l)).collect();
            for (oi, ob) in o.blocks.iter().enumerate() {
                if self.block_image.contains(&ob.label) {
                    continue;
                }
                let ok: Vec<String> = ob.lines.iter().map(|l| self.shape_o(l)).collect();
                let c = diff::common(&ok, &sk).len();
                if c * 2 > sk.len().max(ok.len()) && best.is_none_or(|b| c > b.2) {
                    best = Some((si, oi, c));
                }
            }
        }
        let Some((si, oi, _)) = best else {
            return false;
        };
        self.add_block(&s.blocks[si].label, &o.blocks[oi].label);
        true
    }
}

/// The gaps between the common lines `(base, side)` of a diff, as
/// `(base start, base end, side start, side end)`, both sides non-empty.
fn gaps(
    common: &[(usize, usize)],
    o_len: usize,
    s_len: usize,
) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let (mut po, mut ps) = (0, 0);
    for &(i, j) in common.iter().chain(std::iter::once(&(o_len, s_len))) {
        if i > po && j > ps {
            out.push((po, i, ps, j));
        }
        po = i + 1;
        ps = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::model;

    fn canonical_func(ir: &str) -> FuncText {
        let opts = crate::config::CanonOptions {
            keep_comments: false,
            ..Default::default()
        };
        let text = crate::canon::canonicalize_bytes(ir.as_bytes(), "t.ll", &opts).unwrap();
        model::parse(&text, "t").unwrap().funcs.remove(0)
    }

    fn sorted_pairs(m: &HashMap<String, String>) -> Vec<(String, String)> {
        let mut v: Vec<_> = m.iter().map(|(a, b)| (a.clone(), b.clone())).collect();
        v.sort();
        v
    }

    const BASE: &str = "define i32 @f(i32 %x, i1 %c) {
entry:
  %a = add i32 %x, 1
  %b = xor i32 %a, -1
  br i1 %c, label %then, label %done
then:
  %m = mul i32 %b, 3
  br label %done
done:
  %p = phi i32 [ %b, %entry ], [ %m, %then ]
  ret i32 %p
}
";

    #[test]
    fn same_layout_finds_what_the_full_matching_finds() {
        let o = canonical_func(BASE);
        let s = canonical_func(&BASE.replace("%b = xor i32 %a, -1", "%b = xor i32 %a, 6"));
        let lines = |f: &FuncText| -> Vec<String> {
            f.blocks.iter().flat_map(|b| b.lines.clone()).collect()
        };
        assert_ne!(lines(&o), lines(&s), "the side changed a line");
        let fast = same_layout(&o, &s).expect("the side kept the base's layout");
        assert!(fast.identity);
        let full = match_full(&o, &s);
        assert_eq!(sorted_pairs(&fast.values), sorted_pairs(&full.values));
        assert_eq!(sorted_pairs(&fast.blocks), sorted_pairs(&full.blocks));
    }

    /// A function calling `@alloc` twice, the calls apart or side by side.
    fn calls(declared: &str, first: &str, second: &str, apart: bool) -> String {
        let between = if apart {
            "  store i32 1, ptr %p, align 4\n"
        } else {
            ""
        };
        format!(
            "declare ptr @alloc({declared})\n\ndefine ptr @f(ptr %p) {{\nentry:\n  \
             %a = call ptr @alloc({first})\n{between}  %b = call ptr @alloc({second})\n  \
             store ptr %a, ptr %p, align 8\n  ret ptr %b\n}}\n"
        )
    }

    /// The base's name of the value that the side's line ending in `side_line` defines.
    fn matched_base_name(o: &FuncText, s: &FuncText, side_line: &str) -> Option<String> {
        let line = s.blocks[0].lines.iter().find(|l| l.ends_with(side_line))?;
        let side_name = def_name(line)?;
        match_function(o, s).values.get(side_name).cloned()
    }

    /// The base (two calls to `@alloc(i32, ptr)`) and a side that dropped
    /// the callee's second parameter from the declaration and both calls.
    fn parameter_dropped(apart: bool) -> (FuncText, FuncText) {
        let base = calls("i32, ptr", "i32 4, ptr null", "i32 8, ptr null", apart);
        let side = calls("i32", "i32 4", "i32 8", apart);
        (canonical_func(&base), canonical_func(&side))
    }

    #[test]
    fn a_call_whose_arguments_changed_is_the_base_call() {
        let (o, s) = parameter_dropped(true);
        for (side, base) in [
            ("(i32 4)", "(i32 4, ptr null)"),
            ("(i32 8)", "(i32 8, ptr null)"),
        ] {
            let base_line = o.blocks[0]
                .lines
                .iter()
                .find(|l| l.ends_with(base))
                .unwrap();
            assert_eq!(
                matched_base_name(&o, &s, side).as_deref(),
                def_name(base_line),
                "{side}"
            );
        }
    }

    #[test]
    fn two_changed_calls_to_one_callee_side_by_side_stay_apart() {
        let (o, s) = parameter_dropped(false);
        assert_eq!(matched_base_name(&o, &s, "(i32 4)"), None);
        assert_eq!(matched_base_name(&o, &s, "(i32 8)"), None);
    }

    #[test]
    fn a_changed_branch_takes_the_full_path() {
        let o = canonical_func(BASE);
        let s = canonical_func(&BASE.replace(
            "br i1 %c, label %then, label %done",
            "br i1 %c, label %done, label %then",
        ));
        assert!(same_layout(&o, &s).is_none());
        assert!(!match_function(&o, &s).identity);
    }
}
