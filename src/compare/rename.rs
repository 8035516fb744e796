//! Renamed functions: a side that renames `@f` to `@g` shows, by name, as
//! "removed `@f`, added `@g`". If the other side edited `@f`, a merge by
//! name conflicts (removed vs modified) or, worse, keeps both functions.
//!
//! A function removed on a side and a function added on that side are a
//! rename when they are structurally (nearly) equal, comparing as
//! MergeFunctions' FunctionComparator does everything but the function's own
//! name: the signature and attributes must be equal, and most of the
//! canonical body lines (with `@f`/`@g` read as `@SELF`) must be shared.
//!
//! ```text
//! base:   define i32 @f(i32 %arg0) { %add = add i32 %arg0, 1 ... }
//!         %r = call i32 @f(i32 1)
//! ours:   define i32 @g(i32 %arg0) { %add = add i32 %arg0, 1 ... }    (renamed)
//!         %r = call i32 @g(i32 1)
//! theirs: define i32 @f(i32 %arg0) { %add = add i32 %arg0, 7 ... }    (edited)
//!         %s = call i32 @f(i32 2)                                      (new caller)
//! merged: define i32 @g(i32 %arg0) { %add = add i32 %arg0, 7 ... }
//!         %r = call i32 @g(i32 1) / %s = call i32 @g(i32 2)
//! ```
//!
//! The merge undoes each detected rename on its side (`@g` is written `@f`
//! again everywhere in that side), merges over the base's names, then
//! applies the rename to the whole merged module, so the other side's new
//! calls of `@f` follow the rename too. Two different renames of one
//! function, or a rename onto a name the other side also introduced, are
//! conflicts.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::model::{FuncText, ModuleText};

/// Least similarity (shared canonical lines over the mean body size) for a
/// removed and an added function to count as one renamed function.
const MIN_SIMILARITY: f64 = 0.75;

/// Larger sets of removed × added functions are not searched (no renames).
const MAX_PAIRS: usize = 4096;

/// The renames of one merge.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Ours: new name -> base name (undone before the merge).
    pub undo_ours: BTreeMap<String, String>,
    /// Theirs: new name -> base name (undone before the merge).
    pub undo_theirs: BTreeMap<String, String>,
    /// Base name -> merged name (applied after the merge).
    pub redo: BTreeMap<String, String>,
    /// Base function renamed differently: (base name, ours' name, theirs' name).
    pub conflicts: Vec<(String, String, String)>,
}

fn is_simple_name(name: &str) -> bool {
    name.len() > 1
        && name.starts_with('@')
        && name[1..]
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'$' | b'.' | b'_' | b'-'))
}

fn is_id(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'$' | b'.' | b'_' | b'-')
}

/// Replaces every global reference `@name` (whole token, outside quoted
/// strings) found in `map` by its image.
pub(crate) fn replace_globals(text: &str, map: &BTreeMap<String, String>) -> String {
    if map.is_empty() {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 64);
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Quoted text (`c"..."`, `!"..."`, `@"..."`): never rewritten.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
                i += 1;
            }
            b'@' => {
                let mut j = i + 1;
                while j < bytes.len() && is_id(bytes[j]) {
                    j += 1;
                }
                if let Some(to) = map.get(&text[i..j]) {
                    out.push_str(&text[copied..i]);
                    out.push_str(to);
                    copied = j;
                }
                i = j.max(i + 1);
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[copied.min(text.len())..]);
    out
}

/// A function's comparable form: its header without its name, and its
/// lines with its own name read as `@SELF`, attribute and metadata
/// numbers blanked (they are positions, not content).
fn shape(f: &FuncText) -> (String, HashMap<String, usize>, usize) {
    let mut self_map = BTreeMap::new();
    self_map.insert(f.name.clone(), "@SELF".to_string());
    let norm = |l: &str| {
        let l = replace_globals(l, &self_map);
        crate::text::rewrite(&l, |r| match r {
            crate::text::Ref::Meta(_) => Some("!".into()),
            crate::text::Ref::Attr(_) => Some("#".into()),
            _ => None,
        })
    };
    let mut lines: HashMap<String, usize> = HashMap::new();
    let mut n = 0;
    for b in &f.blocks {
        *lines.entry(format!("{}:", b.label)).or_default() += 1;
        n += 1;
        for l in &b.lines {
            *lines.entry(norm(l)).or_default() += 1;
            n += 1;
        }
    }
    (norm(&f.header), lines, n)
}

