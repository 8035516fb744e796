//! Instructions' debug locations in the diff view: inline, each line a step
//! from the one before.
//!
//! ```text
//! canonical (valid IR, true lines)            view
//!   store i32 0, ptr %s, !dbg !30               store i32 0, ptr %s, !dbg !DILocation(line: sp+1, column: 7, scope: !12)
//!   br label %loop, !dbg !31                    br label %loop, !dbg !DILocation(line: scope+0, column: 3, scope: !14)
//!   ret void, !dbg !32                          ret void, !dbg !DILocation(line: +1, column: 3)
//! !30 = !DILocation(line: 41, column: 7, scope: !12)
//! !31 = !DILocation(line: 42, column: 3, scope: !14)
//! !32 = !DILocation(line: 43, column: 3, scope: !14)
//! ```
//!
//! LLVM makes each location a numbered node, so a statement inserted in a
//! function moves every location below it: each one's definition line and
//! every instruction line naming it change. In the view, the location of an
//! instruction (`!dbg`) or a debug record (its last operand) is written
//! inline, and its line as a step from the previous instruction's location
//! of the same scope in the same function, in print order (a debug record's
//! location steps from it too, but is no step's base: [`Base`]; the first one from the
//! scope's line, `sp+N` or `scope+N`), its column a step as well when that
//! previous location is on the same line and left of it (a column left of
//! the previous one is written as it is): an inserted statement shows as
//! its own lines, plus the step of the next location when it differs, and
//! an operator made longer once, not on every location after it nor on
//! the step back to a column left of it. A location in the scope of the
//! location before it (an instruction's, in print order) leaves its
//! `scope:` out: an `if` added around statements moves them into a new
//! lexical block, and only the first of them shows it. Line 0 ("no line")
//! stays 0 and is no step. Its `atomGroup:` (key instructions) is
//! numbered by [`super::debug_atoms`]. A
//! location that only instructions and records use loses its definition;
//! a distinct one, or one that other nodes name (a
//! loop's bounds, an `inlinedAt:`), stays a node as well.
//!
//! LLVM's parser reads inline locations, so [`absolute`] only turns the
//! steps back into lines: the view of a view is the view.

use std::collections::{HashMap, HashSet};

use super::debug_lines::{field, with_field, LineField, Nodes};
use crate::text::Ref;

/// The previous location of each scope in one function, `(line,
/// column)`, and the scope of the previous location in print order.
#[derive(Default)]
struct Steps {
    last: HashMap<(u32, u32), (i64, i64)>,
    scope: Option<u32>,
}

/// A location's `line:` and `column:` as the view writes them.
struct Written {
    line: String,
    column: Option<String>,
}

impl Steps {
    /// Whether a location in `scope` writes it: only where it is not the
    /// scope of the location before it in print order. The next location
    /// compares with this one's when `is_base`.
    fn writes_scope(&mut self, scope: u32, is_base: bool) -> bool {
        let written = self.scope != Some(scope);
        if is_base {
            self.scope = Some(scope);
        }
        written
    }

    /// The view's text of `(line, column)`, the true position of a
    /// location at `at`: a step from the previous location there, the
    /// first one from the scope's own line; the column a step too on the
    /// line of the previous location.
    fn written(&mut self, nodes: &Nodes, at: Place, base: Base) -> Option<Written> {
        let (line, column) = base.position;
        if line == 0 {
            return None;
        }
        let previous = match base.is_base {
            true => self.last.insert(at, (line, column)),
            false => self.last.get(&at).copied(),
        };
        let written = match previous {
            Some((prev, prev_column)) => Written {
                line: step_text(line - prev),
                // A column left of the previous one is written as it is:
                // an operator made longer shifts the columns right of it,
                // and a step back across it would change too.
                column: (prev == line && column >= prev_column)
                    .then(|| step_text(column - prev_column)),
            },
            None => Written {
                line: nodes.relative_to_scope(at.0, line)?,
                column: None,
            },
        };
        Some(written)
    }

