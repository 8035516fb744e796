//! Comments are content: the model that tells the user's comments from
//! LLVM's own and anchors each one to what it annotates.
//!
//! LLVM's parser drops every comment and its printer writes only its own
//! (`; ModuleID`, `; Function Attrs:`, `; preds = ...`). A `.ll` file in git
//! is usually a test whose `RUN:` and `CHECK:` lines are the point of the
//! file, so irgit reads the comments itself, anchors them, and prints them
//! again at their anchor's place in the canonical form:
//!
//! ```text
//! input                                   anchors
//! ; RUN: opt -S %s | FileCheck %s         Head
//!
//! ; CHECK-LABEL: @f                       Before(define @f)
//! define i32 @f(i32 %x) {
//! ; CHECK: add                            BodyStart(@f)   (a CHECK block on top of the body)
//!   ; one more                            Before(%y)
//!   %y = add i32 %x, 1   ; why            Trailing(%y)
//!   ret i32 %y
//!   ; done                                Before(}) = the end of @f
//! }
//! ; end of file                           End
//! ```
//!
//! Submodules: [`layout`] (lines and statements of textual IR) and
//! [`carry`] (anchors bound to LLVM objects, printed into the canonical text).

pub mod carry;
pub mod layout;

use layout::{Layout, LineKind, StmtKind};

/// Where a comment group belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anchor {
    /// The top of the file, before the first IR line.
    Head,
    /// After the last IR line.
    End,
    /// On the lines just before statement `stmt` (an index into
    /// [`Layout::stmts`]); before a `}` this is the end of the function.
    Before(usize),
    /// The top of the body of the function whose header is statement `stmt`.
    BodyStart(usize),
    /// At the end of line `line` (0 = first) of statement `stmt`.
    Trailing { stmt: usize, line: usize },
}

/// A group of user comment lines and its anchor. For trailing comments
/// `lines` holds one comment text (from its `;`); for the others whole
/// lines as written (blank lines between comments are empty strings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub anchor: Anchor,
    pub lines: Vec<String>,
}

/// Whether `c` is the `; (%base, %derived)` note LLVM's printer writes
/// after every `gc.relocate` call.
fn is_relocate_note(c: &str) -> bool {
    let Some(inner) = c.strip_prefix("; (").and_then(|r| r.strip_suffix(')')) else {
        return false;
    };
    let parts: Vec<&str> = inner.split(", ").collect();
    parts.len() == 2 && parts.iter().all(|p| p.starts_with('%') && !p.contains(' '))
}

/// Whether a comment is one LLVM's printer writes itself (and so
/// regenerates): never user content. The list is what LLVM 22's
/// `AsmWriter.cpp` writes: the module's `; ModuleID`, `; Materializable`
/// above a lazily read global or function, `; Function Attrs:` and
/// `; Unknown intrinsic` (an `llvm.` declaration it does not know) above a
/// function, a label's `; preds = ...` / `; No predecessors!` (and the
/// `; <label>:N` of older releases), the `; uselistorder directives`
/// heading, the `gc.relocate` note and the `; guid = N` after summary entries.
pub fn is_printer_comment(comment: &str) -> bool {
    let c = comment.trim();
    if is_relocate_note(c) {
        return true;
    }
    [
        "; ModuleID = ",
        "; Function Attrs:",
        "; <label>:",
        "; uselistorder directives",
        "; Materializable",
        "; Unknown intrinsic",
        "; guid = ",
        "; preds = ",
        "; No predecessors!",
    ]
    .iter()
    .any(|p| c.starts_with(p))
}

/// The user's part of a block label's trailing comment: LLVM writes
/// `; preds = %a, %b` or `; No predecessors!` there itself.
pub(crate) fn label_comment_user_part(comment: &str) -> &str {
    let c = comment.trim();
    if let Some(rest) = c.strip_prefix("; No predecessors!") {
        return rest.trim();
    }
    let Some(mut rest) = c.strip_prefix("; preds = ") else {
        return c;
    };
    loop {
        rest = rest.trim_start();
        if !rest.starts_with('%') {
            break;
        }
        let tok_len = name_token_len(rest);
        rest = rest[tok_len..].trim_start();
        match rest.strip_prefix(',') {
            Some(r) => rest = r,
            None => break,
        }
    }
    rest.trim()
}

