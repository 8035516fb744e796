//! The output forms of `irgit diff`: the short summary, `--stat`, `-p`
//! (the matched canonical diff of each changed function, the function as
//! the hunk header: the new side in the old side's names) and `--json`,
//! with optional ANSI colour.
//!
//! ```text
//! summary                                   --stat
//! functions: 1 changed, 1 added, 3 unchanged   @main        |  7 +++++--
//!   changed  @main   +4 -1 ~1 instructions      @helper (new) |  5 +++++
//!   added    @helper 5 instructions            2 functions changed, 11 insertions(+), 2 deletions(-)
//!
//! -p                                  (line numbers count from the `define` line)
//! @@ -12,6 +12,8 @@ define i32 @main() #0
//!    %add.5e1c = add i32 %arg0, 1
//! -  %mul.c2a9 = mul i32 %add.5e1c, 3
//! +  %mul.0b1d = mul i32 %add.5e1c, 4
//! ```

use std::collections::BTreeMap;
use std::fmt::Write;

use super::side::Side;
use super::{FunctionReport, MoveKind, Report, Status};
use crate::compare::diff;
use crate::compare::rename::replace_globals;

/// ANSI colours, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paint {
    pub on: bool,
}

const RESET: &str = "\x1b[m";
pub(crate) const RED: &str = "\x1b[31m";
pub(crate) const GREEN: &str = "\x1b[32m";
pub(crate) const YELLOW: &str = "\x1b[33m";
pub(crate) const CYAN: &str = "\x1b[36m";
pub(crate) const MAGENTA: &str = "\x1b[35m";
pub(crate) const BOLD: &str = "\x1b[1m";

impl Paint {
    /// `text` in `colour` when colour is on.
    pub(crate) fn paint(&self, colour: &str, text: &str) -> String {
        if self.on && !text.is_empty() {
            format!("{colour}{text}{RESET}")
        } else {
            text.to_string()
        }
    }

