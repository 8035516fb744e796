//! Theirs' change placed in ours' layout by identity (`docs/architecture.md`,
//! *Ours' text*; issue 15 item 6): when ours was reprinted (blocks and
//! functions reordered), a line merge of base, ours and theirs conflicts
//! everywhere, although theirs' change is small. Base and theirs, already
//! written in ours' names, share base's layout: their line diff is theirs'
//! change. Each changed stretch is placed in ours' text next to the line it
//! follows in base (or the one it precedes), found in ours by its text within
//! the same function, where that text is unique on both sides. Anything that
//! cannot be placed so gives no result; the merge checks a result like any
//! other candidate.
//!
//! ```text
//! base (ours' names):  define @f { bb1: %v1 = add %a, 1 ... }   define @g ...
//! theirs (ours' names):           bb1: %v1 = add %a, 7
//! ours:  define @g ...   define @f { bb9: ...  bb1: %v1 = add %a, 1 }
//! placed: ours with `%v1 = add %a, 1` replaced by `%v1 = add %a, 7` where ours has it
//! ```

use rustc_hash::FxHashMap as HashMap;

/// Each line with the function it is in (`""` outside functions).
fn scoped(text: &str) -> Vec<(&str, &str)> {
    let mut scope = "";
    text.lines()
        .map(|l| {
            if l.starts_with("define ") {
                scope = crate::text::function_name(l).unwrap_or(l);
            }
            let here = (scope, l);
            if l == "}" {
                scope = "";
            }
            here
        })
        .collect()
}

/// Where each (function, line) occurs.
fn positions<'t>(lines: &[(&'t str, &'t str)]) -> HashMap<(&'t str, &'t str), Vec<usize>> {
    let mut at: HashMap<(&str, &str), Vec<usize>> = HashMap::default();
    for (i, &l) in lines.iter().enumerate() {
        at.entry(l).or_default().push(i);
    }
    at
}

/// Ours' text with the change from `base` to `theirs` (both in ours' names
/// and in base's layout) placed by identity; `None` when a changed stretch
/// has no unique place in ours.
pub(crate) fn place(base: &str, ours: &str, theirs: &str) -> Option<String> {
    let (b, o, t) = (scoped(base), scoped(ours), scoped(theirs));
    let (in_base, in_ours) = (positions(&b), positions(&o));
    // The line of ours that is base's line `i`: same text, same function,
    // once in each.
    let ours_of = |i: usize| -> Option<usize> {
        match (
            in_base.get(&b[i])?.as_slice(),
            in_ours.get(&b[i])?.as_slice(),
        ) {
            ([_], [k]) => Some(*k),
            _ => None,
        }
    };
    let mut deleted = vec![false; o.len()];
    let mut after: HashMap<usize, Vec<&str>> = HashMap::default();
    let mut before: HashMap<usize, Vec<&str>> = HashMap::default();
    let mut kept = crate::merge::diff::common(&b, &t);
    kept.push((b.len(), t.len()));
    let (mut bi, mut ti) = (0, 0);
    for (bk, tk) in kept {
        if bk > bi || tk > ti {
            for i in bi..bk {
                deleted[ours_of(i)?] = true;
            }
            let inserted: Vec<&str> = t[ti..tk].iter().map(|(_, l)| *l).collect();
            if !inserted.is_empty() {
                let anchor_after = bi.checked_sub(1).and_then(ours_of);
                match anchor_after {
                    Some(k) => after.entry(k).or_default().extend(inserted),
                    None => {
                        let k = (bk < b.len()).then(|| ours_of(bk)).flatten()?;
                        before.entry(k).or_default().extend(inserted);
                    }
                }
            }
        }
        (bi, ti) = (bk + 1, tk + 1);
    }
    let mut out = String::with_capacity(ours.len() + 256);
    for (k, (_, line)) in o.iter().enumerate() {
        for l in before.get(&k).into_iter().flatten() {
            out.push_str(l);
            out.push('\n');
        }
        if !deleted[k] {
            out.push_str(line);
            out.push('\n');
        }
        for l in after.get(&k).into_iter().flatten() {
            out.push_str(l);
            out.push('\n');
        }
    }
    if !ours.ends_with('\n') {
        out.pop();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "define i32 @f(i32 %a) {\nbb1:\n  %v1 = add i32 %a, 1\n  br label %bb2\n\
                        bb2:\n  ret i32 %v1\n}\n\ndefine i32 @g(i32 %b) {\n  ret i32 %b\n}\n";

    #[test]
    fn a_change_lands_where_ours_has_the_line() {
        let theirs = BASE.replace("add i32 %a, 1", "add i32 %a, 7");
        // Ours: functions swapped, @f's blocks swapped.
        let ours = "define i32 @g(i32 %b) {\n  ret i32 %b\n}\n\ndefine i32 @f(i32 %a) {\n\
                    bb2:\n  ret i32 %v1\nbb1:\n  %v1 = add i32 %a, 1\n  br label %bb2\n}\n";
        let placed = place(BASE, ours, &theirs).unwrap();
        assert_eq!(placed, ours.replace("add i32 %a, 1", "add i32 %a, 7"));
    }

    #[test]
    fn an_insertion_follows_the_line_it_follows_in_base() {
        let theirs = BASE.replace(
            "  br label %bb2\n",
            "  %v2 = mul i32 %v1, 3\n  br label %bb2\n",
        );
        let ours = "define i32 @f(i32 %a) {\nbb2:\n  ret i32 %v1\nbb1:\n  %v1 = add i32 %a, 1\n  \
                    br label %bb2\n}\n\ndefine i32 @g(i32 %b) {\n  ret i32 %b\n}\n";
        let placed = place(BASE, ours, &theirs).unwrap();
        assert!(placed.contains("  %v1 = add i32 %a, 1\n  %v2 = mul i32 %v1, 3\n  br label %bb2\n"));
    }

    #[test]
    fn a_line_ours_has_twice_has_no_place() {
        let base = "define void @f() {\n  call void @h()\n  call void @h()\n  ret void\n}\n";
        let theirs = base.replacen("  call void @h()\n", "", 1);
        assert_eq!(place(base, base, &theirs), None);
    }
}
