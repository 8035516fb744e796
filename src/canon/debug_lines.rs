//! Debug lines in the diff view, relative to their function and block.
//!
//! ```text
//! canonical (true lines)                                 view
//! !12 = distinct !DISubprogram(name: "f", line: 40, ...) !12 = distinct !DISubprogram(name: "f", line: 40, ...)
//! !20 = distinct !DILexicalBlock(scope: !12, line: 42)   !20 = distinct !DILexicalBlock(scope: !12, line: sp+2)
//! !21 = !DILocalVariable(name: "i", scope: !20, line: 42) !21 = !DILocalVariable(name: "i", scope: !20, line: scope+0)
//! !30 = !DILocation(line: 43, column: 7, scope: !20)     !30 = !DILocation(line: scope+1, column: 7, scope: !20)
//! ```
//!
//! A source line inserted above a function moves every location in it by
//! the same amount, and one inserted above a loop moves the loop's block
//! and all that is in it. In the view, every `line:` of a node whose scope
//! chain reaches a `DISubprogram` (lexical blocks, local variables, labels,
//! the locations other nodes name) is written relative to the line of its
//! scope: `scope+1` in a lexical block, `sp+3` in the subprogram itself (and
//! the subprogram's `scopeLine:` relative to its `line:`), so that a shift
//! shows once, on the outermost node it moves. That is not LLVM syntax:
//! [`absolute`] turns it back before a view is parsed again, so the view of
//! a view is the view. The locations of instructions are written inline
//! before this ([`super::debug_locations`]); the ones left here are those
//! other nodes name.

use std::collections::HashMap;

/// A `line:` value: true, or as the view writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineField {
    /// `line: 43`
    At(i64),
    /// `line: sp+3`: from the subprogram's line.
    Sp(i64),
    /// `line: scope+1`: from the line of the scope (a lexical block).
    Scope(i64),
    /// `line: +1`: from the previous location of the same scope (an
    /// instruction's location, [`super::debug_locations`]).
    Step(i64),
    /// `line: !7+18`: from the line of node `!7` ([`super::debug_chain`]).
    After(u32, i64),
}

impl LineField {
    pub fn parse(v: &str) -> Option<LineField> {
        let delta = |d: &str| d.strip_prefix('+').unwrap_or(d).parse().ok();
        if v.starts_with(['+', '-']) {
            return v.parse().ok().map(LineField::Step);
        }
        if let Some(chained) = v.strip_prefix('!') {
            let at = chained.find(['+', '-'])?;
            let delta = delta(&chained[at..])?;
            return Some(LineField::After(chained[..at].parse().ok()?, delta));
        }
        if let Ok(n) = v.parse() {
            return Some(LineField::At(n));
        }
        match v.strip_prefix("sp") {
            Some(d) => delta(d).map(LineField::Sp),
            None => delta(v.strip_prefix("scope")?).map(LineField::Scope),
        }
    }

    /// The number written, whatever it is relative to.
    pub fn value(self) -> i64 {
        match self {
            LineField::At(n)
            | LineField::Sp(n)
            | LineField::Scope(n)
            | LineField::Step(n)
            | LineField::After(_, n) => n,
        }
    }

    fn true_line(self) -> Option<i64> {
        match self {
            LineField::At(n) => Some(n),
            _ => None,
        }
    }
}

/// One `!N = ...` definition: its kind, `line:`, `scope:`.
pub(super) struct Node {
    subprogram: bool,
    line: Option<LineField>,
    pub(super) scope: Option<u32>,
}

/// The numbered definitions of a text's lines.
pub(super) struct Nodes {
    /// Number -> (line index, rhs offset).
    pub defs: HashMap<u32, (usize, usize)>,
    pub nodes: HashMap<u32, Node>,
    /// Line index -> number.
    by_line: HashMap<usize, u32>,
}

impl Nodes {
    pub(super) fn of(lines: &[&str]) -> Nodes {
        let defs = definitions(lines);
        let nodes = defs
            .iter()
            .map(|(&n, &(i, off))| {
                let rhs = &lines[i][off..];
                (
                    n,
                    node(
                        rhs,
                        field(rhs, "line").and_then(|(_, v)| LineField::parse(v)),
                    ),
                )
            })
            .collect();
        let by_line = defs.iter().map(|(&n, &(i, _))| (i, n)).collect();
        Nodes {
            defs,
            nodes,
            by_line,
        }
    }

    /// The subprogram that `n`'s scope chain reaches, and its line.
    pub(super) fn subprogram_of(&self, mut n: u32) -> Option<(u32, i64)> {
        for _ in 0..64 {
            let node = self.nodes.get(&n)?;
            if node.subprogram {
                return Some((n, node.line?.true_line()?));
            }
            n = node.scope?;
        }
        None
    }

    /// How node `n`'s `line:` is written, if it has one.
    pub(super) fn line(&self, n: u32) -> Option<LineField> {
        self.nodes.get(&n)?.line
    }

    /// The node defined on line `i` of the text.
    pub(super) fn number_at(&self, i: usize) -> Option<u32> {
        self.by_line.get(&i).copied()
    }