    /// The true `(line, column)` of a location written `(value, column)`
    /// at `at`; it is the next one's base when `is_base`.
    fn read(
        &mut self,
        nodes: &Nodes,
        at: Place,
        (value, column): (&str, &str),
        is_base: bool,
    ) -> Option<(i64, i64)> {
        let line = match LineField::parse(value)? {
            LineField::At(_) | LineField::After(..) => return None,
            LineField::Sp(d) => nodes.subprogram_of(at.0)?.1 + d,
            LineField::Scope(d) => nodes.scope_line(at.0)? + d,
            LineField::Step(d) => self.last.get(&at)?.0 + d,
        };
        let column = match column.starts_with(['+', '-']) {
            true => self.last.get(&at)?.1 + column.parse::<i64>().ok()?,
            false => column.parse().ok()?,
        };
        if is_base {
            self.last.insert(at, (line, column));
        }
        Some((line, column))
    }
}

/// A location's true `(line, column)`, and whether the next location of
/// its place steps from it: an instruction's does, a debug record's does
/// not. A record's location is a fact of the record's own line (often
/// `line: 0` or the variable's declaration, far from the code around
/// it): stepped from, its change moved the step of the instruction after
/// it too.
///
/// ```text
///   %a = add i64 %x, 1, !dbg !DILocation(line: sp+291, column: 7, ...)
///     #dbg_value(i64 %a, !9, !DIExpression(), !DILocation(line: -295, ...))
///   %c = icmp slt i64 %a, %x, !dbg !DILocation(line: +0, column: +0, ...)   (from the add)
/// ```
#[derive(Clone, Copy)]
struct Base {
    position: (i64, i64),
    is_base: bool,
}

/// Whether a body line is a debug record (`#dbg_value(...)`), whose
/// location is no base of the next one's step.
fn is_record(line: &str) -> bool {
    line.trim_start().starts_with("#dbg_")
}

fn step_text(delta: i64) -> String {
    if delta < 0 {
        delta.to_string()
    } else {
        format!("+{delta}")
    }
}

/// Where a location is: its scope, and the call it is inlined at (0 when
/// none), so that the copies of one inlined function step apart.
type Place = (u32, u32);

/// The `scope: !N` and `inlinedAt: !M` of a location's text.
fn place_of(location: &str) -> Option<Place> {
    let number = |name| field(location, name)?.1.strip_prefix('!')?.parse().ok();
    Some((number("scope")?, number("inlinedAt").unwrap_or(0)))
}

/// Whether `line` is an instruction or a debug record of a function body.
fn is_body_line(line: &str, in_function: bool) -> bool {
    in_function && line.starts_with(' ')
}

/// Walks `text`'s lines, telling `f` which are body lines; a `define`
/// starts new steps.
fn for_each_line<'a>(text: &'a str, mut f: impl FnMut(&'a str, bool, &mut Steps)) {
    let mut steps = Steps::default();
    let mut in_function = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("define ") {
            in_function = true;
            steps = Steps::default();
        } else if line.starts_with('}') {
            in_function = false;
        }
        f(line, is_body_line(line, in_function), &mut steps);
    }
}

/// The locations that can be written inline: uniqued `!DILocation`s, by
/// number, with their text.
fn inlinable<'a>(lines: &[&'a str], nodes: &Nodes) -> HashMap<u32, &'a str> {
    nodes
        .defs
        .iter()
        .filter_map(|(&n, &(i, off))| {
            let rhs = lines[i][off..].trim_end();
            rhs.starts_with("!DILocation(").then_some((n, rhs))
        })
        .collect()
}

