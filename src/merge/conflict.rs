//! The conflict rules of the spec and the union of two non-conflicting
//! edit scripts on one block (or on any list of lines).
//!
//! Both sides are diffed against the base; base lines kept by both sides are
//! stable and split the block into chunks. In a chunk only one side changed
//! → take it; both made the same change → take it once. Otherwise each
//! side's maximal hunks are compared: overlapping hunks conflict (replace vs
//! delete inside, rule i), an insertion inside or at the edge of the other's
//! replaced interval conflicts (rule ii), two insertions at one cut conflict
//! (rule iii), and so do hunks that merely touch (`[0,1)` and `[1,2)`: two
//! replacements with no kept line between them, rule iii again) — unless
//! the order is forced by def-use: the later hunk in base order uses a value
//! the earlier one defines (ours edits `%x`, theirs inserts a use of `%x`
//! right after it), so only one order verifies; or one of the two hunks only
//! deletes or adds instructions without side effects or memory reads, whose
//! place only matters through def-use.
//!
//! ```text
//! base            ours              theirs            merged
//! %x = add %a, 1  %x = add %a, 2    %x = add %a, 1    %x = add %a, 2
//! store %x, @g    store %x, @g      store %x, @g      store %x, @g
//! %y = mul %x, 3  %y = mul %x, 3    %y = mul %x, 4    %y = mul %x, 4
//! ```

use rustc_hash::FxHashSet as HashSet;

use crate::compare::diff::{self, Hunk};
use crate::compare::model::{local_refs, KeyedLine};
use crate::text::def_name;

/// A stretch of merged output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Chunk<'a> {
    Clean(Vec<KeyedLine<'a>>),
    Conflict {
        ours: Vec<KeyedLine<'a>>,
        base: Vec<KeyedLine<'a>>,
        theirs: Vec<KeyedLine<'a>>,
    },
}

fn keys_eq(a: &[KeyedLine], b: &[KeyedLine]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.key == y.key)
}

fn matches(o: &[KeyedLine], s: &[KeyedLine]) -> Vec<Option<usize>> {
    let ok: Vec<&str> = o.iter().map(|l| &*l.key).collect();
    let sk: Vec<&str> = s.iter().map(|l| &*l.key).collect();
    let mut m = vec![None; o.len()];
    for (i, j) in diff::common(&ok, &sk) {
        m[i] = Some(j);
    }
    m
}

/// Whether two hunks of different sides conflict. Overlapping hunks do.
/// Touching hunks (no kept base line between them) do too (rule iii), unless
/// their order is forced: the base orders them (`[0,1)` before `[1,1)`
/// before `[1,2)`) and the later one uses a value the earlier one defines,
/// so no other order is valid.
fn hunks_conflict(x: &Hunk<KeyedLine>, y: &Hunk<KeyedLine>, o: &[KeyedLine]) -> bool {
    let lo = x.start.max(y.start);
    let hi = x.end.min(y.end);
    if lo < hi {
        return true;
    }
    if lo > hi {
        return false;
    }
    let (first, second) = match (x.start, x.end).cmp(&(y.start, y.end)) {
        std::cmp::Ordering::Less => (x, y),
        std::cmp::Ordering::Greater => (y, x),
        std::cmp::Ordering::Equal => return true,
    };
    if uses_defs_of(second, first, o) {
        return false;
    }
    // Order does not matter next to instructions without side effects or
    // memory reads (or a pure deletion): the base order is as good as any.
    let pure = |h: &Hunk<KeyedLine>| h.new.iter().all(|l| is_pure(&l.out));
    !((pure(first) || pure(second)) && !uses_defs_of(first, second, o))
}

/// `user`'s new lines use a value that `def`'s old or new lines define.
fn uses_defs_of(user: &Hunk<KeyedLine>, def: &Hunk<KeyedLine>, o: &[KeyedLine]) -> bool {
    let defs: HashSet<&str> = o[def.start..def.end]
        .iter()
        .chain(&def.new)
        .filter_map(|l| def_name(&l.out))
        .collect();
    user.new
        .iter()
        .any(|l| local_refs(&l.out).iter().any(|r| defs.contains(r.as_str())))
}

/// An instruction whose position only matters through def-use.
fn is_pure(line: &str) -> bool {
    let Some(rest) = line.split_once(" = ").map(|(_, r)| r) else {
        return false;
    };
    let op = rest.split_whitespace().next().unwrap_or("");
    matches!(
        op,
        "add"
            | "sub"
            | "mul"
            | "shl"
            | "lshr"
            | "ashr"
            | "and"
            | "or"
            | "xor"
            | "fadd"
            | "fsub"
            | "fmul"
            | "fneg"
            | "trunc"
            | "zext"
            | "sext"
            | "fptrunc"
            | "fpext"
            | "fptoui"
            | "fptosi"
            | "uitofp"
            | "sitofp"
            | "ptrtoint"
            | "inttoptr"
            | "bitcast"
            | "addrspacecast"
            | "icmp"
            | "fcmp"
            | "select"
            | "getelementptr"
            | "extractvalue"
            | "insertvalue"
            | "extractelement"
            | "insertelement"
            | "shufflevector"
            | "freeze"
    )
}

fn same_hunk(x: &Hunk<KeyedLine>, y: &Hunk<KeyedLine>) -> bool {
    x.start == y.start && x.end == y.end && keys_eq(&x.new, &y.new)
}

