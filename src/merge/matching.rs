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
//! different). Matching `%add.77f0 -> %add.5e1c` makes the `mul` lines equal,
//! so the loop runs until nothing new matches. Def-use edges extend matches:
//! matched users whose operands at the same position are unmatched values of
//! the same opcode match them.

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::diff;
use super::model::{def_name, local_refs, local_refs_str, rewrite, rewrite_with, FuncText, Ref};

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
pub type Matchings = HashMap<String, Matching>;

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
fn successors(f: &FuncText, labels: &HashSet<&str>, bi: usize) -> Vec<(String, String)> {
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

fn opcode(line: &str) -> &str {
    let rest = match line.find(" = ") {
        Some(p) if line.starts_with('%') => &line[p + 3..],
        _ => line,
    };
    rest.split_whitespace().next().unwrap_or("")
}

/// `var.8263.1` -> `var.8263`; `add.0405` stays.
fn stem(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((head, tail)) if head.contains('.') && tail.bytes().all(|c| c.is_ascii_digit()) => {
            head
        }
        _ => name,
    }
}

/// Matches values whose names are ambiguous by how they are used: each
/// unmatched value's users, printed with the value as `%SELF` and the other
/// operands in base names, form its context; a side value and a base value
/// whose contexts share the most lines, uniquely and mutually, match.
fn match_by_users(
    st: &mut State<'_>,
    amb_s: &HashSet<String>,
    amb_o: &HashSet<String>,
    s_line_of: &HashMap<&str, &str>,
    o_line_of: &HashMap<&str, &str>,
) -> bool {
    if amb_s.is_empty() || amb_o.is_empty() {
        return false;
    }
    let mut ctx_s: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut ctx_o: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for b in &st.s.blocks {
        for l in &b.lines {
            for r in local_refs_str(l) {
                if amb_s.contains(r) && !st.m.values.contains_key(r) && def_name(l) != Some(r) {
                    let shape = rewrite(l, |x| match x {
                        Ref::Local(n) if n == r => Some("%SELF".into()),
                        Ref::Local(n) if st.s_locals.contains(n) => Some(
                            st.m.values
                                .get(n)
                                .or_else(|| st.m.blocks.get(n))
                                .map(|o| format!("%{o}"))
                                .unwrap_or_else(|| "%?".into()),
                        ),
                        Ref::Meta(_) => Some("!".into()),
                        Ref::Attr(_) => Some("#".into()),
                        _ => None,
                    });
                    ctx_s.entry(r.to_string()).or_default().push(shape);
                }
            }
        }
    }
    let image_blocks: HashSet<&String> = st.m.blocks.values().collect();
    for b in &st.o.blocks {
        for l in &b.lines {
            for r in local_refs_str(l) {
                if amb_o.contains(r) && !st.image.contains(r) && def_name(l) != Some(r) {
                    let shape = rewrite(l, |x| match x {
                        Ref::Local(n) if n == r => Some("%SELF".into()),
                        Ref::Local(n) if st.o_locals.contains(n) => {
                            if st.image.contains(n) || image_blocks.contains(&n.to_string()) {
                                None
                            } else {
                                Some("%?".into())
                            }
                        }
                        Ref::Meta(_) => Some("!".into()),
                        Ref::Attr(_) => Some("#".into()),
                        _ => None,
                    });
                    ctx_o.entry(r.to_string()).or_default().push(shape);
                }
            }
        }
    }
    let score = |x: &[String], y: &[String]| {
        let mut y: Vec<&String> = y.iter().collect();
        let mut n = 0;
        for a in x {
            if let Some(p) = y.iter().position(|b| *b == a) {
                y.swap_remove(p);
                n += 1;
            }
        }
        n
    };
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
    let best = |scores: Vec<(usize, String)>| -> Option<String> {
        let max = scores.iter().map(|x| x.0).max()?;
        let mut top = scores.iter().filter(|x| x.0 == max);
        let first = top.next()?;
        (max > 0 && top.next().is_none()).then(|| first.1.clone())
    };
    let mut changed = false;
    for (a, ca) in &ctx_s {
        let cand: Vec<(usize, String)> = ctx_o
            .iter()
            .filter(|(b, _)| !st.image.contains(*b) && same_def(a, b))
            .map(|(b, cb)| (score(ca, cb), b.clone()))
            .collect();
        let Some(b) = best(cand) else { continue };
        let back: Vec<(usize, String)> = ctx_s
            .iter()
            .filter(|(x, _)| !st.m.values.contains_key(*x) && same_def(x, &b))
            .map(|(x, cx)| (score(cx, &ctx_o[&b]), x.clone()))
            .collect();
        if best(back).as_deref() == Some(a.as_str()) {
            changed |= st.add_value(a, &b);
        }
    }
    changed
}

fn mnemonic(name: &str) -> &str {
    name.split('.').next().unwrap_or(name)
}