/// The note a label's trailing `comment` carries: the user's part after
/// LLVM's `; preds = %a, %b`, or the whole comment when what follows
/// `; preds = ` is no list of LLVM's (`; preds = a, b`, written by hand):
/// a note is a comment, and the part after such a list is none.
fn label_note(comment: &str) -> &str {
    let user = label_comment_user_part(comment);
    match user.is_empty() || user.starts_with(';') {
        true => user,
        false => comment.trim(),
    }
}

/// Whether `comment` is a `; preds = a, b` that is no list of LLVM's
/// ([`label_note`]): on a line of its own, where the view carried it, it
/// stays.
fn is_users_preds_list(comment: &str) -> bool {
    let c = comment.trim();
    c.starts_with("; preds = ") && label_note(c) == c
}

/// Length of the `%name` / `%"quoted"` token at the start of `s`.
fn name_token_len(s: &str) -> usize {
    let b = s.as_bytes();
    if b.len() > 1 && b[1] == b'"' {
        return s[2..].find('"').map_or(s.len(), |e| e + 3);
    }
    1 + b[1..]
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'$' | b'.' | b'_' | b'-')))
        .unwrap_or(b.len() - 1)
}

/// Whether a comment looks like a FileCheck directive (`; CHECK:`,
/// `; CHECK-NEXT:`, `; X86-LABEL:`): an upper-case word, an optional
/// `-SUFFIX`, then `:`.
pub(crate) fn is_check_line(comment: &str) -> bool {
    let body = comment.trim_start_matches(';').trim_start();
    let Some(colon) = body.find(':') else {
        return false;
    };
    let word = &body[..colon];
    !word.is_empty()
        && word.as_bytes()[0].is_ascii_uppercase()
        && word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// Whether the file is a lit test: some comment holds a `RUN:` line.
pub(crate) fn is_lit_test(text: &str) -> bool {
    // Most files have no `RUN:` at all: one fast search says so, where
    // finding each line's comment costs a pass over every byte.
    if !text.contains("RUN:") {
        return false;
    }
    text.lines().any(|l| {
        layout::comment_start(l).is_some_and(|at| {
            let c = l[at..].trim_start_matches(';').trim_start();
            c.starts_with("RUN:") || c.contains(" RUN:")
        })
    })
}

/// Whether the file carries the header a compiler prints (`; ModuleID =`
/// or `source_filename =` as a line of its own): output of clang, `opt`
/// or a frontend, as opposed to IR a person wrote.
pub(crate) fn has_compiler_header(text: &str) -> bool {
    text.lines()
        .any(|l| l.starts_with("; ModuleID = ") || l.starts_with("source_filename = "))
}

/// The user's part of a comment found anywhere: empty for LLVM's own
/// comments, except what a user appended to a label's `; preds = ...`.
pub(crate) fn user_part(comment: &str) -> &str {
    if !is_printer_comment(comment) {
        return comment;
    }
    let c = comment.trim_start();
    if c.starts_with("; preds = ") || c.starts_with("; No predecessors!") {
        label_comment_user_part(c)
    } else {
        ""
    }
}

/// Whether `text` holds any comment that is not LLVM's own: without one,
/// the canonical form needs no comment work at all.
pub fn has_user_comments(text: &str) -> bool {
    // Only lines holding a `;` can hold a comment (most lines of compiler
    // output have none).
    crate::text::lines_with(text, b';').any(|line| {
        layout::comment_start(line).is_some_and(|c| !user_part(&line[c..]).trim().is_empty())
    })
}

/// The user's comment text as a multiset of fragments (each `;`-separated
/// piece, trimmed), for checking that an output kept every comment however
/// trailing comments were joined.
pub fn user_comment_fragments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in text.split('\n') {
        let Some(at) = layout::comment_start(l) else {
            continue;
        };
        let user = user_part(&l[at..]);
        out.extend(
            user.split(';')
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(str::to_string),
        );
    }
    out.sort_unstable();
    out
}

/// The fragments of `before` missing from `after` (multiset difference):
/// empty when `after` kept every user comment of `before`.
pub fn missing_fragments(before: &str, after: &str) -> Vec<String> {
    let a = user_comment_fragments(before);
    let b = user_comment_fragments(after);
    let mut missing = Vec::new();
    let mut j = 0;
    for f in a {
        while j < b.len() && b[j] < f {
            j += 1;
        }
        if j < b.len() && b[j] == f {
            j += 1;
        } else {
            missing.push(f);
        }
    }
    missing
}