    fn status(&self, s: Status) -> String {
        let colour = match s {
            Status::Added => GREEN,
            Status::Removed => RED,
            Status::Renamed => CYAN,
            Status::Changed => YELLOW,
            Status::Unchanged => "",
        };
        self.paint(colour, &format!("{:<9}", s.label()))
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `@old -> @new` for renames, the name otherwise.
pub(crate) fn display_name(f: &FunctionReport) -> String {
    match &f.old_name {
        Some(o) => format!("{o} -> {}", f.name),
        None => f.name.clone(),
    }
}

pub(crate) fn detail(f: &FunctionReport) -> String {
    let i = &f.instructions;
    let b = &f.blocks;
    match f.status {
        Status::Added => format!(
            "{}, {}",
            plural(i.new, "instruction"),
            plural(b.new, "block")
        ),
        Status::Removed => format!(
            "{}, {}",
            plural(i.old, "instruction"),
            plural(b.old, "block")
        ),
        Status::Unchanged => String::new(),
        Status::Renamed if !f.changed => String::new(),
        Status::Renamed | Status::Changed => {
            let mut parts = Vec::new();
            if i.added + i.removed + i.changed > 0 {
                parts.push(format!(
                    "+{} -{} ~{} instructions",
                    i.added, i.removed, i.changed
                ));
            }
            if b.added + b.removed > 0 {
                parts.push(format!("+{} -{} blocks", b.added, b.removed));
            }
            if f.signature_changed {
                parts.push("signature or attributes".to_string());
            }
            if let Some(s) = f.similarity {
                parts.push(format!("similarity {:.0}%", s * 100.0));
            }
            parts.join(", ")
        }
    }
}

/// The default output: counts, one line per function that is not
/// unchanged, moved code, module-level changes.
pub fn summary(r: &Report, paint: Paint) -> String {
    let mut out = String::new();
    write_functions(&mut out, r, paint);
    write_moved(&mut out, r, paint);
    write_globals(&mut out, r, paint);
    let a = &r.attributes;
    if !a.added.is_empty() || !a.removed.is_empty() {
        let _ = writeln!(out, "attributes used by instructions:");
        for x in &a.added {
            let _ = writeln!(out, "  {} {x}", paint.paint(GREEN, "+"));
        }
        for x in &a.removed {
            let _ = writeln!(out, "  {} {x}", paint.paint(RED, "-"));
        }
    }
    out
}

/// `functions: 1 changed, 3 unchanged`, then one line per function that is
/// not unchanged.
fn write_functions(out: &mut String, r: &Report, paint: Paint) {
    let t = &r.summary;
    let mut counts = Vec::new();
    for (n, what) in [
        (t.changed, "changed"),
        (t.added, "added"),
        (t.removed, "removed"),
        (t.renamed, "renamed"),
        (t.unchanged, "unchanged"),
    ] {
        if n > 0 || what == "unchanged" {
            counts.push(format!("{n} {what}"));
        }
    }
    let _ = writeln!(out, "functions: {}", counts.join(", "));
    let shown = || r.functions.iter().filter(|f| f.status != Status::Unchanged);
    let width = shown().map(|f| display_name(f).len()).max().unwrap_or(0);
    for f in shown() {
        let d = detail(f);
        let line = format!(
            "  {} {:<width$}  {d}",
            paint.status(f.status),
            display_name(f)
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// `moved: 6 instructions moved from @f to @g`, with the ranges.
fn write_moved(out: &mut String, r: &Report, paint: Paint) {
    for m in &r.moved {
        let verb = match m.kind {
            MoveKind::Moved => "moved",
            MoveKind::Copied => "copied",
        };
        let _ = writeln!(
            out,
            "{}: {} {verb} from {} to {}",
            paint.paint(super::render::MAGENTA, verb),
            plural(m.instructions, "instruction"),
            m.from,
            m.to
        );
        for x in &m.ranges {
            let _ = writeln!(
                out,
                "  {} %{} [{}..{}] (line {}) -> {} %{} [{}..{}] (line {})",
                x.from.function,
                x.from.block,
                x.from.first,
                x.from.last,
                x.from.line,
                x.to.function,
                x.to.block,
                x.to.first,
                x.to.last,
                x.to.line
            );
        }
    }
}

/// `module:` and one line per global, alias or declaration that changed.
fn write_globals(out: &mut String, r: &Report, paint: Paint) {
    if r.globals.is_empty() {
        return;
    }
    let _ = writeln!(out, "module:");
    for g in &r.globals {
        let colour = match g.status {
            super::Change::Added => GREEN,
            super::Change::Removed => RED,
            super::Change::Changed => YELLOW,
        };
        let name = match &g.old_name {
            Some(o) => format!("{o} -> {}", g.name),
            None => g.name.clone(),
        };
        let _ = writeln!(
            out,
            "  {} {:<11} {name}",
            paint.paint(colour, &format!("{:<9}", g.status.label())),
            g.kind.label()
        );
    }
}

/// `--stat`: one line per function that is not unchanged, with a bar of
/// `+` (instructions added or changed) and `-` (removed or changed),
/// scaled to fit `columns`.
pub fn stat(r: &Report, paint: Paint, columns: usize) -> String {
    let rows: Vec<(String, usize, usize)> = r
        .functions
        .iter()
        .filter(|f| f.status != Status::Unchanged)
        .map(|f| {
            let i = &f.instructions;
            let name = match f.status {
                Status::Added => format!("{} (new)", f.name),
                Status::Removed => format!("{} (gone)", f.name),
                Status::Renamed => format!("{} => {}", f.old_name.as_deref().unwrap_or(""), f.name),
                _ => f.name.clone(),
            };
            (name, i.added + i.changed, i.removed + i.changed)
        })
        .collect();
    let mut out = String::new();
    let name_w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let max = rows.iter().map(|r| r.1 + r.2).max().unwrap_or(0);
    let num_w = max.to_string().len();
    let room = columns.saturating_sub(name_w + num_w + 6).max(10);
    for (name, plus, minus) in &rows {
        let total = plus + minus;
        let (p, m) = if max <= room {
            (*plus, *minus)
        } else {
            // Scale, keeping at least one mark for a non-zero count.
            let scale = |x: usize| {
                if x == 0 {
                    0
                } else {
                    (x * room / max).max(1)
                }
            };
            (scale(*plus), scale(*minus))
        };
        let _ = writeln!(
            out,
            " {name:<name_w$} | {total:>num_w$} {}{}",
            paint.paint(GREEN, &"+".repeat(p)),
            paint.paint(RED, &"-".repeat(m))
        );
    }
    let plus: usize = rows.iter().map(|r| r.1).sum();
    let minus: usize = rows.iter().map(|r| r.2).sum();
    let _ = writeln!(
        out,
        " {} changed, {}(+), {}(-)",
        plural(rows.len(), "function"),
        plural(plus, "insertion"),
        plural(minus, "deletion")
    );
    out
}

/// Raw lines `[first, last]` (1-based) of a text cut into `lines`.
fn span<'t>(lines: &[&'t str], first: usize, last: usize) -> Vec<&'t str> {
    if first == 0 {
        return Vec::new();
    }
    lines
        .iter()
        .skip(first - 1)
        .take(last + 1 - first)
        .copied()
        .collect()
}

/// `-p`: the matched diff of each function that is not unchanged, with
/// three lines of context and the function as the hunk header. The new side
/// is written in the old side's names wherever the matching pairs values and
/// blocks ([`super::compare::names_in_old`]), so a value the edit renamed
/// in the canonical form reads the same on both sides; lines that differ
/// only in metadata or attribute numbering are context.
pub fn patch<'a>(r: &Report, old: &'a Side, new: &'a Side, paint: Paint) -> String {
    let undo: BTreeMap<String, String> = r
        .functions
        .iter()
        .filter_map(|g| g.old_name.clone().map(|o| (g.name.clone(), o)))
        .collect();
    // Each side's text cut into lines once, not once per function.
    let (old_lines, new_lines): (Vec<&str>, Vec<&str>) =
        (old.text.lines().collect(), new.text.lines().collect());
    let mut out = String::new();
    let _ = writeln!(out, "{}", paint.paint(BOLD, &format!("--- a/{}", r.old)));
    let _ = writeln!(out, "{}", paint.paint(BOLD, &format!("+++ b/{}", r.new)));
    for f in &r.functions {
        if !f.changed {
            continue;
        }
        let of = f.old_index.map(|i| &old.funcs[i]);
        let nf = f.new_index.map(|i| &new.funcs[i]);
        let names = match (of, nf) {
            (Some(o), Some(n)) => super::compare::names_in_old(o, n),
            _ => Default::default(),
        };
        // A side's lines of the function (the new side's in old names), and their keys.
        let none = Default::default();
        let lines = |side: &'a Side,
                     all: &[&'a str],
                     x: Option<&super::side::FuncKeys>,
                     undo: &BTreeMap<String, String>,
                     names: &rustc_hash::FxHashMap<String, String>| {
            let Some(x) = x else {
                return (Vec::new(), Vec::new());
            };
            let raw: Vec<String> = span(all, x.first_line, x.last_line)
                .into_iter()
                .map(|l| in_names(l, names))
                .collect();
            let keys = raw
                .iter()
                .map(|l| replace_globals(&side.key(l, Some(&x.name)), undo))
                .collect::<Vec<String>>();
            (raw, keys)
        };
        let (mut o_lines, ok) = lines(old, &old_lines, of, &BTreeMap::new(), &none);
        let (mut n_lines, nk) = lines(new, &new_lines, nf, &undo, &names);
        let header = n_lines
            .first()
            .or(o_lines.first())
            .cloned()
            .unwrap_or_default();
        let header = header.trim_end_matches('{').trim_end().to_string();
        // A `define` line that reads the same up to the numbers of the
        // attribute groups it names (they are numbered by content), but
        // whose groups changed: say what the groups are.
        if let (Some(a), Some(b)) = (o_lines.first_mut(), n_lines.first_mut()) {
            if without_attribute_numbers(a) == without_attribute_numbers(b)
                && ok.first() != nk.first()
            {
                annotate_attribute_groups(a, old);
                annotate_attribute_groups(b, new);
            }
        }
        write_hunks(
            &mut out,
            (&o_lines, &ok),
            (&n_lines, &nk),
            &|_| header.clone(),
            paint,
        );
    }
    out
}

/// `line` with every attribute group reference written `#`.
fn without_attribute_numbers(line: &str) -> String {
    crate::text::rewrite(line, |r| {
        matches!(r, crate::text::Ref::Attr(_)).then(|| "#".to_string())
    })
}

/// A line with its locals renamed through `names` (references, a block's
/// own label, the blocks LLVM's `; preds =` comment lists).
fn in_names(line: &str, names: &rustc_hash::FxHashMap<String, String>) -> String {
    if names.is_empty() {
        return line.to_string();
    }
    let out = crate::text::rewrite(line, |r| match r {
        crate::text::Ref::Local(x) => names.get(x).map(|n| format!("%{n}")),
        _ => None,
    });
    let label_end = out
        .bytes()
        .position(|c| !crate::text::is_id_byte(c))
        .filter(|&e| e > 0 && out[e..].starts_with(':'));
    match label_end.and_then(|e| names.get(&out[..e]).map(|n| (e, n))) {
        Some((e, n)) => format!("{n}{}", &out[e..]),
        None => out,
    }
}

/// Appends `; #N = { ... }` for every attribute group a line names.
fn annotate_attribute_groups(line: &mut String, side: &Side) {
    let mut groups = Vec::new();
    crate::text::rewrite_with(line, |r, _| {
        if let crate::text::Ref::Attr(n) = r {
            if let Some(text) = side.attribute_group(n) {
                groups.push(format!("#{n} = {text}"));
            }
        }
        false
    });
    if !groups.is_empty() {
        line.push_str("  ; ");
        line.push_str(&groups.join(", "));
    }
}

/// One edit of a line diff.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Same(usize, usize),
    Del(usize),
    Ins(usize),
}

/// Writes the hunks of a line diff of `ol` and `nl`, compared by their keys
/// `ok` and `nk` (context lines are printed from `nl`); line numbers count
/// from the first line given (for `-p`, the function's `define` line, so
/// they do not depend on the rest of the module). `header` gives the text
/// after `@@ ... @@` from the old line (0-based) of the hunk's first change.
pub(crate) fn write_hunks(
    out: &mut String,
    (ol, ok): (&[String], &[String]),
    (nl, nk): (&[String], &[String]),
    header: &dyn Fn(usize) -> String,
    paint: Paint,
) {
    const CONTEXT: usize = 3;
    let ops = edit_script(ok, nk);
    // Group edits with their context into hunks.
    let changed: Vec<usize> = (0..ops.len())
        .filter(|&k| !matches!(ops[k], Op::Same(..)))
        .collect();
    let old_lines = |ops: &[Op]| ops.iter().filter(|o| !matches!(o, Op::Ins(_))).count();
    let new_lines = |ops: &[Op]| ops.iter().filter(|o| !matches!(o, Op::Del(_))).count();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let first_change = old_lines(&ops[..changed[k]]);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * CONTEXT + 1 {
            end = changed[k];
            k += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        let hunk = &ops[start..end];
        let range = |first: usize, n: usize| {
            if n == 0 {
                format!("{first},0")
            } else {
                format!("{},{n}", first + 1)
            }
        };
        let old = range(old_lines(&ops[..start]), old_lines(hunk));
        let new = range(new_lines(&ops[..start]), new_lines(hunk));
        let _ = writeln!(
            out,
            "{}{}",
            paint.paint(CYAN, &format!("@@ -{old} +{new} @@")),
            match header(first_change) {
                h if h.is_empty() => h,
                h => format!(" {h}"),
            }
        );
        write_ops(out, hunk, ol, nl, paint);
    }
}

/// The line-level edit script from keys `ok` to keys `nk`, along their
/// longest common subsequence.
fn edit_script(ok: &[String], nk: &[String]) -> Vec<Op> {
    let mut ops = Vec::new();
    let (mut i, mut j) = (0, 0);
    for (a, b) in diff::common(ok, nk)
        .into_iter()
        .chain(std::iter::once((ok.len(), nk.len())))
    {
        ops.extend((i..a).map(Op::Del));
        ops.extend((j..b).map(Op::Ins));
        if a < ok.len() {
            ops.push(Op::Same(a, b));
        }
        i = a + 1;
        j = b + 1;
    }
    ops
}

/// One hunk's lines: context from the new side, `-` old lines, `+` new.
fn write_ops(out: &mut String, hunk: &[Op], ol: &[String], nl: &[String], paint: Paint) {
    for op in hunk {
        let _ = match *op {
            Op::Same(_, b) => writeln!(out, " {}", nl[b]),
            Op::Del(a) => writeln!(out, "{}", paint.paint(RED, &format!("-{}", ol[a]))),
            Op::Ins(b) => writeln!(out, "{}", paint.paint(GREEN, &format!("+{}", nl[b]))),
        };
    }
}

/// `--json`: the [`Report`] (schema documented in the README, version
/// [`super::JSON_VERSION`]).
pub fn json(r: &Report) -> String {
    let mut s = serde_json::to_string_pretty(r).unwrap_or_else(|e| {
        format!(
            "{{\"version\": {}, \"error\": \"{e}\"}}",
            super::JSON_VERSION
        )
    });
    s.push('\n');
    s
}
