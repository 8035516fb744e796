//! Moved code, found as LLVM's IRSimilarity finds similar regions:
//! every instruction becomes a structural hash (opcode, types, flags; the
//! values it reads blanked out), the program becomes a string of those
//! hashes, and a suffix array finds the repeated substrings. A substring
//! that the new version *added* to function `@g` and that the old version
//! had in another function `@f` is code that moved (or was copied, e.g.
//! inlined) from `@f` to `@g`, once the two occurrences also agree on how
//! their instructions use each other (a one-to-one mapping of operands).
//!
//! ```text
//! old @helper:  %a = mul i32 %arg0, %arg0     new @main (added lines):  %a.1 = mul i32 %x, %x
//!               %b = add i32 %a, 7                                      %b.1 = add i32 %a.1, 7
//!               %c = xor i32 %b, %arg0                                  %c.1 = xor i32 %b.1, %x
//!               ...                                                     ...
//! hashes:       [mul i32 %, %] [add i32 %, 0] [xor i32 %, %] ...      same string
//! report:       "5 instructions copied from @helper to @main" (moved, if @helper lost them)
//! ```
//!
//! Regions never cross blocks (as IRSimilarity's), and terminators and PHIs
//! end them. A copy (the source kept its code) is reported only when it
//! holds at least half of the source's instructions and computes something
//! ([`convincing_copies`]): functions that merely share an idiom (argument
//! spills, an array walk, a null check) are not copies of each other. Old instructions whose hash does not occur among the new
//! added ones cannot be part of a match and are left out before the suffix
//! array is built, so the search costs little when few lines changed.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::side::{instruction_body, FuncKeys};

use crate::text::opcode;

use crate::compare::model::local_refs_str;
use crate::text::def_name;

use crate::hash::StableHasher;

/// A run of instructions inside one block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Region {
    pub func: usize,
    pub block: usize,
    pub start: usize,
    pub len: usize,
}

/// One occurrence of moved code.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub old: Region,
    pub new: Region,
    /// The old instructions are gone from the old function (moved), rather
    /// than still there (copied: inlining, duplication).
    pub moved: bool,
}

/// What to search.
pub(crate) struct Search<'a> {
    /// Old functions code may come from.
    pub old: Vec<&'a FuncKeys>,
    /// New functions (indices of `added` and `counterpart` point here).
    pub new: &'a [FuncKeys],
    /// New instructions that were added: (function, block, index).
    pub added: Vec<(usize, usize, usize)>,
    /// Old instructions that were removed: (function, block, index).
    pub removed: HashSet<(usize, usize, usize)>,
    /// New function -> the old function (in `old`) it is (same name or renamed): code
    /// that stays inside one function is not reported as moved.
    pub counterpart: HashMap<usize, usize>,
    /// Shortest sequence reported.
    pub min_len: usize,
}

/// Candidates looked at per position (nearest in suffix order first).
const MAX_CANDIDATES: usize = 64;