/// Cleans a leading group: drops LLVM's own lines, collapses runs of blank
/// lines, trims blank lines at the end and, unless `keep_leading_blank`, at
/// the start. `None` when no user comment is left.
fn clean_group(lines: &[&str], keep_leading_blank: bool) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for l in lines {
        let t = l.trim_end_matches('\r');
        if t.trim().is_empty() {
            if out.last().is_some_and(|p: &String| p.is_empty()) {
                continue;
            }
            if out.is_empty() && !keep_leading_blank {
                continue;
            }
            out.push(String::new());
        } else if !is_printer_comment(t) || is_users_preds_list(t) {
            out.push(t.to_string());
        }
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.iter().any(|l| !l.is_empty()).then_some(out)
}

/// Every user comment of a lexed file with its anchor, in file order.
pub fn notes(layout: &Layout<'_>) -> Vec<Note> {
    let mut notes = Vec::new();
    let mut pending: Vec<&str> = Vec::new();
    let mut seen_stmt = false;
    for (idx, line) in layout.lines.iter().enumerate() {
        let stmt = match line.kind {
            LineKind::Blank | LineKind::Comment => {
                pending.push(line.text);
                continue;
            }
            LineKind::Code { stmt } => stmt,
        };
        let s = &layout.stmts[stmt];
        if !pending.is_empty() {
            let anchors = group_anchors(layout, stmt, idx, seen_stmt, &pending);
            for (anchor, range) in anchors {
                let keep_blank = matches!(anchor, Anchor::Before(i)
                    if matches!(layout.stmts[i].kind, StmtKind::Inst { .. } | StmtKind::Record));
                if let Some(lines) = clean_group(&pending[range], keep_blank) {
                    notes.push(Note { anchor, lines });
                }
            }
            pending.clear();
        }
        seen_stmt = true;
        if let Some(c) = line.comment() {
            let user = if matches!(s.kind, StmtKind::Label(_)) {
                label_note(c)
            } else if is_printer_comment(c) {
                ""
            } else {
                c
            };
            if !user.is_empty() {
                notes.push(Note {
                    anchor: Anchor::Trailing {
                        stmt,
                        line: idx - s.first,
                    },
                    lines: vec![user.to_string()],
                });
            }
        }
    }
    if let Some(lines) = clean_group(&pending, false) {
        notes.push(Note {
            anchor: Anchor::End,
            lines,
        });
    }
    notes
}