/// Three-way merge of line lists.
pub(crate) fn merge3<'a>(
    o: &[KeyedLine<'a>],
    a: &[KeyedLine<'a>],
    b: &[KeyedLine<'a>],
) -> Vec<Chunk<'a>> {
    // A side that kept the base: the other side (the loop below finds the
    // same, after two diffs).
    if keys_eq(o, a) {
        return chunk_of(b);
    }
    if keys_eq(o, b) || keys_eq(a, b) {
        return chunk_of(a);
    }
    let ma = matches(o, a);
    let mb = matches(o, b);
    let mut out: Vec<Chunk> = Vec::new();
    let push_clean = |out: &mut Vec<Chunk<'a>>, lines: Vec<KeyedLine<'a>>| {
        if lines.is_empty() {
            return;
        }
        if let Some(Chunk::Clean(v)) = out.last_mut() {
            v.extend(lines);
        } else {
            out.push(Chunk::Clean(lines));
        }
    };
    let (mut i, mut j, mut k) = (0, 0, 0);
    loop {
        let mut s = i;
        while s < o.len() && !(ma[s].is_some() && mb[s].is_some()) {
            s += 1;
        }
        let (ja, kb) = if s < o.len() {
            (ma[s].unwrap(), mb[s].unwrap())
        } else {
            (a.len(), b.len())
        };
        let (oc, ac, bc) = (&o[i..s], &a[j..ja], &b[k..kb]);
        if keys_eq(oc, ac) {
            push_clean(&mut out, bc.to_vec());
        } else if keys_eq(oc, bc) || keys_eq(ac, bc) {
            push_clean(&mut out, ac.to_vec());
        } else {
            let ha = diff::hunks(a, &ma, (i, s), (j, ja));
            let hb = diff::hunks(b, &mb, (i, s), (k, kb));
            let mut all: Vec<Hunk<KeyedLine<'a>>> = ha.clone();
            let mut clash = false;
            for y in &hb {
                if ha.iter().any(|x| same_hunk(x, y)) {
                    continue;
                }
                if ha.iter().any(|x| hunks_conflict(x, y, o)) {
                    clash = true;
                    break;
                }
                all.push(y.clone());
            }
            if clash {
                out.push(Chunk::Conflict {
                    ours: ac.to_vec(),
                    base: oc.to_vec(),
                    theirs: bc.to_vec(),
                });
            } else {
                all.sort_by_key(|h| (h.start, h.end));
                let mut lines = Vec::new();
                let mut pos = i;
                for h in all {
                    lines.extend_from_slice(&o[pos..h.start.max(pos)]);
                    lines.extend(h.new);
                    pos = pos.max(h.end);
                }
                lines.extend_from_slice(&o[pos..s]);
                push_clean(&mut out, lines);
            }
        }
        if s >= o.len() {
            break;
        }
        push_clean(&mut out, vec![o[s].clone()]);
        i = s + 1;
        j = ja + 1;
        k = kb + 1;
    }
    out
}

fn chunk_of<'a>(lines: &[KeyedLine<'a>]) -> Vec<Chunk<'a>> {
    if lines.is_empty() {
        Vec::new()
    } else {
        vec![Chunk::Clean(lines.to_vec())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l<'a>(v: &[&'a str]) -> Vec<KeyedLine<'a>> {
        v.iter().map(|s| KeyedLine::verbatim(s)).collect()
    }

    fn clean(c: &[Chunk]) -> Option<Vec<String>> {
        let mut v = Vec::new();
        for x in c {
            match x {
                Chunk::Clean(ls) => v.extend(ls.iter().map(|l| l.out.to_string())),
                Chunk::Conflict { .. } => return None,
            }
        }
        Some(v)
    }

    #[test]
    fn touching_replacements_conflict_but_separated_ones_merge() {
        let r = merge3(
            &l(&["x", "y", "r"]),
            &l(&["X", "y", "r"]),
            &l(&["x", "Y", "r"]),
        );
        assert!(clean(&r).is_none());
        let r = merge3(
            &l(&["x", "k", "y", "r"]),
            &l(&["X", "k", "y", "r"]),
            &l(&["x", "k", "Y", "r"]),
        );
        assert_eq!(clean(&r).unwrap(), ["X", "k", "Y", "r"]);
    }

    #[test]
    fn replace_vs_delete_inside_conflicts() {
        let r = merge3(
            &l(&["a", "b", "c", "r"]),
            &l(&["a", "B", "r"]),
            &l(&["a", "b", "r"]),
        );
        assert!(clean(&r).is_none());
    }

    #[test]
    fn insert_inside_replaced_interval_conflicts() {
        let r = merge3(
            &l(&["a", "b", "c", "r"]),
            &l(&["a", "X", "r"]),
            &l(&["a", "b", "n", "c", "r"]),
        );
        assert!(clean(&r).is_none());
    }

    #[test]
    fn two_insertions_at_one_cut_conflict_unless_equal() {
        let o = l(&["a", "r"]);
        assert!(clean(&merge3(&o, &l(&["a", "p", "r"]), &l(&["a", "q", "r"]))).is_none());
        assert_eq!(
            clean(&merge3(&o, &l(&["a", "p", "r"]), &l(&["a", "p", "r"]))).unwrap(),
            ["a", "p", "r"]
        );
    }

    #[test]
    fn disjoint_edits_union() {
        let r = merge3(
            &l(&["a", "b", "c", "d", "r"]),
            &l(&["a", "n", "b", "c", "d", "r"]),
            &l(&["a", "b", "c", "r"]),
        );
        assert_eq!(clean(&r).unwrap(), ["a", "n", "b", "c", "r"]);
    }
}