/// The byte range of the location reference of a body line: the `!N`
/// after `!dbg `, or a debug record's last operand.
fn location_ref(line: &str) -> Option<(usize, usize, u32)> {
    let body = line.trim_end();
    let start = if body.trim_start().starts_with("#dbg_") {
        body.strip_suffix(')')?.rfind(", !")? + 2
    } else {
        body.find(", !dbg !")? + ", !dbg ".len()
    };
    let digits = body[start + 1..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let n = body[start + 1..start + 1 + digits].parse().ok()?;
    Some((start, start + 1 + digits, n))
}

/// Numbers that lines other than body lines reference (definitions, named
/// metadata, globals, function headers): those stay defined.
fn named_elsewhere(text: &str) -> HashSet<u32> {
    let mut out = HashSet::new();
    for_each_line(text, |line, body, _| {
        if body {
            return;
        }
        let rhs = match line.strip_prefix('!').and_then(|r| r.split_once(" = ")) {
            Some((n, rhs)) if n.parse::<u32>().is_ok() => rhs,
            _ => line,
        };
        crate::text::scan_refs(rhs, |_, _, r| {
            if let Ref::Meta(m) = r {
                out.insert(m);
            }
        });
    });
    out
}

/// The view's form of a module printed by LLVM (true lines): locations
/// inline, in steps, and the definitions only they used left out.
pub(crate) fn inline(text: &str) -> String {
    if memchr::memmem::find(text.as_bytes(), b"!DILocation(").is_none() {
        return text.to_string();
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let nodes = Nodes::of(&lines);
    let locations = inlinable(&lines, &nodes);
    if locations.is_empty() {
        return text.to_string();
    }
    let kept = named_elsewhere(text);
    let groups = super::debug_atoms::view_groups(&lines, |line| {
        let (start, _, n) = location_ref(line)?;
        Some((start, *locations.get(&n)?))
    });
    let mut out = String::with_capacity(text.len());
    let mut index = 0;
    for_each_line(text, |line, body, steps| {
        index += 1;
        if body {
            let group = groups.get(&(index - 1)).copied();
            out.push_str(&inline_line(line, &locations, &nodes, steps, group));
            return;
        }
        let dropped = crate::canon::metadata::numbered_definition(line)
            .is_some_and(|(n, _)| locations.contains_key(&n) && !kept.contains(&n));
        if !dropped {
            out.push_str(line);
        }
    });
    out
}

/// A body line with its location written inline, its `atomGroup:` the
/// view's `group`.
fn inline_line(
    line: &str,
    locations: &HashMap<u32, &str>,
    nodes: &Nodes,
    steps: &mut Steps,
    group: Option<u64>,
) -> String {
    let Some((start, end, n)) = location_ref(line) else {
        return line.to_string();
    };
    let Some(&location) = locations.get(&n) else {
        return line.to_string();
    };
    let location = match with_steps(location, nodes, steps, !is_record(line)) {
        Some(written) => written,
        None => location.to_string(),
    };
    let location = location.as_str();
    let atom = group.and_then(|g| with_field(location, "atomGroup", &g.to_string()));
    let location = atom.as_deref().unwrap_or(location);
    format!("{}{location}{}", &line[..start], &line[end..])
}

/// `location` (true lines) with its line and column as the view writes
/// them; `None` when it stays as it is (line 0, no scope). The next
/// location steps from it when `is_base`.
fn with_steps(location: &str, nodes: &Nodes, steps: &mut Steps, is_base: bool) -> Option<String> {
    let line = field(location, "line")?.1.parse().ok()?;
    let column = field(location, "column").map(|(_, c)| c);
    let column_value = column.map_or(Some(0), |c| c.parse().ok())?;
    let base = Base {
        position: (line, column_value),
        is_base,
    };
    let place = place_of(location)?;
    let Some(written) = steps.written(nodes, place, base) else {
        // Line 0 stays as it is, its scope written, the next one's base.
        steps.writes_scope(place.0, is_base);
        return None;
    };
    let location = with_field(location, "line", &written.line)?;
    let location = match (column, written.column) {
        (Some(_), Some(step)) => with_field(&location, "column", &step)?,
        _ => location,
    };
    match steps.writes_scope(place.0, is_base) {
        true => Some(location),
        false => without_scope(&location),
    }
}

/// The `, scope: !N` of a location's text.
const SCOPE_FIELD: &str = ", scope: ";

/// `location` without its `scope:` field (the scope of the location
/// before it).
fn without_scope(location: &str) -> Option<String> {
    let (start, value) = field(location, "scope")?;
    let from = start.checked_sub(SCOPE_FIELD.len())?;
    (&location[from..start] == SCOPE_FIELD)
        .then(|| format!("{}{}", &location[..from], &location[start + value.len()..]))
}

/// `location` with the `scope:` field [`without_scope`] left out put back
/// after its line and column (`None` when it has one).
fn with_scope(location: &str, scope: u32) -> Option<String> {
    if field(location, "scope").is_some() {
        return None;
    }
    let (start, value) = field(location, "column").or_else(|| field(location, "line"))?;
    let at = start + value.len();
    Some(format!(
        "{}{SCOPE_FIELD}!{scope}{}",
        &location[..at],
        &location[at..]
    ))
}

/// `location` as the view wrote it with its true line and column back;
/// the next location steps from it when `is_base`.
fn true_position(
    location: &str,
    nodes: &Nodes,
    steps: &mut Steps,
    is_base: bool,
) -> Option<String> {
    let scoped = steps.scope.and_then(|scope| with_scope(location, scope));
    let location = scoped.as_deref().unwrap_or(location);
    let (_, line) = field(location, "line")?;
    let column = field(location, "column").map(|(_, c)| c);
    let written = (line, column.unwrap_or("0"));
    let place = place_of(location)?;
    let read = steps.read(nodes, place, written, is_base);
    steps.writes_scope(place.0, is_base);
    let (line, column_value) = read?;
    let location = with_field(location, "line", &line.to_string())?;
    match column {
        Some(_) => with_field(&location, "column", &column_value.to_string()),
        None => Some(location),
    }
}

/// Undoes the steps of [`inline`]: every inline location of a body line
/// gets its true line back (it stays inline: LLVM reads that).
pub(crate) fn absolute(text: &str) -> String {
    if !text.contains("!dbg !DILocation(") && !text.contains(", !DILocation(") {
        return text.to_string();
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let nodes = Nodes::of(&lines);
    let mut out = String::with_capacity(text.len());
    for_each_line(text, |line, body, steps| match body {
        true => out.push_str(&absolute_line(line, &nodes, steps)),
        false => out.push_str(line),
    });
    out
}

/// A body line with the line of its inline location made true.
fn absolute_line(line: &str, nodes: &Nodes, steps: &mut Steps) -> String {
    let Some(start) = line.find("!DILocation(") else {
        return line.to_string();
    };
    let Some(len) = line[start..].find(')') else {
        return line.to_string();
    };
    let location = &line[start..start + len + 1];
    let fixed = true_position(location, nodes, steps, !is_record(line));
    let fixed = fixed.as_deref().unwrap_or(location);
    format!("{}{fixed}{}", &line[..start], &line[start + len + 1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "define void @f() !dbg !7 {\n\
                        entry:\n\
                        \x20 #dbg_value(i32 0, !9, !DIExpression(), !10)\n\
                        \x20 store i32 0, ptr null, !dbg !10\n\
                        \x20 br label %entry, !dbg !11, !llvm.loop !12\n\
                        \x20 ret void, !dbg !13\n\
                        }\n\
                        !7 = distinct !DISubprogram(name: \"f\", line: 40, scopeLine: 41)\n\
                        !8 = distinct !DILexicalBlock(scope: !7, line: 42, column: 3)\n\
                        !9 = !DILocalVariable(name: \"x\", scope: !8, line: 42)\n\
                        !10 = !DILocation(line: 43, column: 7, scope: !8, atomGroup: 5, atomRank: 1)\n\
                        !11 = !DILocation(line: 42, column: 3, scope: !8, atomGroup: 3, atomRank: 1)\n\
                        !12 = distinct !{!12, !11}\n\
                        !13 = !DILocation(line: 0, scope: !7)\n";

    #[test]
    fn locations_are_inline_in_steps_and_come_back() {
        let v = inline(TEXT);
        assert!(
            v.contains(
                "!DIExpression(), !DILocation(line: scope+1, column: 7, scope: !8, atomGroup: "
            ),
            "{v}"
        );
        // The record's location is no base: the store steps from the scope.
        assert!(
            v.contains("store i32 0, ptr null, !dbg !DILocation(line: scope+1, column: 7, scope: !8, atomGroup: "),
            "{v}"
        );
        // The branch is in the store's scope: it does not write it again.
        assert!(
            v.contains("!dbg !DILocation(line: -1, column: 3, atomGroup: "),
            "{v}"
        );
        assert!(v.contains("!dbg !DILocation(line: 0, scope: !7)\n"), "{v}");
        // Only the loop's bound stays a node.
        assert!(!v.contains("!10 = ") && v.contains("!11 = ") && !v.contains("!13 = "));
        let back = absolute(&v);
        assert!(
            back.contains("!dbg !DILocation(line: 43, column: 7"),
            "{back}"
        );
        assert!(
            back.contains("!dbg !DILocation(line: 42, column: 3"),
            "{back}"
        );
        assert!(
            back.contains("!DIExpression(), !DILocation(line: 43, column: 7"),
            "{back}"
        );
        assert!(
            back.contains("!dbg !DILocation(line: 0, scope: !7)\n"),
            "{back}"
        );
    }

    /// An `if` added around two statements moves them into a new lexical
    /// block: the first location in it writes the new scope, the second
    /// (in the same scope as the one before it) writes none, so only the
    /// first changes; the view reads back to the true scopes.
    #[test]
    fn statements_moved_into_a_new_scope_write_it_once() {
        let body = |scope: u32| {
            format!(
                "define void @h() !dbg !7 {{\n\
                 entry:\n\
                 \x20 %c = icmp eq i32 1, 2, !dbg !20\n\
                 \x20 %m = mul i32 1, 2, !dbg !21\n\
                 \x20 %a = add i32 %m, 7, !dbg !22\n\
                 }}\n\
                 !7 = distinct !DISubprogram(name: \"h\", line: 40, scopeLine: 41)\n\
                 !8 = distinct !DILexicalBlock(scope: !7, line: 42, column: 3)\n\
                 !20 = !DILocation(line: 42, column: 7, scope: !7)\n\
                 !21 = !DILocation(line: 43, column: 11, scope: !{scope})\n\
                 !22 = !DILocation(line: 43, column: 15, scope: !{scope})\n"
            )
        };
        let (old, new) = (inline(&body(7)), inline(&body(8)));
        assert!(
            new.contains("%a = add i32 %m, 7, !dbg !DILocation(line: +0, column: +4)\n"),
            "{new}"
        );
        let changed = old.lines().zip(new.lines()).filter(|(a, b)| a != b).count();
        assert_eq!(changed, 1, "{old}\n{new}");
        let back = absolute(&new);
        assert!(
            back.contains(
                "%a = add i32 %m, 7, !dbg !DILocation(line: 43, column: 15, scope: !8)\n"
            ),
            "{back}"
        );
        assert!(
            absolute(&old)
                .contains("%m = mul i32 1, 2, !dbg !DILocation(line: 43, column: 11, scope: !7)\n"),
            "{}",
            absolute(&old)
        );
    }

    /// `s = b * c + 7;` evaluates `b * c`, then `+ 7`, then stores at `=`:
    /// the columns go right, then back left. `*` made `<<` (one column
    /// longer) moves `+` but not `=`; the step back to `=` is written as its
    /// column, so only the step to `+` changes.
    #[test]
    fn a_longer_operator_changes_one_column_step() {
        let body = |plus: u32| {
            format!(
                "define void @g() !dbg !7 {{\n\
                 entry:\n\
                 \x20 %m = mul i32 1, 2, !dbg !20\n\
                 \x20 %a = add i32 %m, 7, !dbg !21\n\
                 \x20 store i32 %a, ptr null, !dbg !22\n\
                 }}\n\
                 !7 = distinct !DISubprogram(name: \"g\", line: 40, scopeLine: 41)\n\
                 !20 = !DILocation(line: 42, column: 11, scope: !7)\n\
                 !21 = !DILocation(line: 42, column: {plus}, scope: !7)\n\
                 !22 = !DILocation(line: 42, column: 5, scope: !7)\n"
            )
        };
        let (old, new) = (inline(&body(15)), inline(&body(16)));
        assert!(new.contains("line: +0, column: +5)"), "{new}");
        assert!(new.contains("line: +0, column: 5)"), "{new}");
        let changed = old.lines().zip(new.lines()).filter(|(a, b)| a != b).count();
        assert_eq!(changed, 1, "{old}\n{new}");
        assert!(absolute(&new)
            .contains("store i32 %a, ptr null, !dbg !DILocation(line: 42, column: 5,"));
    }
}