    /// The node a relative line of `n` (`sp+N`, `scope+N`) counts from.
    pub(super) fn line_base(&self, n: u32) -> Option<u32> {
        self.base_of(self.nodes.get(&n)?.scope?)
    }

    /// Whether `n` is inside a function: its scope chain reaches a
    /// subprogram.
    pub(super) fn in_function(&self, n: u32) -> bool {
        let mut scope = self.nodes.get(&n).and_then(|node| node.scope);
        for _ in 0..64 {
            let Some(node) = scope.and_then(|s| self.nodes.get(&s)) else {
                return false;
            };
            if node.subprogram {
                return true;
            }
            scope = node.scope;
        }
        false
    }

    /// A line D below the line of `base` (a subprogram: `sp+D`, a lexical
    /// block: `scope+D`).
    pub(super) fn text_from_base(&self, base: u32, delta: i64) -> Option<String> {
        Some(match self.nodes.get(&base)?.subprogram {
            true => relative_text(delta),
            false => with_sign("scope", delta),
        })
    }

    /// The first node from `n` up its scope chain that has a line (a
    /// lexical block, a subprogram; not a lexical block file).
    fn base_of(&self, mut n: u32) -> Option<u32> {
        for _ in 0..64 {
            let node = self.nodes.get(&n)?;
            if node.subprogram || node.line.is_some() {
                return Some(n);
            }
            n = node.scope?;
        }
        None
    }

    /// What node `n`'s line counts from (`None`: it is a true line) and by
    /// how much: `sp+N` / `scope+N` from its scope's line, `!R+D` from node
    /// `R`'s; `None` for an instruction location's step.
    pub(super) fn counted_from(&self, n: u32) -> Option<(Option<u32>, i64)> {
        match self.line(n)? {
            LineField::At(v) => Some((None, v)),
            LineField::After(reference, d) => Some((Some(reference), d)),
            LineField::Sp(d) | LineField::Scope(d) => Some((Some(self.line_base(n)?), d)),
            LineField::Step(_) => None,
        }
    }

    /// The true line of node `n`, whichever way it is written (following
    /// what it counts from, without recursion; a cycle has none).
    pub(super) fn true_line(&self, mut n: u32) -> Option<i64> {
        let mut sum = 0;
        for _ in 0..=self.nodes.len() {
            match self.counted_from(n)? {
                (None, v) => return Some(sum + v),
                (Some(from), d) => (sum, n) = (sum + d, from),
            }
        }
        None
    }

    /// The true line of the first node up `scope`'s chain that has one.
    pub(super) fn scope_line(&self, scope: u32) -> Option<i64> {
        self.true_line(self.base_of(scope)?)
    }

    /// `line` (true) as the view writes the first location in `scope`:
    /// `sp+N` where the scope's line is its subprogram's, `scope+N` from a
    /// lexical block's.
    pub(super) fn relative_to_scope(&self, scope: u32, line: i64) -> Option<String> {
        let base = self.base_of(scope)?;
        self.text_from_base(base, line - self.true_line(base)?)
    }
}

/// The value of field `name: ` in a metadata line (up to `,` or `)`),
/// with its byte offset. Quoted text (`name: "line: 3"`) is skipped.
pub fn field<'a>(rhs: &'a str, name: &str) -> Option<(usize, &'a str)> {
    let bytes = rhs.as_bytes();
    let mut quoted = false;
    for at in 0..bytes.len() {
        match bytes[at] {
            b'"' => quoted = !quoted,
            // A whole field name: preceded by `(` or a space.
            b'(' | b' ' if !quoted => {
                let rest = &rhs[at + 1..];
                if rest.starts_with(name) && rest[name.len()..].starts_with(": ") {
                    let start = at + 1 + name.len() + 2;
                    let end = rhs[start..]
                        .find([',', ')'])
                        .map_or(rhs.len(), |e| start + e);
                    return Some((start, &rhs[start..end]));
                }
            }
            _ => {}
        }
    }
    None
}

/// The numbered definitions among `lines`: number -> (line index, rhs offset).
fn definitions(lines: &[&str]) -> HashMap<u32, (usize, usize)> {
    let mut out = HashMap::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(rest) = l.strip_prefix('!') {
            if let Some((n, _)) = rest.split_once(" = ") {
                if let Ok(n) = n.parse::<u32>() {
                    out.insert(n, (i, n.to_string().len() + 4));
                }
            }
        }
    }
    out
}

fn node(rhs: &str, line: Option<LineField>) -> Node {
    let body = rhs.strip_prefix("distinct ").unwrap_or(rhs);
    Node {
        subprogram: body.starts_with("!DISubprogram("),
        line,
        scope: field(rhs, "scope")
            .and_then(|(_, v)| v.strip_prefix('!'))
            .and_then(|v| v.parse().ok()),
    }
}

/// Rewrites `text`'s metadata lines: `f(nodes, number, line)` returns the
/// new line for a definition, or `None` to keep it.
fn rewrite_definitions(text: &str, f: impl Fn(&Nodes, u32, &str) -> Option<String>) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let nodes = Nodes::of(&lines);
    if nodes.defs.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for (i, l) in lines.iter().enumerate() {
        match nodes.number_at(i).and_then(|n| f(&nodes, n, l)) {
            Some(new) => out.push_str(&new),
            None => out.push_str(l),
        }
    }
    out
}

