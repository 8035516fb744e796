//! Debug lines in the diff view, each from the line just above it.
//!
//! ```text
//! view before (lines relative to scopes)                      view (chained)
//! !4 = !DIGlobalVariable(name: "t", file: !1, line: 3)           line: 3
//! !7 = distinct !DISubprogram(name: "f", file: !1, line: 12)     line: !4+9
//! !21 = !DILocalVariable(name: "i", scope: !7, line: sp+2)       line: !7+2
//! !22 = !DILocalVariable(name: "j", scope: !7, line: sp+5)       line: !21+3
//! !9 = distinct !DISubprogram(name: "g", file: !1, line: 30)     line: !22+13
//! ```
//!
//! A source line inserted in a function moves every declaration below it:
//! with true lines each one's `line:` changes (every later variable and
//! block of the function, every later function, global, type and string
//! literal of the file). In the view, a node's line is written as a step
//! from the node declared just above it in the same source file, `!R+D` (D
//! lines below node `!R`), whether either is inside a function or not, so
//! an inserted line shows once, on the first node below it. The first node
//! of a file keeps its true line; the first node of each other line (one
//! written with a true line, else the lowest-numbered) steps from the
//! first of the line above, and the others on its line from it, `!F+0`,
//! so a shift shows on one node, not on all of a line's. This runs after the view's metadata
//! numbering, so `!R` is final, and [`unchained`] reads it back (a node in
//! a function to `sp+N` / `scope+N` again); line 0 ("no line") is not in
//! any chain.

use std::collections::HashMap;

use super::debug_lines::{field, with_field, LineField, Nodes};

/// The file a node's line is in: its own `file:`, or its scope's.
fn file_of<'a>(nodes: &Nodes, mut n: u32, rhs_of: impl Fn(u32) -> &'a str) -> Option<u32> {
    for _ in 0..64 {
        if let Some((_, f)) = field(rhs_of(n), "file") {
            return f.strip_prefix('!')?.parse().ok();
        }
        n = nodes.nodes.get(&n)?.scope?;
    }
    None
}

/// `!R+D` / `!R-D`.
fn after_text(reference: u32, delta: i64) -> String {
    if delta < 0 {
        format!("!{reference}{delta}")
    } else {
        format!("!{reference}+{delta}")
    }
}

/// The file and the true line of node `n`, if it has a line to chain.
fn chain_member<'a>(nodes: &Nodes, n: u32, rhs_of: impl Fn(u32) -> &'a str) -> Option<(u32, i64)> {
    match nodes.line(n)? {
        LineField::At(0) | LineField::Step(_) | LineField::After(..) => None,
        LineField::At(_) | LineField::Sp(_) | LineField::Scope(_) => {
            let line = nodes.true_line(n).filter(|&l| l != 0)?;
            Some((file_of(nodes, n, rhs_of)?, line))
        }
    }
}

