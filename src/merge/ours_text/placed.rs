//! Theirs' change placed in ours' layout by identity (`docs/architecture.md`,
//! *Ours' text*; issue 15 item 6): when ours was reprinted (blocks and
//! functions reordered), a line merge of base, ours and theirs conflicts
//! everywhere, although theirs' change is small. Base and theirs, already
//! written in ours' names, share base's layout: their line diff is theirs'
//! change. Each changed stretch is placed in ours' text where the first line
//! it replaces is, else next to the line it follows in base (or the one it
//! precedes), found in ours by its text within the same function, where
//! that text is unique on both sides; when base is ours itself as LLVM
//! prints it ([`place_reprinted`]), also by what it defines (a line LLVM
//! prints in another syntax than ours wrote: `ptr` for `i8*`). Anything that
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

/// What a line defines, within its function: `@f` for a `define` or
/// `declare`, the block of a label, the name before ` = ` for a global,
/// type, instruction, attribute group or metadata node. LLVM may print such a line in
/// another syntax than ours wrote it (`ptr` for `i8*`, `captures(none)`
/// for `nocapture`): what it defines still finds it.
fn defined(line: &str) -> Option<&str> {
    let code = line.trim_start();
    if code.starts_with("define ") || code.starts_with("declare ") {
        return crate::text::function_name(code);
    }
    if let Some(label) = crate::text::label_of_line(code) {
        return Some(label);
    }
    if !(code.starts_with(['@', '%', '!']) || code.starts_with("attributes #")) {
        return None;
    }
    code.split_once(" = ").map(|(name, _)| name)
}

/// Where each (function, defined name) occurs.
fn definitions<'t>(lines: &[(&'t str, &'t str)]) -> HashMap<(&'t str, &'t str), Vec<usize>> {
    let mut at: HashMap<(&str, &str), Vec<usize>> = HashMap::default();
    for (i, &(scope, line)) in lines.iter().enumerate() {
        if let Some(name) = defined(line) {
            at.entry((scope, name)).or_default().push(i);
        }
    }
    at
}

/// The lines of base and ours, and where each line of base is in ours.
struct Places<'t> {
    base: Vec<(&'t str, &'t str)>,
    ours: Vec<(&'t str, &'t str)>,
    /// Base line → ours' line ([`Places::new`]).
    at: Vec<Option<usize>>,
}

impl<'t> Places<'t> {
    /// A line of base is in ours where the same text is, in the same
    /// function, once in each; else (`by_definition`) where the one line
    /// of ours is that defines what it defines (once in each). A line
    /// without such a place (a `; Function Attrs: nounwind` comment, a
    /// blank line) takes the equal line of ours next to its neighbour's
    /// place, run by run outward ([`next_to_neighbours`]).
    fn new(base: &'t str, ours: &'t str, by_definition: bool) -> Places<'t> {
        let (base, ours) = (scoped(base), scoped(ours));
        let (in_base, in_ours) = (positions(&base), positions(&ours));
        let (defined_in_base, defined_in_ours) = if by_definition {
            (definitions(&base), definitions(&ours))
        } else {
            Default::default()
        };
        let once = |in_base: Option<&Vec<usize>>, in_ours: Option<&Vec<usize>>| match (
            in_base?.as_slice(),
            in_ours?.as_slice(),
        ) {
            ([_], [k]) => Some(*k),
            _ => None,
        };
        let mut at: Vec<Option<usize>> = base
            .iter()
            .map(|line| {
                once(in_base.get(line), in_ours.get(line)).or_else(|| {
                    let key = (line.0, defined(line.1)?);
                    once(defined_in_base.get(&key), defined_in_ours.get(&key))
                })
            })
            .collect();
        next_to_neighbours(&base, &ours, &mut at);
        Places { base, ours, at }
    }

    /// The line of ours that is base's line `i`.
    fn ours_of(&self, i: usize) -> Option<usize> {
        self.at[i]
    }

    /// Marks base lines `lines` deleted in ours; `None` when one has no
    /// place there. A blank line without a place of its own takes a blank
    /// line of ours next to a deleted neighbour's place with it, or stays.
    fn delete(&self, lines: std::ops::Range<usize>, deleted: &mut [bool]) -> Option<()> {
        let mut blanks = Vec::new();
        for i in lines.clone() {
            match self.ours_of(i) {
                Some(k) => deleted[k] = true,
                None if self.base[i].1.trim().is_empty() => blanks.push(i),
                None => return None,
            }
        }
        for i in blanks {
            let blank = |k: usize| self.ours.get(k).is_some_and(|l| l.1.trim().is_empty());
            let previous = (i > lines.start).then(|| self.ours_of(i - 1)).flatten();
            let following = (i + 1 < lines.end).then(|| self.ours_of(i + 1)).flatten();
            // Next to a neighbour's place: after the previous line's, before the
            // following line's, then on their other sides.
            let around = [
                previous.map(|k| k + 1),
                following.and_then(|k| k.checked_sub(1)),
                previous.and_then(|k| k.checked_sub(1)),
                following.map(|k| k + 1),
            ];
            if let Some(k) = around
                .into_iter()
                .flatten()
                .find(|&k| blank(k) && !deleted[k])
            {
                deleted[k] = true;
            }
        }
        Some(())
    }
}