struct State<'a> {
    o: &'a FuncText,
    s: &'a FuncText,
    o_locals: HashSet<String>,
    s_locals: HashSet<String>,
    m: Matching,
    image: HashSet<String>,
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

    fn shape_o(&self, line: &str, block_image: &HashSet<String>) -> String {
        rewrite_with(line, |r, out| match r {
            Ref::Local(n) if self.o_locals.contains(n) => {
                if self.image.contains(n) || block_image.contains(n) {
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
fn blank_numbering(r: Ref<'_>, out: &mut String) -> bool {
    match r {
        Ref::Meta(_) => out.push('!'),
        Ref::Attr(_) => out.push('#'),
        _ => return false,
    }
    true
}

fn similar(a: &str, b: &str) -> bool {
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
    same_layout(o, s).unwrap_or_else(|| match_full(o, s))
}

/// [`match_function`] without the fast path.
fn match_full(o: &FuncText, s: &FuncText) -> Matching {
    let mut st = State {
        o,
        s,
        o_locals: o.locals(),
        s_locals: s.locals(),
        m: Matching::default(),
        image: HashSet::default(),
    };
    let o_labels: HashSet<&str> = o.blocks.iter().map(|b| b.label.as_str()).collect();
    let s_labels: HashSet<&str> = s.blocks.iter().map(|b| b.label.as_str()).collect();
    let o_idx: HashMap<&str, usize> = o
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label.as_str(), i))
        .collect();
    let s_idx: HashMap<&str, usize> = s
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label.as_str(), i))
        .collect();

    // Blocks: unify the CFGs from the entry.
    let mut block_image: HashSet<String> = HashSet::default();
    let mut queue = VecDeque::new();
    if !o.blocks.is_empty() && !s.blocks.is_empty() {
        st.m.blocks
            .insert(s.blocks[0].label.clone(), o.blocks[0].label.clone());
        block_image.insert(o.blocks[0].label.clone());
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
        let pairs: Vec<(&String, &String)> = ss
            .iter()
            .filter_map(|(k, a)| os.iter().find(|(k2, _)| k2 == k).map(|(_, b)| (a, b)))
            .collect();
        for (a, b) in pairs {
            if st.m.blocks.contains_key(a) || block_image.contains(b) {
                continue;
            }
            st.m.blocks.insert(a.clone(), b.clone());
            block_image.insert(b.clone());
            queue.push_back((s_idx[a.as_str()], o_idx[b.as_str()]));
        }
    }

    // Values: arguments and equal canonical names.
    let o_defs: HashSet<&str> = o
        .blocks
        .iter()
        .flat_map(|b| b.lines.iter().filter_map(|l| def_name(l)))
        .collect();
    for n in st.s_locals.clone() {
        if n.starts_with("arg") && st.o_locals.contains(&n) {
            st.add_value(&n, &n);
        }
    }
    // An equal name is only an anchor when the lines agree apart from the
    // local names they use (names are local hashes and can coincide).
    let blank = |line: &str, locals: &HashSet<String>| {
        rewrite(line, |r| match r {
            Ref::Local(n) if locals.contains(n) => Some("%?".into()),
            Ref::Meta(_) => Some("!".into()),
            Ref::Attr(_) => Some("#".into()),
            _ => None,
        })
    };
    let o_text: HashMap<&str, &str> = o
        .blocks
        .iter()
        .flat_map(|b| {
            b.lines
                .iter()
                .filter_map(|l| def_name(l).map(|d| (d, l.as_str())))
        })
        .collect();
    // `%var.8263` and `%var.8263.1` are equal up to a bounded neighbourhood:
    // their suffixes follow canonical order, so they are no identity.
    let ambiguous = |f: &FuncText| -> HashSet<String> {
        let mut groups: HashMap<String, Vec<String>> = HashMap::default();
        for b in &f.blocks {
            for l in &b.lines {
                if let Some(d) = def_name(l) {
                    groups
                        .entry(stem(d).to_string())
                        .or_default()
                        .push(d.to_string());
                }
            }
        }
        groups
            .into_values()
            .filter(|v| v.len() > 1)
            .flatten()
            .collect()
    };
    let (amb_o, amb_s) = (ambiguous(o), ambiguous(s));
    for b in &s.blocks {
        for l in &b.lines {
            if let Some(d) = def_name(l) {
                if amb_s.contains(d) || amb_o.contains(d) {
                    continue;
                }
                if o_defs.contains(d)
                    && (l == o_text[d] || blank(l, &st.s_locals) == blank(o_text[d], &st.o_locals))
                {
                    st.add_value(d, d);
                }
            }
        }
    }

    let o_line_of: HashMap<&str, &str> = o
        .blocks
        .iter()
        .flat_map(|b| {
            b.lines
                .iter()
                .filter_map(|l| def_name(l).map(|d| (d, l.as_str())))
        })
        .collect();
    let s_line_of: HashMap<&str, &str> = s
        .blocks
        .iter()
        .flat_map(|b| {
            b.lines
                .iter()
                .filter_map(|l| def_name(l).map(|d| (d, l.as_str())))
        })
        .collect();

    // Block pairs whose lines are all equal have nothing more to teach;
    // matched pairs are extended along def-use once.
    let mut settled: HashSet<(usize, usize)> = HashSet::default();
    let mut extended: HashSet<String> = HashSet::default();
    for _round in 0..12 {
        let mut changed = false;
        let pairs: Vec<(usize, usize)> = sorted(&st.m.blocks)
            .into_iter()
            .map(|(a, b)| (s_idx[a.as_str()], o_idx[b.as_str()]))
            .filter(|p| !settled.contains(p))
            .collect();
        for (si, oi) in pairs {
            let sl = &s.blocks[si].lines;
            let ol = &o.blocks[oi].lines;
            let sk: Vec<String> = sl.iter().map(|l| st.shape_s(l)).collect();
            let ok: Vec<String> = ol.iter().map(|l| st.shape_o(l, &block_image)).collect();
            if sk == ok {
                settled.insert((si, oi));
                for (a, b) in sl.iter().zip(ol) {
                    if let (Some(a), Some(b)) = (def_name(a), def_name(b)) {
                        if !amb_s.contains(a) && !amb_o.contains(b) {
                            changed |= st.add_value(a, b);
                        }
                    }
                }
                continue;
            }
            let common = diff::common(&ok, &sk);
            let mut gaps = Vec::new();
            let (mut po, mut ps) = (0, 0);
            for &(i, j) in common.iter().chain(std::iter::once(&(ol.len(), sl.len()))) {
                if i > po && j > ps {
                    gaps.push((po, i, ps, j));
                }
                if i < ol.len() {
                    if let (Some(a), Some(b)) = (def_name(&sl[j]), def_name(&ol[i])) {
                        if !amb_s.contains(a) && !amb_o.contains(b) {
                            changed |= st.add_value(a, b);
                        }
                    }
                }
                po = i + 1;
                ps = j + 1;
            }
            for (o0, o1, s0, s1) in gaps {
                let mut next_o = o0;
                for j in s0..s1 {
                    let Some(a) = def_name(&sl[j]) else { continue };
                    if st.m.values.contains_key(a) || amb_s.contains(a) {
                        continue;
                    }
                    for i in next_o..o1 {
                        let Some(b) = def_name(&ol[i]) else { continue };
                        if st.image.contains(b) || mnemonic(a) != mnemonic(b) {
                            continue;
                        }
                        if similar(&sk[j], &ok[i]) {
                            changed |= st.add_value(a, b);
                            next_o = i + 1;
                            break;
                        }
                    }
                }
            }
        }
        // Def-use extension: operands at equal positions of matched pairs.
        let matched: Vec<(String, String)> = sorted(&st.m.values)
            .into_iter()
            .filter(|(a, _)| !extended.contains(*a))
            .map(|(a, b)| (a.clone(), b.clone()))
            .collect();
        extended.extend(matched.iter().map(|(a, _)| a.clone()));
        for (a, b) in matched {
            let (Some(la), Some(lb)) = (s_line_of.get(a.as_str()), o_line_of.get(b.as_str()))
            else {
                continue;
            };
            if opcode(la) != opcode(lb) {
                continue;
            }
            let ra = local_refs_str(la);
            let rb = local_refs_str(lb);
            if ra.len() != rb.len() {
                continue;
            }
            for (&x, &y) in ra.iter().zip(&rb) {
                if let (Some(lx), Some(ly)) = (s_line_of.get(x), o_line_of.get(y)) {
                    if x != a.as_str()
                        && !st.m.values.contains_key(x)
                        && !st.image.contains(y)
                        && mnemonic(x) == mnemonic(y)
                        && opcode(lx) == opcode(ly)
                    {
                        changed |= st.add_value(x, y);
                    }
                }
            }
        }
        if !changed {
            changed |= match_by_users(&mut st, &amb_s, &amb_o, &s_line_of, &o_line_of);
        }
        if !changed {
            // Leftover blocks: pair by the number of equal lines (quadratic,
            // so only for a bounded number of unmatched blocks; the rest
            // stay added/removed, which can only cost conflicts).
            let free_s = s.blocks.len() - st.m.blocks.len();
            let free_o = o.blocks.len() - block_image.len();
            if free_s * free_o > 4096 {
                break;
            }
            let mut best: Option<(usize, usize, usize)> = None;
            for (si, sb) in s.blocks.iter().enumerate() {
                if st.m.blocks.contains_key(&sb.label) {
                    continue;
                }
                let sk: Vec<String> = sb.lines.iter().map(|l| st.shape_s(l)).collect();
                for (oi, ob) in o.blocks.iter().enumerate() {
                    if block_image.contains(&ob.label) {
                        continue;
                    }
                    let ok: Vec<String> = ob
                        .lines
                        .iter()
                        .map(|l| st.shape_o(l, &block_image))
                        .collect();
                    let c = diff::common(&ok, &sk).len();
                    if c * 2 > sk.len().max(ok.len()) && best.is_none_or(|b| c > b.2) {
                        best = Some((si, oi, c));
                    }
                }
            }
            match best {
                Some((si, oi, _)) => {
                    st.m.blocks
                        .insert(s.blocks[si].label.clone(), o.blocks[oi].label.clone());
                    block_image.insert(o.blocks[oi].label.clone());
                }
                None => break,
            }
        }
    }
    let _ = (st.o, st.s);
    st.m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::model;

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