/// The view's text with lines chained: each node's line a step from the
/// node just above it in its file.
pub(super) fn chained(text: &str) -> String {
    if !super::debug_lines::has_lines(text) {
        return text.to_string();
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let nodes = Nodes::of(&lines);
    let rhs_of = |n: u32| {
        let (i, off) = nodes.defs[&n];
        &lines[i][off..]
    };
    let mut files: HashMap<u32, Vec<(i64, u32)>> = HashMap::new();
    for &n in nodes.defs.keys() {
        if let Some((file, line)) = chain_member(&nodes, n, rhs_of) {
            files.entry(file).or_default().push((line, n));
        }
    }
    let mut written: HashMap<usize, String> = HashMap::new();
    for members in files.values_mut() {
        // On one line, a node written with a true line comes first.
        members.sort_unstable_by_key(|&(line, n)| {
            (line, !matches!(nodes.line(n), Some(LineField::At(_))), n)
        });
        // A chain starts from a true line.
        let (line, root) = members[0];
        if !matches!(nodes.line(root), Some(LineField::At(_))) {
            let (i, _) = nodes.defs[&root];
            written.extend(with_field(lines[i], "line", &line.to_string()).map(|l| (i, l)));
        }
        let mut above: Option<(i64, u32)> = None;
        for (k, &(value, n)) in members.iter().enumerate() {
            // The first node of a line steps from the first of the line
            // above; the others on its line from it, by 0.
            let reference = match above {
                Some((line, first)) if line == value => Some((first, 0)),
                Some((line, first)) => Some((first, value - line)),
                None => None,
            };
            if reference.is_none_or(|(_, d)| d != 0) {
                above = Some((value, n));
            }
            let Some((reference, delta)) = reference.filter(|_| k > 0) else {
                continue;
            };
            let (i, _) = nodes.defs[&n];
            let new = with_field(lines[i], "line", &after_text(reference, delta));
            written.extend(new.map(|l| (i, l)));
        }
    }
    if written.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for (i, l) in lines.iter().enumerate() {
        out.push_str(written.get(&i).map_or(l, String::as_str));
    }
    out
}

/// Undoes [`chained`]: every `!R+D` line back to the form it had (a true
/// line outside functions, `sp+N` / `scope+N` inside).
pub(super) fn unchained(text: &str) -> String {
    if !text.contains("line: !") {
        return text.to_string();
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let nodes = Nodes::of(&lines);
    let mut memo = HashMap::new();
    let mut out = String::with_capacity(text.len());
    for (i, l) in lines.iter().enumerate() {
        let restored = nodes
            .number_at(i)
            .filter(|&n| matches!(nodes.line(n), Some(LineField::After(..))))
            .and_then(|n| restored_line(&nodes, n, l, &mut memo));
        out.push_str(restored.as_deref().unwrap_or(l));
    }
    out
}

/// Definition line `l` of node `n` with its chained line written as it
/// was before: a true line, or a step from its scope's line.
fn restored_line(nodes: &Nodes, n: u32, l: &str, memo: &mut HashMap<u32, i64>) -> Option<String> {
    let value = true_value(nodes, n, memo)?;
    let text = match nodes.in_function(n) {
        false => value.to_string(),
        true => {
            let base = nodes.line_base(n)?;
            nodes.text_from_base(base, value - true_value(nodes, base, memo)?)?
        }
    };
    with_field(l, "line", &text)
}

/// The true line of node `n` ([`Nodes::true_line`]), remembering every
/// node's on the way: a file's chain is walked once, not once per node.
fn true_value(nodes: &Nodes, n: u32, memo: &mut HashMap<u32, i64>) -> Option<i64> {
    let mut pending = vec![n];
    while let Some(&top) = pending.last() {
        if memo.contains_key(&top) {
            pending.pop();
            continue;
        }
        if pending.len() > nodes.defs.len() + 1 {
            return None;
        }
        match nodes.counted_from(top)? {
            (None, v) => {
                memo.insert(top, v);
                pending.pop();
            }
            (Some(reference), d) => match memo.get(&reference) {
                Some(&v) => {
                    memo.insert(top, v + d);
                    pending.pop();
                }
                None => pending.push(reference),
            },
        }
    }
    memo.get(&n).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    const VIEW: &str = "!1 = !DIFile(filename: \"a.c\", directory: \"/\")\n\
                        !4 = distinct !DIGlobalVariable(name: \"t\", scope: !1, file: !1, line: 3)\n\
                        !7 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 12, scopeLine: sp+0)\n\
                        !9 = distinct !DISubprogram(name: \"g\", scope: !1, file: !1, line: 30, scopeLine: sp+1)\n\
                        !21 = !DILocalVariable(name: \"i\", scope: !7, file: !1, line: sp+2)\n\
                        !22 = !DILocalVariable(name: \"j\", scope: !7, file: !1, line: sp+5)\n\
                        !23 = !DILocalVariable(name: \"k\", scope: !7, file: !1, line: sp+5)\n\
                        !24 = !DILocalVariable(name: \"z\", scope: !7, file: !1, line: 0)\n";

    #[test]
    fn lines_step_from_the_node_above_and_come_back() {
        let c = chained(VIEW);
        assert!(c.contains("\"t\", scope: !1, file: !1, line: 3)"), "{c}");
        assert!(c.contains("\"f\", scope: !1, file: !1, line: !4+9,"), "{c}");
        assert!(
            c.contains("\"g\", scope: !1, file: !1, line: !22+13,"),
            "{c}"
        );
        assert!(c.contains("\"i\", scope: !7, file: !1, line: !7+2)"), "{c}");
        assert!(
            c.contains("\"j\", scope: !7, file: !1, line: !21+3)"),
            "{c}"
        );
        assert!(
            c.contains("\"k\", scope: !7, file: !1, line: !22+0)"),
            "{c}"
        );
        assert!(c.contains("\"z\", scope: !7, file: !1, line: 0)"), "{c}");
        assert_eq!(unchained(&c), VIEW);
    }

    #[test]
    fn an_inserted_line_shows_once() {
        let shifted = VIEW
            .replace("line: 12", "line: 13")
            .replace("line: 30", "line: 31");
        let (a, b) = (chained(VIEW), chained(&shifted));
        let changed = a.lines().zip(b.lines()).filter(|(x, y)| x != y).count();
        assert_eq!(changed, 1, "{a}\n{b}");
    }
}
