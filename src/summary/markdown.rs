//! `irgit diff --markdown REV1 REV2`: a pull-request comment in
//! GitHub-flavoured Markdown. Per changed IR file a heading and a table with
//! one row per function that changed, was added, removed or renamed (the
//! counts `--stat` shows), then each function's `--matched` diff in a
//! collapsed `<details>` block. A hidden first line lets a bot find its
//! comment and update it in place; the same inputs give the same bytes.
//!
//! ````text
//! a.ll at REV1                      a.ll at REV2
//! define i32 @f(i32 %x) {           define i32 @f(i32 %x) {
//!   %1 = add i32 %x, 1                %1 = add i32 %x, 2
//!
//! $ irgit diff --markdown REV1 REV2
//! <!-- irgit-diff -->
//! ## LLVM IR changes in `REV1..REV2`
//!
//! 1 file, 1 function: 1 changed
//!
//! ### `a.ll`
//!
//! | function | change | + | - | details |
//! |---|---|--:|--:|---|
//! | `@f` | changed | 1 | 1 | +0 -0 \~1 instructions |
//!
//! <details><summary><code>@f</code> changed, +1 -1</summary>
//!
//! ```diff
//! @@ -1,4 +1,4 @@ define i32 @f(i32 %x)
//!  define i32 @f(i32 %x) {
//! -  %1 = add i32 %x, 1
//! +  %1 = add i32 %x, 2
//! ...
//! ```
//!
//! </details>
//! ````
//!
//! Nothing of the IR is read as Markdown or HTML: the diff sits in a fence
//! longer than any run of backticks in it, names in tables are code spans
//! (with `|` escaped, as GitHub's tables need), and `<summary>` text is
//! HTML-escaped. Past GitHub's comment limit ([`LIMIT`] characters) the
//! tables stay, a diff that does not fit is left out whole, and a line
//! names what was left out.

use std::fmt::Write;

use super::html::page::escape;
use super::render::detail;
use super::{FunctionReport, Report, Status};

/// The hidden first line a bot looks for to find its comment.
pub(crate) const MARKER: &str = "<!-- irgit-diff -->";

/// GitHub's limit on a comment's body, in characters.
pub(crate) const LIMIT: usize = 65_536;

/// Room kept for the line that names left-out diffs (it is cut to fit).
const NOTE_ROOM: usize = 4_000;

/// One changed IR file.
pub(crate) struct FileEntry {
    pub(crate) path: String,
    pub(crate) outcome: Outcome,
}

/// A file compared, or why it could not be.
pub(crate) enum Outcome {
    Compared(Box<Compared>),
    /// LLVM rejects a side: its complaint and git's own line counts.
    Rejected {
        why: String,
        added: usize,
        removed: usize,
    },
}

/// A compared file: the report and the `--matched` diff of each function
/// [`shown`] (in that order), and of the lines outside functions.
pub(crate) struct Compared {
    pub(crate) report: Report,
    pub(crate) functions: Vec<String>,
    pub(crate) module: String,
}

/// The functions a comment lists: all but the unchanged, in the report's
/// order (by name).
pub(crate) fn shown(report: &Report) -> impl Iterator<Item = &FunctionReport> {
    report
        .functions
        .iter()
        .filter(|f| f.status != Status::Unchanged)
}