/// Anchors for the comment group `pending` that precedes line `idx`, the
/// first (or a continuation) line of statement `stmt`; a group can split
/// in two (the file head and the paragraph right above the first statement).
fn group_anchors(
    layout: &Layout<'_>,
    stmt: usize,
    idx: usize,
    seen_stmt: bool,
    pending: &[&str],
) -> Vec<(Anchor, std::ops::Range<usize>)> {
    let all = 0..pending.len();
    if !seen_stmt {
        // The head; its last paragraph, when a blank line sets it apart
        // from the rest, annotates the first statement.
        let last_blank = pending.iter().rposition(|l| l.trim().is_empty());
        let has_comment_before = |end: usize| {
            pending[..end]
                .iter()
                .any(|l| !l.trim().is_empty() && !is_printer_comment(l))
        };
        return match last_blank {
            Some(b) if b + 1 < pending.len() && has_comment_before(b) => vec![
                (Anchor::Head, 0..b),
                (Anchor::Before(stmt), b + 1..pending.len()),
            ],
            _ => vec![(Anchor::Head, all)],
        };
    }
    let s = &layout.stmts[stmt];
    if s.first != idx {
        // Whole-line comments inside a multi-line statement go above it.
        return vec![(Anchor::Before(stmt), all)];
    }
    let after_header = stmt > 0
        && matches!(layout.stmts[stmt - 1].kind, StmtKind::Define(_))
        && s.kind.in_function();
    if after_header {
        // The first paragraph ends at a blank line or after a bare `;`
        // (how update_test_checks.py closes its block).
        let split = pending
            .iter()
            .position(|l| l.trim().is_empty())
            .unwrap_or(pending.len());
        let split = pending[..split]
            .iter()
            .position(|l| l.trim() == ";")
            .map_or(split, |p| p + 1);
        let first = &pending[..split];
        let check_block =
            first.iter().any(|l| is_check_line(l)) || first.last().is_some_and(|l| l.trim() == ";");
        if check_block {
            return vec![
                (Anchor::BodyStart(stmt - 1), 0..split),
                (Anchor::Before(stmt), split..pending.len()),
            ];
        }
    }
    vec![(Anchor::Before(stmt), all)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchors(text: &str) -> Vec<(Anchor, Vec<String>)> {
        notes(&layout::lex(text))
            .into_iter()
            .map(|n| (n.anchor, n.lines))
            .collect()
    }

    fn v(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn each_kind_of_comment_gets_its_anchor() {
        let text = "; RUN: opt -S %s | FileCheck %s\n\n; CHECK-LABEL: @f\n\
                    define i32 @f(i32 %x) {\n; CHECK: add\n;\n  ; one more\n\n  ; two\n\
                    \x20 %y = add i32 %x, 1   ; why\n  ret i32 %y\n  ; done\n}\n; end\n";
        assert_eq!(
            anchors(text),
            vec![
                (Anchor::Head, v(&["; RUN: opt -S %s | FileCheck %s"])),
                (Anchor::Before(0), v(&["; CHECK-LABEL: @f"])),
                (Anchor::BodyStart(0), v(&["; CHECK: add", ";"])),
                (Anchor::Before(1), v(&["  ; one more", "", "  ; two"])),
                (Anchor::Trailing { stmt: 1, line: 0 }, v(&["; why"])),
                (Anchor::Before(3), v(&["  ; done"])),
                (Anchor::End, v(&["; end"])),
            ]
        );
    }

    #[test]
    fn llvm_comments_are_not_notes() {
        let text = "; ModuleID = 'a.c'\nsource_filename = \"a.c\"\n\n; Function Attrs: nounwind\n\
                    define void @f() {\n  br label %b\n\nb:                          ; preds = %0\n  ret void\n}\n";
        assert!(anchors(text).is_empty());
        assert!(!has_user_comments(text));
        let with_note = text.replace("; preds = %0", "; preds = %0 ; loop head");
        assert!(has_user_comments(&with_note));
        assert_eq!(
            anchors(&with_note),
            vec![(Anchor::Trailing { stmt: 3, line: 0 }, v(&["; loop head"]))]
        );
    }

    /// A label comment written by hand in LLVM's shape but without `%`
    /// (SPIRV-LLVM-Translator's `; preds = do.end, bb1`) is kept whole as a
    /// comment (before: `do.end, bb1` alone became a line of code).
    #[test]
    fn a_preds_list_without_percent_signs_is_a_whole_note() {
        let text =
            "define void @f() {\n  br label %b\n\nb:   ; preds = entry, bb1\n  ret void\n}\n";
        assert_eq!(
            anchors(text),
            vec![(
                Anchor::Trailing { stmt: 2, line: 0 },
                v(&["; preds = entry, bb1"])
            )]
        );
        // Where the view carried it, on a line of its own: it stays.
        let carried =
            "define void @f() {\n  br label %b\n\nb:\n  ret void\n; preds = entry, bb1\n}\n";
        assert!(has_user_comments(carried));
        assert_eq!(anchors(carried).len(), 1, "{:?}", anchors(carried));
    }

    #[test]
    fn the_printers_gc_relocate_note_is_not_a_user_comment() {
        let text = "define void @f() {\n  %r = call ptr @llvm.experimental.gc.relocate.p0(token %t, i32 0, i32 0) ; (%a, %a)\n  ret void\n}\n";
        assert!(anchors(text).is_empty());
        assert!(!has_user_comments(text));
        assert!(has_user_comments(
            &text.replace("; (%a, %a)", "; (%a, %a) why")
        ));
    }

    #[test]
    fn a_head_without_a_blank_line_stays_the_head() {
        let text = "; RUN: x\n; CHECK: y\ndefine void @f() {\n  ret void\n}\n";
        assert_eq!(
            anchors(text),
            vec![(Anchor::Head, v(&["; RUN: x", "; CHECK: y"]))]
        );
    }

    #[test]
    fn fragments_survive_joining() {
        let a = "define void @f() {\n  ret void ; a\n ; b\n}\n";
        let b = "define void @f() {\n ; b\n  ret void ; a\n}\n";
        assert!(missing_fragments(a, b).is_empty());
        assert_eq!(
            missing_fragments(a, "define void @f() {\n}\n"),
            v(&["; a", "; b"])
                .iter()
                .map(|s| s.trim_start_matches("; ").to_string())
                .collect::<Vec<_>>()
        );
        assert!(is_lit_test("; RUN: opt %s\n"));
        assert!(!is_lit_test("@x = global i32 0 ; RUNNING\n"));
        assert!(is_check_line("; CHECK-NEXT: ret"));
        assert!(is_check_line("; X86_64-LABEL: @f"));
        assert!(!is_check_line("; Note: x"));
    }
}