/// Gives each line of base without a place in ours (`at`) the equal line
/// of ours right after its predecessor's place (a blank line) or right
/// before its successor's (any line, then after the predecessor's), when
/// no other line of base has it.
fn next_to_neighbours(base: &[(&str, &str)], ours: &[(&str, &str)], at: &mut [Option<usize>]) {
    let mut taken = vec![false; ours.len()];
    for k in at.iter().flatten() {
        taken[*k] = true;
    }
    let mut take = |i: usize, k: Option<usize>, at: &mut [Option<usize>]| {
        if let Some(k) = k.filter(|&k| k < ours.len() && !taken[k] && ours[k] == base[i]) {
            taken[k] = true;
            at[i] = Some(k);
        }
    };
    // A blank line belongs with the line above it, a comment with the
    // line below it: blank lines forward first, then all lines backward.
    for i in 1..base.len() {
        if at[i].is_none() && base[i].1.trim().is_empty() {
            take(i, at[i - 1].map(|k| k + 1), at);
        }
    }
    for i in (0..base.len().saturating_sub(1)).rev() {
        if at[i].is_none() {
            take(i, at[i + 1].and_then(|k| k.checked_sub(1)), at);
        }
    }
    for i in 1..base.len() {
        if at[i].is_none() {
            take(i, at[i - 1].map(|k| k + 1), at);
        }
    }
}

/// Ours' text with the change from `base` to `theirs` (both in ours' names
/// and in base's layout) placed by identity; `None` when a changed stretch
/// has no unique place in ours.
pub(crate) fn place(base: &str, ours: &str, theirs: &str) -> Option<String> {
    place_in(Places::new(base, ours, false), ours, theirs)
}

/// [`place`] where `reprinted` is ours itself as LLVM prints it (in ours'
/// names): a line is also found by what it defines, since ours may write it
/// in another syntax. (Where base is the real base, a line ours changed
/// defines what base's line defines, and must not be taken for it.)
pub(crate) fn place_reprinted(reprinted: &str, ours: &str, theirs: &str) -> Option<String> {
    place_in(Places::new(reprinted, ours, true), ours, theirs)
}

/// Where a run of `lines` removed from `base` is best read: a diff may
/// take `define @f ... }`, blank, `; Function Attrs:` for the text of
/// `; Function Attrs:`, `define @f ... }`, blank (or blank, `declare @g`
/// for `declare @g`, blank); in ours' layout only the second removes `@f`
/// (`@g`) alone. The run slides over equal lines, up then down, to the
/// nearest place where it ends with a blank line (staying put when none
/// does).
fn slid_to_blank(base: &[(&str, &str)], lines: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let ends_blank = |r: &std::ops::Range<usize>| base[r.end - 1].1.trim().is_empty();
    let mut up = lines.clone();
    while !ends_blank(&up) && up.start > 0 && base[up.start - 1] == base[up.end - 1] {
        up = up.start - 1..up.end - 1;
    }
    if ends_blank(&up) {
        return up;
    }
    let mut down = lines.clone();
    while !ends_blank(&down) && down.end < base.len() && base[down.start] == base[down.end] {
        down = down.start + 1..down.end + 1;
    }
    if ends_blank(&down) {
        down
    } else {
        lines
    }
}