/// `line` with the value of field `name` replaced by `value`.
pub(crate) fn with_field(line: &str, name: &str, value: &str) -> Option<String> {
    let (start, old) = field(line, name)?;
    Some(format!(
        "{}{value}{}",
        &line[..start],
        &line[start + old.len()..]
    ))
}

/// Whether any metadata of `text` may have a `line:` (a module without
/// debug info has none: the view's line stages then leave it as it is).
pub(crate) fn has_lines(text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), b"ine: ").is_some()
}

/// `sp+D`: a line D below the subprogram's.
pub(super) fn relative_text(delta: i64) -> String {
    with_sign("sp", delta)
}

fn with_sign(base: &str, delta: i64) -> String {
    if delta < 0 {
        format!("{base}{delta}")
    } else {
        format!("{base}+{delta}")
    }
}

/// The view's text of a printed module: lines relative to subprograms,
/// or to the lexical block a node is in.
pub fn relative(text: &str) -> String {
    if !has_lines(text) {
        return text.to_string();
    }
    rewrite_definitions(text, |nodes, n, line| {
        let node = &nodes.nodes[&n];
        if node.subprogram {
            let own = node.line?.true_line()?;
            let (_, scope_line) = field(line, "scopeLine")?;
            let delta = scope_line.parse::<i64>().ok()? - own;
            return with_field(line, "scopeLine", &relative_text(delta));
        }
        // Line 0 is "no line": not a position to move.
        let at = node.line?.true_line().filter(|&l| l != 0)?;
        let scope = node.scope?;
        nodes.subprogram_of(scope)?;
        with_field(line, "line", &nodes.relative_to_scope(scope, at)?)
    })
}

/// A definition's text as the view numbers it: positions left out, lines
/// absolute (a subprogram's, a global variable's, a type's) or relative
/// (`sp+3`) and columns, so that a function moved down its source file
/// keeps its `!N`, so do its nodes when a line is inserted above them, and
/// so does a lexical block whose `for (...)` got longer, with all it holds;
/// nodes alike in one scope are told apart by their order
/// ([`super::numbering::metadata_keys`]).
pub(crate) fn without_positions(rhs: &str) -> String {
    let mut out = rhs.to_string();
    for name in ["line", "scopeLine", "column"] {
        if field(&out, name).is_some() {
            out = with_field(&out, name, "_").unwrap_or(out);
        }
    }
    out
}

/// `sp+D` / `sp-D` -> D.
pub(crate) fn parse_relative(v: &str) -> Option<i64> {
    let d = v.strip_prefix("sp")?;
    d.strip_prefix('+').unwrap_or(d).parse().ok()
}

/// Undoes [`relative`]'s steps (`sp+N`, `scope+N`) in a text whose other
/// steps are undone already (`canon::debug_readback::absolute` undoes them all).
pub(crate) fn absolute_scope_steps(text: &str) -> String {
    if ![": sp+", ": sp-", ": scope+", ": scope-"]
        .iter()
        .any(|p| text.contains(p))
    {
        return text.to_string();
    }
    rewrite_definitions(text, |nodes, n, line| {
        let node = &nodes.nodes[&n];
        if node.subprogram {
            let own = node.line?.true_line()?;
            let (_, v) = field(line, "scopeLine")?;
            return with_field(line, "scopeLine", &(own + parse_relative(v)?).to_string());
        }
        if matches!(node.line?, LineField::At(_)) {
            return None;
        }
        with_field(line, "line", &nodes.true_line(n)?.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "!7 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 40, scopeLine: 41, unit: !0)\n\
                        !8 = distinct !DILexicalBlock(scope: !7, file: !1, line: 42, column: 3)\n\
                        !9 = !DILocation(line: 43, column: 7, scope: !8)\n\
                        !10 = !DILocation(line: 39, column: 1, scope: !7)\n\
                        !11 = !DIFile(filename: \"a.c\", directory: \"/\")\n";

    #[test]
    fn lines_are_relative_to_the_subprogram_and_come_back() {
        let r = relative(TEXT);
        assert!(r.contains("line: 40, scopeLine: sp+1,"), "{r}");
        assert!(
            r.contains("!DILexicalBlock(scope: !7, file: !1, line: sp+2,"),
            "{r}"
        );
        assert!(r.contains("!DILocation(line: scope+1, column: 7"), "{r}");
        assert!(r.contains("!DILocation(line: sp-1, column: 1"), "{r}");
        assert_eq!(absolute_scope_steps(&r), TEXT);
        let shifted = TEXT
            .replace("line: 4", "line: 5")
            .replace("scopeLine: 41", "scopeLine: 51")
            .replace("line: 39", "line: 49");
        let rs = relative(&shifted);
        let changed: Vec<_> = r.lines().zip(rs.lines()).filter(|(a, b)| a != b).collect();
        assert_eq!(changed.len(), 1, "{changed:?}");
    }
}