/// Similarity of two shapes in `[0, 1]`: 0 unless the headers agree.
fn similarity(
    x: &(String, HashMap<String, usize>, usize),
    y: &(String, HashMap<String, usize>, usize),
) -> f64 {
    if x.0 != y.0 {
        return 0.0;
    }
    let (small, large) = if x.1.len() <= y.1.len() {
        (x, y)
    } else {
        (y, x)
    };
    let common: usize = small
        .1
        .iter()
        .map(|(l, &c)| c.min(large.1.get(l).copied().unwrap_or(0)))
        .sum();
    2.0 * common as f64 / (x.2 + y.2).max(1) as f64
}

/// The renames of side `s` against base `o`: (base name, side name) for
/// each removed function whose best structurally similar added function
/// prefers it too, uniquely.
pub fn detect(o: &ModuleText, s: &ModuleText) -> Vec<(String, String)> {
    let in_s: HashSet<&str> = s.funcs.iter().map(|f| f.name.as_str()).collect();
    let in_o: HashSet<&str> = o.funcs.iter().map(|f| f.name.as_str()).collect();
    let declared = |m: &ModuleText, n: &str| m.entities.iter().any(|(k, _)| k == n);
    let removed: Vec<&FuncText> = o
        .funcs
        .iter()
        .filter(|f| !in_s.contains(f.name.as_str()) && !declared(s, &f.name))
        .filter(|f| is_simple_name(&f.name))
        .collect();
    let added: Vec<&FuncText> = s
        .funcs
        .iter()
        .filter(|f| !in_o.contains(f.name.as_str()) && !declared(o, &f.name))
        .filter(|f| is_simple_name(&f.name))
        .collect();
    if removed.is_empty() || added.is_empty() || removed.len() * added.len() > MAX_PAIRS {
        return Vec::new();
    }
    let rs: Vec<_> = removed.iter().map(|f| shape(f)).collect();
    let ad: Vec<_> = added.iter().map(|f| shape(f)).collect();
    let score: Vec<Vec<f64>> = rs
        .iter()
        .map(|r| ad.iter().map(|a| similarity(r, a)).collect())
        .collect();
    // The unique best above the threshold, or None.
    let unique_best = |v: &mut dyn Iterator<Item = (usize, f64)>| -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        let mut tie = false;
        for (k, x) in v {
            match best {
                Some((_, b)) if x < b => {}
                Some((_, b)) if x == b => tie = true,
                _ => {
                    best = Some((k, x));
                    tie = false;
                }
            }
        }
        best.filter(|&(_, x)| !tie && x >= MIN_SIMILARITY)
            .map(|b| b.0)
    };
    let mut out = Vec::new();
    for (i, f) in removed.iter().enumerate() {
        let Some(j) = unique_best(&mut score[i].iter().copied().enumerate()) else {
            continue;
        };
        let back = unique_best(&mut (0..removed.len()).map(|k| (k, score[k][j])));
        if back == Some(i) {
            out.push((f.name.clone(), added[j].name.clone()));
        }
    }
    out
}

/// Whether `name` names a function or another module-level entity of `m`.
fn defines(m: &ModuleText, name: &str) -> bool {
    m.funcs.iter().any(|f| f.name == name) || m.entities.iter().any(|(k, _)| k == name)
}

/// Plans the renames of a merge from both sides' detected renames.
pub(crate) fn plan(o: &ModuleText, a: &ModuleText, b: &ModuleText) -> Plan {
    let ra: BTreeMap<String, String> = detect(o, a).into_iter().collect();
    let rb: BTreeMap<String, String> = detect(o, b).into_iter().collect();
    let mut p = Plan::default();
    let olds: HashSet<&String> = ra.keys().chain(rb.keys()).collect();
    for old in olds {
        match (ra.get(old), rb.get(old)) {
            (Some(x), Some(y)) if x == y => {
                p.undo_ours.insert(x.clone(), old.clone());
                p.undo_theirs.insert(y.clone(), old.clone());
                p.redo.insert(old.clone(), x.clone());
            }
            (Some(x), Some(y)) => p.conflicts.push((old.clone(), x.clone(), y.clone())),
            (Some(x), None) => {
                // The other side bringing in its own `@x` would collide.
                if !defines(b, x) {
                    p.undo_ours.insert(x.clone(), old.clone());
                    p.redo.insert(old.clone(), x.clone());
                }
            }
            (None, Some(y)) => {
                if !defines(a, y) {
                    p.undo_theirs.insert(y.clone(), old.clone());
                    p.redo.insert(old.clone(), y.clone());
                }
            }
            (None, None) => {}
        }
    }
    p.conflicts.sort();
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_globals_rewrites_whole_tokens_outside_strings() {
        let mut m = BTreeMap::new();
        m.insert("@f".to_string(), "@g".to_string());
        assert_eq!(
            replace_globals("call i32 @f(i32 1), @f.x, @ff, c\"@f\", @f", &m),
            "call i32 @g(i32 1), @f.x, @ff, c\"@f\", @g"
        );
    }
}