/// A code span of `text` (a backtick run longer than any inside it).
fn code(text: &str) -> String {
    let fence = "`".repeat(longest_backticks(text) + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A code span for a table cell: `|` escaped, as GitHub's tables read it.
fn cell_code(text: &str) -> String {
    code(text).replace('|', "\\|")
}

/// The characters that can start Markdown or HTML inside a table cell.
const INLINE_SPECIAL: &str = "\\`*_[]<>|&!~";

/// Plain text for a table cell: every character that could be read as
/// Markdown or HTML escaped.
fn cell_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if INLINE_SPECIAL.contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn longest_backticks(text: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// `+` and `-` as `--stat` counts them: instructions added or changed,
/// removed or changed.
fn plus_minus(f: &FunctionReport) -> (usize, usize) {
    let i = &f.instructions;
    (i.added + i.changed, i.removed + i.changed)
}

/// A function's name in a table cell (`@old` → `@new` for a rename).
fn name_cell(f: &FunctionReport) -> String {
    match &f.old_name {
        Some(o) => format!("{} → {}", cell_code(o), cell_code(&f.name)),
        None => cell_code(&f.name),
    }
}

/// A function's name in a `<summary>` (HTML).
fn name_html(f: &FunctionReport) -> String {
    let one = |n: &str| format!("<code>{}</code>", escape(n));
    match &f.old_name {
        Some(o) => format!("{} → {}", one(o), one(&f.name)),
        None => one(&f.name),
    }
}

/// A collapsed block: `summary` (HTML) over `diff` in a fence no line of it
/// can close.
fn details(summary: &str, diff: &str) -> String {
    if diff.is_empty() {
        return format!(
            "<details><summary>{summary}</summary>\n\nNo line differs in the file as written.\n\n</details>\n\n"
        );
    }
    let fence = "`".repeat((longest_backticks(diff) + 1).max(3));
    format!("<details><summary>{summary}</summary>\n\n{fence}diff\n{diff}{fence}\n\n</details>\n\n")
}

/// A part of the comment: text that always stays, a table (whose rows
/// stay unless the tables alone pass the limit), or a diff block that may be
/// left out (with the name the note gives it).
enum Part {
    Fixed(String),
    Table {
        head: String,
        rows: Vec<String>,
        tail: String,
    },
    Block {
        text: String,
        name: String,
    },
}

/// Module-level changes listed by name, at most this many.
const GLOBALS_LISTED: usize = 20;

/// `Module level: changed global `@g`, added declaration `@puts`.`
fn module_line(report: &Report) -> String {
    let globals = &report.globals;
    if globals.is_empty() {
        return String::new();
    }
    let mut listed: Vec<String> = globals
        .iter()
        .take(GLOBALS_LISTED)
        .map(|g| format!("{} {} {}", g.status.label(), g.kind.label(), code(&g.name)))
        .collect();
    if globals.len() > GLOBALS_LISTED {
        listed.push(format!("and {} more", globals.len() - GLOBALS_LISTED));
    }
    format!("Module level: {}.\n\n", listed.join(", "))
}

/// The table of a compared file, its module-level line, and its blocks.
fn compared_parts(path: &str, c: &Compared, parts: &mut Vec<Part>) {
    let functions: Vec<&FunctionReport> = shown(&c.report).collect();
    let rows = functions
        .iter()
        .map(|f| {
            let (p, m) = plus_minus(f);
            let (name, status) = (name_cell(f), f.status.label());
            format!(
                "| {name} | {status} | {p} | {m} | {} |\n",
                cell_text(&detail(f))
            )
        })
        .collect();
    let tail = format!("\n{}", module_line(&c.report));
    if functions.is_empty() {
        parts.push(Part::Fixed(format!(
            "No function changed (the change is in names, order or numbering only).\n{tail}"
        )));
    } else {
        let head = "| function | change | + | - | details |\n|---|---|--:|--:|---|\n".to_string();
        parts.push(Part::Table { head, rows, tail });
    }
    for (f, diff) in functions.iter().zip(&c.functions) {
        let (p, m) = plus_minus(f);
        let summary = format!("{} {}, +{p} -{m}", name_html(f), f.status.label());
        parts.push(Part::Block {
            text: details(&summary, diff),
            name: format!("{} {}", code(path), code(&f.name)),
        });
    }
    if !c.module.is_empty() {
        parts.push(Part::Block {
            text: details("outside functions (globals, declarations)", &c.module),
            name: format!("{} (outside functions)", code(path)),
        });
    }
}

/// The parts of one file: its heading, then its table or the row saying
/// LLVM rejects it.
fn file_parts(file: &FileEntry, parts: &mut Vec<Part>) {
    parts.push(Part::Fixed(format!("### {}\n\n", code(&file.path))));
    match &file.outcome {
        Outcome::Compared(c) => compared_parts(&file.path, c, parts),
        Outcome::Rejected {
            why,
            added,
            removed,
        } => parts.push(Part::Fixed(format!(
            "| file | change | + | - | details |\n|---|---|--:|--:|---|\n\
             | {} | not compared | {added} | {removed} | LLVM rejects it: {} (line counts: git's) |\n\n",
            cell_code(&file.path),
            cell_code(why)
        ))),
    }
}

/// `1 file, 3 functions: 1 changed, 1 added, 1 renamed`.
fn totals(files: &[FileEntry]) -> String {
    let mut counts = [0usize; 4];
    let mut rejected = 0;
    for file in files {
        match &file.outcome {
            Outcome::Compared(c) => {
                let t = &c.report.summary;
                for (n, x) in counts
                    .iter_mut()
                    .zip([t.changed, t.added, t.removed, t.renamed])
                {
                    *n += x;
                }
            }
            Outcome::Rejected { .. } => rejected += 1,
        }
    }
    let words = ["changed", "added", "removed", "renamed"];
    let listed: Vec<String> = counts
        .iter()
        .zip(words)
        .filter(|(n, _)| **n > 0)
        .map(|(n, w)| format!("{n} {w}"))
        .collect();
    let n: usize = counts.iter().sum();
    let mut line = format!(
        "{} {}, {n} function{}",
        files.len(),
        if files.len() == 1 { "file" } else { "files" },
        if n == 1 { "" } else { "s" }
    );
    if !listed.is_empty() {
        let _ = write!(line, ": {}", listed.join(", "));
    }
    if rejected > 0 {
        let _ = write!(line, "; {rejected} not compared (LLVM rejects them)");
    }
    line
}

/// The comment for the range `rev1..rev2` and its changed IR files (sorted
/// by path).
pub(crate) fn comment(rev1: &str, rev2: &str, files: &[FileEntry]) -> String {
    let head = format!(
        "{MARKER}\n## LLVM IR changes in {}\n\n",
        code(&format!("{rev1}..{rev2}"))
    );
    if files.is_empty() {
        return format!("{head}No IR changes.\n");
    }
    let mut parts = Vec::new();
    for file in files {
        file_parts(file, &mut parts);
    }
    let head = format!("{head}{}\n\n", totals(files));
    fit(&head, &parts)
}

/// Characters of a text, as GitHub counts a comment's length.
fn chars(text: &str) -> usize {
    text.chars().count()
}

/// Room for the line that ends a table cut short.
const CUT_ROOM: usize = 80;

/// The length of a part as GitHub counts it, and of its table rows alone.
fn lengths(p: &Part) -> (usize, usize) {
    match p {
        Part::Fixed(t) | Part::Block { text: t, .. } => (chars(t), 0),
        Part::Table { head, rows, tail } => {
            let rows: usize = rows.iter().map(|r| chars(r)).sum();
            (chars(head) + rows + chars(tail), rows)
        }
    }
}

/// The comment within [`LIMIT`]: every fixed part and table, and the
/// blocks that fit (in order; one that does not is left out whole and named
/// in a note). Should the tables alone pass the limit, each keeps the rows
/// that fit and says how many it leaves out, and no block is shown.
fn fit(head: &str, parts: &[Part]) -> String {
    let (mut all, mut fixed, mut rows, mut tables) = (chars(head), chars(head), 0, 0);
    for p in parts {
        let (len, row_len) = lengths(p);
        all += len;
        if !matches!(p, Part::Block { .. }) {
            fixed += len;
            rows += row_len;
            tables += usize::from(matches!(p, Part::Table { .. }));
        }
    }
    let mut room = match all <= LIMIT {
        true => usize::MAX,
        false => LIMIT.saturating_sub(fixed + NOTE_ROOM),
    };
    let mut row_room = usize::MAX;
    if fixed + NOTE_ROOM > LIMIT {
        row_room = LIMIT.saturating_sub(fixed - rows + NOTE_ROOM + tables * CUT_ROOM);
        room = 0;
    }
    let (mut body, mut left_out) = (String::new(), Vec::new());
    for p in parts {
        match p {
            Part::Fixed(t) => body.push_str(t),
            Part::Table { head, rows, tail } => {
                body.push_str(head);
                let kept = rows
                    .iter()
                    .take_while(|r| match row_room.checked_sub(chars(r)) {
                        Some(left) => {
                            row_room = left;
                            true
                        }
                        None => false,
                    })
                    .count();
                rows[..kept].iter().for_each(|r| body.push_str(r));
                if kept < rows.len() {
                    row_room = 0;
                    let n = rows.len() - kept;
                    let _ = writeln!(
                        body,
                        "\n{n} more function{} not listed: past GitHub's comment limit.",
                        if n == 1 { "" } else { "s" }
                    );
                }
                body.push_str(tail);
            }
            Part::Block { text, name } => match room.checked_sub(chars(text)) {
                Some(left) => {
                    room = left;
                    body.push_str(text);
                }
                None => left_out.push(name.as_str()),
            },
        }
    }
    format!("{head}{}{body}", note(&left_out))
}

/// The line naming the diffs left out, cut to [`NOTE_ROOM`].
fn note(left_out: &[&str]) -> String {
    if left_out.is_empty() {
        return String::new();
    }
    let mut line = format!(
        "**{} diff{} left out** to stay within GitHub's {LIMIT}-character comment limit \
         (the tables list every function):",
        left_out.len(),
        if left_out.len() == 1 { "" } else { "s" }
    );
    for (k, name) in left_out.iter().enumerate() {
        let rest = format!(" and {} more", left_out.len() - k);
        if chars(&line) + chars(name) + 2 + chars(&rest) + 3 > NOTE_ROOM {
            line.push_str(&rest);
            break;
        }
        line.push_str(if k == 0 { " " } else { ", " });
        line.push_str(name);
    }
    line.push_str(".\n\n");
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_outlast_the_backticks_inside() {
        assert_eq!(code("@f"), "`@f`");
        assert_eq!(code("@\"a`b\""), "``@\"a`b\"``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(cell_code("@\"a|b\""), "`@\"a\\|b\"`");
        assert_eq!(cell_text("+1 -0 ~2 <x>"), "+1 -0 \\~2 \\<x\\>");
    }

    #[test]
    fn a_fence_is_longer_than_any_backtick_run_of_the_diff() {
        let block = details("s", "+  %x = load ptr @\"a````b\"\n");
        assert!(block.contains("\n`````diff\n+  %x"), "{block}");
        assert!(block.contains("\"\n`````\n\n</details>"), "{block}");
        assert!(details("s", "-a\n").contains("\n```diff\n-a\n```\n"));
    }

    #[test]
    fn tables_past_the_limit_keep_the_rows_that_fit_and_count_the_rest() {
        let rows: Vec<String> = (0..5000)
            .map(|i| format!("| `@f{i}` | changed | 1 | 1 | +0 -0 \\~1 instructions |\n"))
            .collect();
        let parts = [
            Part::Table {
                head: "| h |\n|---|\n".to_string(),
                rows,
                tail: "\n".to_string(),
            },
            Part::Block {
                text: "<details>x</details>\n\n".to_string(),
                name: "`@f0`".to_string(),
            },
        ];
        let out = fit("head\n\n", &parts);
        assert!(chars(&out) <= LIMIT, "{}", chars(&out));
        let kept = out.lines().filter(|l| l.starts_with("| `@f")).count();
        assert!(kept > 1000, "{kept}");
        assert!(out.contains(&format!("\n\n{} more functions not listed", 5000 - kept)));
        assert!(out.contains("**1 diff left out**") && !out.contains("<details>"));
    }

    #[test]
    fn the_note_names_what_it_can_and_counts_the_rest() {
        let names: Vec<String> = (0..2000).map(|i| format!("`@f{i}`")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let line = note(&refs);
        assert!(chars(&line) <= NOTE_ROOM, "{}", chars(&line));
        assert!(line.starts_with("**2000 diffs left out**"));
        assert!(line.contains("`@f0`, `@f1`,"));
        assert!(line.trim_end().ends_with("more."), "{line}");
        assert_eq!(note(&[]), "");
    }
}