/// The structural hash of an instruction key: the defined name dropped,
/// every `%value` and every numeric literal blanked, the rest (opcode,
/// types, flags, predicates, callee names, metadata keys) kept.
pub(crate) fn shape_hash(key: &str) -> u64 {
    let b = instruction_body(key).as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    let is_id = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'$' | b'.' | b'_' | b'-');
    let mut quoted = false;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            quoted = !quoted;
        }
        if quoted {
            out.push(c);
            i += 1;
            continue;
        }
        let at_token_start = i == 0 || matches!(b[i - 1], b' ' | b'(' | b'[' | b'<' | b'{' | b',');
        if c == b'%' {
            out.push(b'%');
            i += 1;
            while i < b.len() && is_id(b[i]) {
                i += 1;
            }
            continue;
        }
        if at_token_start
            && (c.is_ascii_digit()
                || (c == b'-' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())))
        {
            out.push(b'0');
            i += 1;
            while i < b.len() && (is_id(b[i]) || b[i] == b'+') {
                i += 1;
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    StableHasher::new()
        .str(&String::from_utf8_lossy(&out))
        .finish()
}

/// Terminators and PHIs end a region.
fn is_separator(key: &str) -> bool {
    matches!(
        opcode(key),
        "br" | "switch"
            | "ret"
            | "unreachable"
            | "indirectbr"
            | "resume"
            | "invoke"
            | "callbr"
            | "phi"
            | "catchswitch"
            | "catchret"
            | "cleanupret"
    )
}

/// Where a symbol of the search string came from.
#[derive(Clone, Copy)]
enum Origin {
    Separator,
    Old(usize, usize, usize),
    New(usize, usize, usize),
}

/// Whether any run of added instructions is long enough to search for.
pub(crate) fn has_runs(s: &Search<'_>) -> bool {
    let mut added = s.added.clone();
    added.sort_unstable();
    let mut run = 0;
    let mut prev: Option<(usize, usize, usize)> = None;
    for &(f, b, i) in &added {
        if is_separator(&s.new[f].blocks[b].insts[i]) {
            prev = None;
            run = 0;
            continue;
        }
        run = if prev == Some((f, b, i.wrapping_sub(1))) {
            run + 1
        } else {
            1
        };
        if run >= s.min_len {
            return true;
        }
        prev = Some((f, b, i));
    }
    false
}

/// Finds moved and copied code.
pub(crate) fn find(s: &Search<'_>) -> Vec<Found> {
    if s.added.is_empty() || s.min_len == 0 {
        return Vec::new();
    }
    let mut corpus = Corpus::default();
    let runs = corpus.push_added_runs(s);
    if runs.is_empty() {
        return Vec::new();
    }
    let new_len = corpus.text.len();
    corpus.push_old_segments(s);
    if corpus.text.len() == new_len {
        return Vec::new();
    }
    let index = SuffixIndex::new(&corpus.text);
    let mut locals: HashMap<(bool, usize), HashSet<String>> = HashMap::default();
    let mut found = Vec::new();
    for &(start, end) in &runs {
        let mut p = start;
        while p + s.min_len <= end {
            let Origin::New(nf, nb, ni) = corpus.origin[p] else {
                p += 1;
                continue;
            };
            let Some((len, moved, (of, ob, oi))) =
                best_source(s, &corpus, &index, &mut locals, p, (nf, nb, ni))
            else {
                p += 1;
                continue;
            };
            let region = |func, block, start| Region {
                func,
                block,
                start,
                len,
            };
            found.push(Found {
                old: region(of, ob, oi),
                new: region(nf, nb, ni),
                moved,
            });
            p += len;
        }
    }
    found
}

/// The string the suffix array is built on: instruction shape ids, new
/// runs first, then old segments, each followed by its own separator.
#[derive(Default)]
struct Corpus {
    /// Shape hash -> id (only the shapes of added instructions get one).
    ids: HashMap<u64, u32>,
    text: Vec<u32>,
    origin: Vec<Origin>,
    /// Separators count down from `u32::MAX`, so no two are equal.
    separators: u32,
}

impl Corpus {
    fn separator(&mut self) {
        self.text.push(u32::MAX - self.separators);
        self.origin.push(Origin::Separator);
        self.separators += 1;
    }

    /// New runs: consecutive added instructions of one block, at least
    /// `min_len` long. Returns their `[start, end)` in `text`.
    fn push_added_runs(&mut self, s: &Search<'_>) -> Vec<(usize, usize)> {
        let mut added = s.added.clone();
        added.sort_unstable();
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut prev: Option<(usize, usize, usize)> = None;
        for &(f, b, i) in &added {
            let key = &s.new[f].blocks[b].insts[i];
            if is_separator(key) {
                prev = None;
                continue;
            }
            if prev != Some((f, b, i.wrapping_sub(1))) {
                if !runs.is_empty() {
                    self.separator();
                }
                runs.push((self.text.len(), self.text.len()));
            }
            let fresh = self.ids.len() as u32;
            let id = *self.ids.entry(shape_hash(key)).or_insert(fresh);
            self.text.push(id);
            self.origin.push(Origin::New(f, b, i));
            if let Some(r) = runs.last_mut() {
                r.1 = self.text.len();
            }
            prev = Some((f, b, i));
        }
        runs.retain(|r| r.1 - r.0 >= s.min_len);
        if !runs.is_empty() {
            self.separator();
        }
        runs
    }

    /// Old segments: runs of at least `min_len` instructions whose shape
    /// occurs among the added ones.
    fn push_old_segments(&mut self, s: &Search<'_>) {
        for (f, func) in s.old.iter().enumerate() {
            for (b, block) in func.blocks.iter().enumerate() {
                let mut seg: Vec<(u32, usize)> = Vec::new();
                for (i, key) in block.insts.iter().enumerate() {
                    let id = (!is_separator(key)).then(|| self.ids.get(&shape_hash(key)));
                    match id.flatten() {
                        Some(&id) => seg.push((id, i)),
                        None => self.flush_segment(&mut seg, (f, b), s.min_len),
                    }
                }
                self.flush_segment(&mut seg, (f, b), s.min_len);
            }
        }
    }

    fn flush_segment(
        &mut self,
        seg: &mut Vec<(u32, usize)>,
        (f, b): (usize, usize),
        min_len: usize,
    ) {
        if seg.len() >= min_len {
            for &(id, i) in seg.iter() {
                self.text.push(id);
                self.origin.push(Origin::Old(f, b, i));
            }
            self.separator();
        }
        seg.clear();
    }
}

/// A suffix array with its LCP array and ranks.
struct SuffixIndex {
    sa: Vec<u32>,
    lcp: Vec<u32>,
    rank: Vec<usize>,
}

impl SuffixIndex {
    fn new(text: &[u32]) -> Self {
        let sa = suffix_array(text);
        let lcp = lcp_array(text, &sa);
        let mut rank = vec![0usize; text.len()];
        for (r, &p) in sa.iter().enumerate() {
            rank[p as usize] = r;
        }
        SuffixIndex { sa, lcp, rank }
    }
}

/// The old code the added instructions at text position `p` (new
/// position `new`) were taken from: the longest verified occurrence in
/// another function, a moved one (its source lost it) before a copied one
/// of the same length. `(len, moved, old position)`.
fn best_source(
    s: &Search<'_>,
    corpus: &Corpus,
    index: &SuffixIndex,
    locals: &mut HashMap<(bool, usize), HashSet<String>>,
    p: usize,
    new: (usize, usize, usize),
) -> Option<(usize, bool, (usize, usize, usize))> {
    let mut best: Option<(usize, bool, (usize, usize, usize))> = None;
    for (q, len) in candidates(&index.sa, &index.lcp, index.rank[p], s.min_len) {
        let Origin::Old(of, ob, oi) = corpus.origin[q] else {
            continue;
        };
        if s.counterpart.get(&new.0) == Some(&of) {
            continue;
        }
        let ok = verified_len(s, locals, (of, ob, oi), new, len);
        if ok < s.min_len {
            continue;
        }
        let gone = (0..ok)
            .filter(|k| s.removed.contains(&(of, ob, oi + k)))
            .count();
        let moved = gone * 2 > ok;
        if best.is_none_or(|(l, m, _)| (ok, moved) > (l, m)) {
            best = Some((ok, moved, (of, ob, oi)));
        }
    }
    best
}

/// Opcodes every function has: memory traffic, address arithmetic, casts.
/// A region made of these only is an idiom (spilling the arguments, reading
/// `p[i]`), not evidence of a copy.
fn is_idiom_opcode(op: &str) -> bool {
    matches!(
        op,
        "alloca"
            | "load"
            | "store"
            | "getelementptr"
            | "sext"
            | "zext"
            | "trunc"
            | "bitcast"
            | "ptrtoint"
            | "inttoptr"
            | "addrspacecast"
    )
}

/// The copies (`moved == false`) that say something, with every move: per
/// pair of source and destination function, the copied regions must cover
/// at least half of the source's instructions (terminators and PHIs left
/// out; an inlined or pasted body is most of its function, a shared idiom
/// is a small part of each) and hold at least one instruction that is not
/// memory traffic, address arithmetic or a cast.
///
/// ```text
/// @op_sub: alloca, alloca, store, store, load, load, sub, ret
/// @op_add: alloca, alloca, store, store, load, load, add, ret   (new)
/// region [alloca .. load] covers 6 of 7, but computes nothing: no claim
/// ```
pub(crate) fn convincing_copies(found: Vec<Found>, s: &Search<'_>) -> Vec<Found> {
    let mut covered: HashMap<(usize, usize), HashSet<(usize, usize)>> = HashMap::default();
    for f in found.iter().filter(|f| !f.moved) {
        let set = covered.entry((f.old.func, f.new.func)).or_default();
        set.extend((f.old.start..f.old.start + f.old.len).map(|i| (f.old.block, i)));
    }
    let convincing: HashSet<(usize, usize)> = covered
        .into_iter()
        .filter(|((of, _), set)| {
            let source = s.old[*of];
            let line = |&(b, i): &(usize, usize)| source.blocks[b].insts[i].as_str();
            let body = source
                .blocks
                .iter()
                .flat_map(|b| &b.insts)
                .filter(|l| !is_separator(l))
                .count();
            set.len() * 2 >= body && set.iter().any(|at| !is_idiom_opcode(opcode(line(at))))
        })
        .map(|(pair, _)| pair)
        .collect();
    found
        .into_iter()
        .filter(|f| f.moved || convincing.contains(&(f.old.func, f.new.func)))
        .collect()
}

/// Suffixes that share at least `min` symbols with the suffix of rank `r`,
/// nearest first in both directions, with the shared length.
fn candidates(sa: &[u32], lcp: &[u32], r: usize, min: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut len = usize::MAX;
    for q in r + 1..sa.len() {
        len = len.min(lcp[q] as usize);
        if len < min || out.len() >= MAX_CANDIDATES {
            break;
        }
        out.push((sa[q] as usize, len));
    }
    let mut len = usize::MAX;
    for (below, q) in (0..r).rev().enumerate() {
        len = len.min(lcp[q + 1] as usize);
        if len < min || below >= MAX_CANDIDATES {
            break;
        }
        out.push((sa[q] as usize, len));
    }
    out
}

/// The operands a line reads (the defined name excluded).
fn operands(line: &str) -> Vec<&str> {
    local_refs_str(instruction_body(line))
}

/// How much of a candidate pair of regions (starting at `o` and `n`, `len`
/// long) agrees structurally: a value defined inside the region must be read
/// at the same places in both, values from outside must map one to one, and
/// names that are not locals (types) must be equal.
fn verified_len(
    s: &Search<'_>,
    cache: &mut HashMap<(bool, usize), HashSet<String>>,
    o: (usize, usize, usize),
    n: (usize, usize, usize),
    len: usize,
) -> usize {
    let of = &s.old[o.0];
    let nf = &s.new[n.0];
    // Each function's locals, computed once (`cache`), then borrowed.
    cache.entry((false, o.0)).or_insert_with(|| of.locals());
    cache.entry((true, n.0)).or_insert_with(|| nf.locals());
    let (ol, nl) = (&cache[&(false, o.0)], &cache[&(true, n.0)]);
    let mut def_o: HashMap<&str, usize> = HashMap::default();
    let mut def_n: HashMap<&str, usize> = HashMap::default();
    let mut ext: HashMap<&str, &str> = HashMap::default();
    let mut ext_back: HashMap<&str, &str> = HashMap::default();
    for k in 0..len {
        let lo = &of.blocks[o.1].insts[o.2 + k];
        let ln = &nf.blocks[n.1].insts[n.2 + k];
        let (ro, rn) = (operands(lo), operands(ln));
        if ro.len() != rn.len() {
            return k;
        }
        for (&y, &x) in ro.iter().zip(&rn) {
            let (yl, xl) = (ol.contains(y), nl.contains(x));
            if yl != xl {
                return k;
            }
            if !xl {
                if x != y {
                    return k;
                }
                continue;
            }
            match (def_n.get(x), def_o.get(y)) {
                (Some(a), Some(b)) if a == b => {}
                (None, None) => {
                    let fwd = *ext.entry(x).or_insert(y);
                    let back = *ext_back.entry(y).or_insert(x);
                    if fwd != y || back != x {
                        return k;
                    }
                }
                _ => return k,
            }
        }
        match (def_name(lo), def_name(ln)) {
            (Some(a), Some(b)) => {
                def_o.insert(a, k);
                def_n.insert(b, k);
            }
            (None, None) => {}
            _ => return k,
        }
    }
    len
}

/// Suffix array by prefix doubling (ranks sorted as pairs).
fn suffix_array(s: &[u32]) -> Vec<u32> {
    let n = s.len();
    let mut sa: Vec<u32> = (0..n as u32).collect();
    let mut rank: Vec<u32> = s.to_vec();
    let mut next = vec![0u32; n];
    if n < 2 {
        return sa;
    }
    let mut k = 1;
    loop {
        {
            let key = |i: u32| {
                let i = i as usize;
                (rank[i], if i + k < n { rank[i + k] as u64 + 1 } else { 0 })
            };
            sa.sort_unstable_by_key(|&i| key(i));
            next[sa[0] as usize] = 0;
            for j in 1..n {
                let step = (key(sa[j - 1]) != key(sa[j])) as u32;
                next[sa[j] as usize] = next[sa[j - 1] as usize] + step;
            }
        }
        std::mem::swap(&mut rank, &mut next);
        if rank[sa[n - 1] as usize] as usize == n - 1 {
            break;
        }
        k *= 2;
    }
    sa
}

/// Kasai's algorithm: `lcp[r]` = common prefix of suffixes of rank `r - 1` and `r`.
fn lcp_array(s: &[u32], sa: &[u32]) -> Vec<u32> {
    let n = s.len();
    let mut rank = vec![0usize; n];
    for (r, &p) in sa.iter().enumerate() {
        rank[p as usize] = r;
    }
    let mut lcp = vec![0u32; n];
    let mut h = 0usize;
    for i in 0..n {
        if rank[i] > 0 {
            let j = sa[rank[i] - 1] as usize;
            while i + h < n && j + h < n && s[i + h] == s[j + h] {
                h += 1;
            }
            lcp[rank[i]] = h as u32;
            h = h.saturating_sub(1);
        } else {
            h = 0;
        }
    }
    lcp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_array_sorts_suffixes() {
        let s = [2u32, 1, 2, 1, 3];
        let sa = suffix_array(&s);
        let mut want: Vec<u32> = (0..s.len() as u32).collect();
        want.sort_by(|&a, &b| s[a as usize..].cmp(&s[b as usize..]));
        assert_eq!(sa, want);
        let lcp = lcp_array(&s, &sa);
        // suffixes in order: [1,2,1,3] [1,3] [2,1,2,1,3] [2,1,3] [3]
        assert_eq!(lcp, vec![0, 1, 0, 2, 0]);
    }

    #[test]
    fn shapes_ignore_names_and_numbers_but_not_types() {
        assert_eq!(
            shape_hash("%a.1 = add nsw i32 %x, 7"),
            shape_hash("%b = add nsw i32 %arg0, -12")
        );
        assert_ne!(
            shape_hash("%a = add nsw i32 %x, 7"),
            shape_hash("%a = add nsw i64 %x, 7")
        );
        assert_ne!(
            shape_hash("%a = call i32 @f(i32 1)"),
            shape_hash("%a = call i32 @g(i32 1)")
        );
        assert_eq!(
            shape_hash("%c = fadd double %x, 1.000000e+00"),
            shape_hash("%c = fadd double %y, 2.500000e+00")
        );
    }
}