fn place_in(places: Places<'_>, ours: &str, theirs: &str) -> Option<String> {
    let t = scoped(theirs);
    let (b, o) = (&places.base, &places.ours);
    let ours_of = |i: usize| places.ours_of(i);
    let mut deleted = vec![false; o.len()];
    let mut after: HashMap<usize, Vec<&str>> = HashMap::default();
    let mut before: HashMap<usize, Vec<&str>> = HashMap::default();
    let mut kept = crate::compare::diff::common(b, &t);
    kept.push((b.len(), t.len()));
    let (mut bi, mut ti) = (0, 0);
    for (bk, tk) in kept {
        if bk > bi || tk > ti {
            let removed = if tk == ti {
                slid_to_blank(b, bi..bk)
            } else {
                bi..bk
            };
            places.delete(removed, &mut deleted)?;
            let inserted: Vec<&str> = t[ti..tk].iter().map(|(_, l)| *l).collect();
            if !inserted.is_empty() {
                // A replacement takes the place of the first line it
                // replaces; an insertion follows the line it follows in
                // base, or precedes the one it precedes.
                let replaced = (bi..bk).find_map(ours_of);
                let anchor_after = bi.checked_sub(1).and_then(ours_of);
                match (replaced, anchor_after) {
                    (Some(k), _) => before.entry(k).or_default().extend(inserted),
                    (None, Some(k)) => after.entry(k).or_default().extend(inserted),
                    (None, None) => {
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
    fn a_line_llvm_prints_in_another_syntax_is_found_by_what_it_defines() {
        let base = "declare void @h(ptr captures(none))\n\ndefine void @f() {\n  ret void\n}\n";
        let theirs = base.replace("declare void @h(ptr captures(none))\n\n", "");
        let ours = "define void @f() {\n  ret void\n}\n\ndeclare void @h(i8* nocapture)\n";
        let placed = place_reprinted(base, ours, &theirs).unwrap();
        assert_eq!(placed, "define void @f() {\n  ret void\n}\n");
        assert_eq!(place(base, ours, &theirs), None, "only ours reprinted");
    }

    #[test]
    fn a_repeated_comment_is_placed_next_to_the_line_it_belongs_to() {
        let f = "define void @f() {\n  ret void\n}\n";
        let g = "define void @g() {\n  ret void\n}\n";
        let base = format!("; Function Attrs: nounwind\n{f}\n; Function Attrs: nounwind\n{g}");
        let theirs = format!("; Function Attrs: nounwind\n{g}");
        let ours = format!("; Function Attrs: nounwind\n{g}\n; Function Attrs: nounwind\n{f}");
        assert_eq!(place(&base, &ours, &theirs), Some(theirs));
    }

    #[test]
    fn a_label_llvm_pads_otherwise_is_found_by_its_block() {
        let label = |pad: usize| format!("b:{}; preds = %entry\n", " ".repeat(pad));
        let body = |label: &str, ret: &str| {
            format!("define void @f() {{\nentry:\n  br label %b\n\n{label}  ret void{ret}\n}}\n")
        };
        let (reprinted, ours) = (body(&label(20), ""), body(&label(48), ""));
        let theirs = body(&label(20), " ; theirs");
        let placed = place_reprinted(&reprinted, &ours, &theirs).unwrap();
        assert_eq!(placed, body(&label(48), " ; theirs"));
    }

    #[test]
    fn a_removed_function_takes_its_own_comment_with_it() {
        let function = |name: &str| {
            format!("; Function Attrs: nounwind\ndefine void @{name}() {{\n  ret void\n}}\n")
        };
        let base = format!("{}\n{}\n{}", function("a"), function("b"), function("c"));
        let theirs = format!("{}\n{}", function("a"), function("c"));
        // The diff removes `define @b ... }`, blank, `; Function Attrs:` (of @c).
        let ours = format!("{}\n{}\n{}", function("c"), function("a"), function("b"));
        let placed = place_reprinted(&base, &ours, &theirs).unwrap();
        assert_eq!(placed, format!("{}\n{}\n", function("c"), function("a")));
    }

    #[test]
    fn a_line_ours_has_twice_is_placed_by_its_neighbours_or_not_at_all() {
        let base = "define void @f() {\n  call void @h()\n  call void @h()\n  ret void\n}\n";
        let theirs = base.replacen("  call void @h()\n", "", 1);
        assert_eq!(place(base, base, &theirs), Some(theirs));
        let base = "define void @f() {\n  call void @a()\n  call void @h()\n  call void @b()\n  \
                    ret void\n}\n";
        let theirs = base.replace("  call void @h()\n", "");
        let ours = "define void @f() {\n  call void @h()\n  call void @c()\n  call void @h()\n  \
                    ret void\n}\n";
        assert_eq!(place(base, ours, &theirs), None);
    }
}
