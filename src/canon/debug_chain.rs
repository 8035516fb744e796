//! Debug lines in the diff view, each from the line just above it.
//!
//! ```text
//! view before (lines relative to scopes)            view (chained)
//! !4 = !DIGlobalVariable(name: "t", file: !1, line: 3)  !4 = !DIGlobalVariable(name: "t", file: !1, line: 3)
//! !7 = distinct !DISubprogram(name: "f", file: !1, line: 12)  !7 = distinct !DISubprogram(name: "f", file: !1, line: !4+9)
//! !9 = distinct !DISubprogram(name: "g", file: !1, line: 30)  !9 = distinct !DISubprogram(name: "g", file: !1, line: !7+18)
//! !21 = !DILocalVariable(name: "i", scope: !7, line: sp+2)    !21 = !DILocalVariable(name: "i", scope: !7, line: sp+2)
//! !22 = !DILocalVariable(name: "j", scope: !7, line: sp+5)    !22 = !DILocalVariable(name: "j", scope: !7, line: !21+3)
//! ```
//!
//! A source line inserted above a function moves every declaration below
//! it: with true lines each one's `line:` changes (every later function,
//! global, type and string literal of the file). In the view, a node's line
//! is written as a step from the node declared just above it in the same
//! group, `!R+D` (D lines below node `!R`), so an inserted line shows once,
//! on the first node below it. Groups: the nodes of one file outside every
//! function (functions, globals, types, their members), and the nodes of
//! one scope inside a function (variables, lexical blocks, labels, loop
//! bounds; [`super::debug_lines`] writes those relative to their scope).
//! The first node of a group (the lowest-numbered of its first line)
//! keeps its line as it was; the other nodes on one line all step from the
//! same node (the lowest-numbered of the line above).
//! This runs after the view's metadata numbering, so `!R` is final and
//! [`unchained`] reads it back; line 0 ("no line") is not in any chain.

use std::collections::HashMap;

use super::debug_lines::{field, with_field, Line, Nodes};

/// The chain a node's line belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Group {
    /// Outside functions: the `file:` node.
    File(u32),
    /// Inside a function: the scope its line is relative to.
    Scope(u32),
}

/// `!R+D` / `!R-D`.
fn after_text(reference: u32, delta: i64) -> String {
    if delta < 0 {
        format!("!{reference}{delta}")
    } else {
        format!("!{reference}+{delta}")
    }
}

/// The group and the ordering value of node `n`'s line, if it has one to
/// chain.
fn group_of(nodes: &Nodes, n: u32, rhs: &str) -> Option<(Group, i64)> {
    match nodes.line(n)? {
        Line::At(0) => None,
        Line::At(line) => {
            let file = field(rhs, "file")?.1.strip_prefix('!')?.parse().ok()?;
            Some((Group::File(file), line))
        }
        Line::Sp(d) | Line::Scope(d) => Some((Group::Scope(nodes.line_base(n)?), d)),
        Line::Step(_) | Line::After(..) => None,
    }
}

/// The view's text with lines chained: each node's line a step from the
/// node just above it in its group.
pub fn chained(text: &str) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let nodes = Nodes::of(&lines);
    let rhs_of = |n: u32| {
        let (i, off) = nodes.defs[&n];
        &lines[i][off..]
    };
    let mut groups: HashMap<Group, Vec<(i64, u32)>> = HashMap::new();
    for &n in nodes.defs.keys() {
        if let Some((group, value)) = group_of(&nodes, n, rhs_of(n)) {
            groups.entry(group).or_default().push((value, n));
        }
    }
    let mut written: HashMap<usize, String> = HashMap::new();
    for members in groups.values_mut() {
        members.sort_unstable();
        let mut above: Option<(i64, u32)> = None;
        let mut at = 0;
        while at < members.len() {
            let (value, first) = members[at];
            let end = at + members[at..].iter().take_while(|m| m.0 == value).count();
            // The first line's nodes step from its first node.
            let (prev, reference, from) = above.map_or((value, first, at + 1), |(p, r)| (p, r, at));
            for &(_, n) in &members[from..end] {
                let (i, _) = nodes.defs[&n];
                let new = with_field(lines[i], "line", &after_text(reference, value - prev));
                written.extend(new.map(|l| (i, l)));
            }
            above = Some((value, first));
            at = end;
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
pub fn unchained(text: &str) -> String {
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
            .filter(|&n| matches!(nodes.line(n), Some(Line::After(..))))
            .and_then(|n| restored_line(&nodes, n, l, &mut memo));
        out.push_str(restored.as_deref().unwrap_or(l));
    }
    out
}

/// Definition line `l` of node `n` with its chained line written as its
/// group writes a first node.
fn restored_line(nodes: &Nodes, n: u32, l: &str, memo: &mut HashMap<u32, i64>) -> Option<String> {
    let value = chain_value(nodes, n, memo)?;
    let text = match nodes.in_function(n) {
        false => value.to_string(),
        true => nodes.scope_relative_text(n, value)?,
    };
    with_field(l, "line", &text)
}

/// The value node `n`'s line has in its group (a true line, or a step
/// from its scope's line), following its chain without recursion.
fn chain_value(nodes: &Nodes, n: u32, memo: &mut HashMap<u32, i64>) -> Option<i64> {
    let mut pending = vec![n];
    while let Some(&top) = pending.last() {
        if memo.contains_key(&top) {
            pending.pop();
            continue;
        }
        if pending.len() > nodes.defs.len() + 1 {
            return None;
        }
        match nodes.line(top)? {
            Line::After(reference, delta) => match memo.get(&reference) {
                Some(&v) => {
                    memo.insert(top, v + delta);
                    pending.pop();
                }
                None => pending.push(reference),
            },
            Line::At(v) | Line::Sp(v) | Line::Scope(v) => {
                memo.insert(top, v);
                pending.pop();
            }
            Line::Step(_) => return None,
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
            c.contains("\"g\", scope: !1, file: !1, line: !7+18,"),
            "{c}"
        );
        assert!(c.contains("\"i\", scope: !7, file: !1, line: sp+2)"), "{c}");
        assert!(
            c.contains("\"j\", scope: !7, file: !1, line: !21+3)"),
            "{c}"
        );
        assert!(
            c.contains("\"k\", scope: !7, file: !1, line: !21+3)"),
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
