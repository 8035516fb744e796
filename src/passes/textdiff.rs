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
    crate::comments::layout::comment_start(line).map_or(line, |at| &line[..at])
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

/// The function a `define` line defines (`@f`), if `line` is one.
pub(crate) fn function_of(line: &str) -> Option<String> {
    line.starts_with("define ")
        .then(|| crate::text::function_name(line))
        .flatten()
        .map(str::to_string)
}

/// Where a line is: the function (`@f`) and the block label above line
/// `upto` of `lines`, if any.
fn location(lines: &[&str], upto: usize) -> (Option<String>, Option<String>) {
    let mut block: Option<&str> = None;
    for l in lines[..upto.min(lines.len())].iter().rev() {
        if block.is_none() && !l.starts_with(' ') && l.ends_with(':') {
            block = Some(l.trim_end_matches(':'));
        }
        if let Some(name) = function_of(l) {
            return (Some(name), block.map(str::to_string));
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

/// A text cut into its module-level lines (key `""`) and one section per
/// function (`define ... {` to `}`, keyed by the header), in order.
fn sections<'t>(lines: &[&'t str]) -> Vec<(String, Vec<&'t str>)> {
    let mut out: Vec<(String, Vec<&str>)> = vec![(String::new(), Vec::new())];
    let mut open = false;
    for &l in lines {
        if let Some(key) = function_of(l) {
            out.push((key, vec![l]));
            open = true;
        } else if open {
            out.last_mut().unwrap().1.push(l);
            open = l != "}";
        } else {
            out[0].1.push(l);
        }
    }
    out
}

/// Adds the hunks of `la` -> `lb` (one section) to `out`.
struct Hunks {
    out: SmallDiff,
    shown: Vec<String>,
    last_header: Option<String>,
    max_lines: usize,
}

impl Hunks {
    fn add(&mut self, la: &[&str], lb: &[&str]) {
        // Myers in linear space: two far-apart functions of thousands of
        // lines must not cost gigabytes.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        let ops = similar::capture_diff_slices_deadline(
            similar::Algorithm::Myers,
            la,
            lb,
            Some(deadline),
        );
        for op in ops {
            let (_, old, new) = op.as_tag_tuple();
            if old.is_empty() && new.is_empty() || op.tag() == similar::DiffTag::Equal {
                continue;
            }
            self.hunk(la, lb, (old.start, old.end), (new.start, new.end));
        }
    }

    fn hunk(&mut self, la: &[&str], lb: &[&str], (i, ci): (usize, usize), (j, cj): (usize, usize)) {
        let out = &mut self.out;
        out.removed += ci - i;
        out.added += cj - j;
        let place = if lb.is_empty() {
            location(la, i)
        } else {
            location(lb, j)
        };
        if let Some(f) = &place.0 {
            if !out.functions.contains(f) {
                out.functions.push(f.clone());
            }
        }
        if out.truncated {
            // Only the first differences are shown.
            return;
        }
        // Adjacent hunks in one block share the header.
        let header = location_text(&place);
        let mut hunk = Vec::new();
        if self.last_header.as_ref() != Some(&header) {
            hunk.push(header.clone());
            self.last_header = Some(header);
        }
        hunk.extend(la[i..ci].iter().map(|l| format!("-{l}")));
        hunk.extend(lb[j..cj].iter().map(|l| format!("+{l}")));
        if self.shown.len() + hunk.len() <= self.max_lines || self.shown.is_empty() {
            let room = self.max_lines.max(2);
            if hunk.len() > room {
                hunk.truncate(room);
                out.truncated = true;
            }
            self.shown.extend(hunk);
        } else {
            out.truncated = true;
        }
    }
}

/// The diff from `a` to `b` (comments ignored), at most `max_lines` lines.
/// Functions are diffed one by one (matched by name), module-level lines
/// apart: a line diff's memory grows with the product of length and
/// distance, and two whole modules can be far apart.
pub(crate) fn small_diff(a: &str, b: &str, max_lines: usize) -> SmallDiff {
    let (a, b) = (strip_comments(a), strip_comments(b));
    let la: Vec<&str> = a.lines().collect();
    let lb: Vec<&str> = b.lines().collect();
    let (sa, sb) = (sections(&la), sections(&lb));
    let mut h = Hunks {
        out: SmallDiff::default(),
        shown: Vec::new(),
        last_header: None,
        max_lines,
    };
    let find = |s: &[(String, Vec<&str>)], k: &str| s.iter().position(|x| x.0 == k);
    for (k, lines) in &sb {
        match find(&sa, k) {
            Some(x) => h.add(&sa[x].1, lines),
            None => h.add(&[], lines),
        }
    }
    for (k, lines) in &sa {
        if find(&sb, k).is_none() {
            h.add(lines, &[]);
        }
    }
    h.out.text = h.shown.join("\n");
    h.out
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
