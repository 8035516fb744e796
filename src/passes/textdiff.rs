//! Small line diffs between canonical forms, as evidence: each hunk under
//! the function and block it is in, `-` lines only in the first text, `+`
//! lines only in the second. Comments (`;` lines and trailing comments,
//! LLVM's or a user's) are not content here and are dropped first.
//!
//! ```text
//! @main, block bb.b7e5:
//! -  %add.aeff = add nsw i32 %phi.c28b, 1
//! +  %add.5e1c = add nsw i32 %phi.c28b, 2
//! ```

use crate::merge::diff;

/// `text` without comments: whole-line comments are dropped, trailing
/// comments cut (outside quoted strings), trailing blanks trimmed.
pub fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let code = code_part(line).trim_end();
        if code.is_empty() && !line.trim().is_empty() {
            continue;
        }
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The part of a line before a `;` comment that is not inside quotes.
fn code_part(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// A line diff with its size.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SmallDiff {
    /// Lines only in the second text.
    pub added: usize,
    /// Lines only in the first text.
    pub removed: usize,
    /// The hunks, at most the requested number of lines (headers included).
    pub text: String,
    /// Whether hunks were left out.
    pub truncated: bool,
    /// The functions the hunks are in (all hunks, shown or not).
    pub functions: Vec<String>,
}

impl SmallDiff {
    pub fn is_empty(&self) -> bool {
        self.added == 0 && self.removed == 0
    }
}

/// Where a line is: the function (`@f`) and the block label above line
/// `upto` of `lines`, if any.
fn location(lines: &[&str], upto: usize) -> (Option<String>, Option<String>) {
    let mut block: Option<&str> = None;
    for l in lines[..upto.min(lines.len())].iter().rev() {
        if block.is_none() && !l.starts_with(' ') && l.ends_with(':') {
            block = Some(l.trim_end_matches(':'));
        }
        if l.starts_with("define ") {
            let name = l
                .split_whitespace()
                .find(|t| t.starts_with('@'))
                .map(|t| t.split('(').next().unwrap_or(t))
                .unwrap_or("?");
            return (Some(name.to_string()), block.map(str::to_string));
        }
        if l == &"}" {
            break;
        }
    }
    (None, None)
}

fn location_text((function, block): &(Option<String>, Option<String>)) -> String {
    match (function, block) {
        (Some(f), Some(b)) => format!("{f}, block {b}:"),
        (Some(f), None) => format!("{f}:"),
        _ => "module level:".to_string(),
    }
}

/// The diff from `a` to `b` (comments ignored), at most `max_lines` lines.
pub fn small_diff(a: &str, b: &str, max_lines: usize) -> SmallDiff {
    let (a, b) = (strip_comments(a), strip_comments(b));
    let la: Vec<&str> = a.lines().collect();
    let lb: Vec<&str> = b.lines().collect();
    let common = diff::common(&la, &lb);
    let mut out = SmallDiff::default();
    let mut shown = Vec::new();
    let mut last_header: Option<String> = None;
    let (mut i, mut j) = (0, 0);
    for &(ci, cj) in common.iter().chain(std::iter::once(&(la.len(), lb.len()))) {
        if ci > i || cj > j {
            out.removed += ci - i;
            out.added += cj - j;
            let place = location(&lb, j);
            if let Some(f) = &place.0 {
                if !out.functions.contains(f) {
                    out.functions.push(f.clone());
                }
            }
            // Adjacent hunks in one block share the header.
            let header = location_text(&place);
            let mut hunk = Vec::new();
            if last_header.as_ref() != Some(&header) {
                hunk.push(header.clone());
                last_header = Some(header);
            }
            hunk.extend(la[i..ci].iter().map(|l| format!("-{l}")));
            hunk.extend(lb[j..cj].iter().map(|l| format!("+{l}")));
            if out.truncated {
                // Only the first differences are shown.
            } else if shown.len() + hunk.len() <= max_lines || shown.is_empty() {
                let room = max_lines.max(2);
                if hunk.len() > room {
                    hunk.truncate(room);
                    out.truncated = true;
                }
                shown.extend(hunk);
            } else {
                out.truncated = true;
            }
        }
        i = ci + 1;
        j = cj + 1;
    }
    out.text = shown.join("\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_not_content() {
        let a =
            "; ModuleID = 'x'\ndefine void @f() {\nentry:   ; preds = %x\n  ret void ; done\n}\n";
        assert_eq!(
            strip_comments(a),
            "define void @f() {\nentry:\n  ret void\n}\n"
        );
        assert_eq!(
            code_part("@s = constant [2 x i8] c\";\\00\" ; c"),
            "@s = constant [2 x i8] c\";\\00\" "
        );
    }

    #[test]
    fn hunks_say_where_they_are() {
        let a = "define i32 @f() {\nentry:\n  %a = add i32 1, 1\n  ret i32 %a\n}\n";
        let b = "define i32 @f() {\nentry:\n  %a = add i32 1, 2\n  ret i32 %a\n}\n";
        let d = small_diff(a, b, 10);
        assert_eq!((d.removed, d.added), (1, 1));
        assert_eq!(
            d.text,
            "@f, block entry:\n-  %a = add i32 1, 1\n+  %a = add i32 1, 2"
        );
        assert!(small_diff(a, a, 10).is_empty());
    }
}
