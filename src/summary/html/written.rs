//! The blocks of a function as the user wrote them, and the change of a
//! block pair in the old file's names: the matched diff
//! ([`super::super::matched`]) cut to one block. A new line's locals are
//! read back to canonical names (the input's names of the new side), to
//! the old canonical names (the matching's pairs), and to the old file's
//! tokens; a value the old file does not have reads `new.<token>`.
//!
//! ```text
//! old file                new file                  change of block 4 (old names)
//! 4:                      5:   ; a new slot above     4:
//!   %5 = load i32, ptr %2   %6 = load i32, ptr %3       %5 = load i32, ptr %2
//!   %6 = add i32 %5, 1      %7 = add i32 %6, 2        - %6 = add i32 %5, 1
//!                                                     + %6 = add i32 %5, 2
//! ```

use rustc_hash::FxHashMap as HashMap;

use crate::compare::diff;
use crate::text::{function_name, rewrite, Ref};

use crate::summary::side::Written;

/// One block as written: its label token (`7`, `for.body`) and its lines
/// (the label line, instructions, comments), blank lines left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WrittenBlock {
    pub label: String,
    pub lines: Vec<String>,
}

/// Where each function definition is in a text: `@name` -> its lines from
/// the `define` line to the closing `}`.
pub(crate) struct Definitions<'t> {
    lines: Vec<&'t str>,
    spans: HashMap<&'t str, (usize, usize)>,
}

impl<'t> Definitions<'t> {
    pub(crate) fn new(text: &'t str) -> Definitions<'t> {
        let lines: Vec<&str> = text.lines().collect();
        let mut spans = HashMap::default();
        let mut open: Option<(&str, usize)> = None;
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("define ") {
                open = function_name(line).map(|name| (name, i));
            } else if line.starts_with('}') {
                if let Some((name, first)) = open.take() {
                    spans.insert(name, (first, i));
                }
            }
        }
        Definitions { lines, spans }
    }

    /// The blocks of `@name` as written, in order; the entry block's label
    /// is `entry_label` when the text leaves it unwritten.
    pub(crate) fn blocks(&self, name: &str, entry_label: &str) -> Vec<WrittenBlock> {
        let Some(&(first, last)) = self.spans.get(name) else {
            return Vec::new();
        };
        let mut blocks: Vec<WrittenBlock> = Vec::new();
        let mut current = WrittenBlock {
            label: entry_label.to_string(),
            lines: Vec::new(),
        };
        for line in &self.lines[first + 1..last] {
            if line.trim().is_empty() {
                continue;
            }
            if let Some(label) = crate::text::label_of_line(line) {
                // Comment lines right above a label belong to its block.
                let keep = current
                    .lines
                    .iter()
                    .rposition(|l| !is_comment(l))
                    .map_or(0, |p| p + 1);
                let carried = current.lines.split_off(keep);
                let is_unwritten_entry = blocks.is_empty() && current.lines.is_empty();
                if !is_unwritten_entry {
                    blocks.push(current);
                }
                current = WrittenBlock {
                    label: label.to_string(),
                    lines: carried,
                };
            }
            current.lines.push(line.to_string());
        }
        blocks.push(current);
        blocks
    }
}

fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with(';')
}

/// The comments a user wrote in a block: comment lines and comments after
/// code, without the ones LLVM prints itself (`; preds = ...`).
pub(crate) fn comments(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| comment_of(l))
        .filter(|c| !c.starts_with("preds = ") && !c.starts_with("No predecessors!"))
        .map(str::to_string)
        .collect()
}

/// The text after a line's `;` outside quotes.
fn comment_of(line: &str) -> Option<&str> {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => return Some(line[i + 1..].trim()),
            _ => {}
        }
    }
    None
}

/// One line of a block's change: ' ' kept, '-' old only, '+' new only.
pub(crate) type ChangeLine = (char, String);

/// Translates the new file's tokens of one function into the old file's.
pub(crate) struct Translation<'a> {
    /// New token -> new canonical name.
    new_canonical: HashMap<&'a str, &'a str>,
    /// Old canonical name -> old token.
    old_token: Option<&'a HashMap<String, String>>,
    /// New canonical -> old canonical (the matched diff's pairs).
    pairs: &'a HashMap<String, String>,
}

impl<'a> Translation<'a> {
    pub(crate) fn new(
        old: Option<(&'a Written, &str)>,
        new: (&'a Written, &str),
        pairs: &'a HashMap<String, String>,
    ) -> Translation<'a> {
        let bare = |name: &str| name.trim_start_matches('@').to_string();
        let new_canonical = new
            .0
            .names
            .locals
            .get(&bare(new.1))
            .map(|m| m.iter().map(|(c, t)| (t.as_str(), c.as_str())).collect())
            .unwrap_or_default();
        let old_token = old.and_then(|(w, name)| w.names.locals.get(&bare(name)));
        Translation {
            new_canonical,
            old_token,
            pairs,
        }
    }

    /// The old file's token for a new token, or `new.<token>`.
    fn token(&self, new_token: &str) -> String {
        let old = self
            .new_canonical
            .get(new_token)
            .and_then(|c| self.pairs.get(*c))
            .and_then(|c| self.old_token?.get(c));
        match old {
            Some(t) => t.clone(),
            None => format!("new.{new_token}"),
        }
    }

    /// A new line in the old file's names.
    pub(crate) fn line(&self, line: &str) -> String {
        let label = crate::text::label_of_line(line);
        let start = label.map_or(0, str::len);
        let body = rewrite(&line[start..], |r| match r {
            Ref::Local(x) => Some(format!("%{}", self.token(x))),
            _ => None,
        });
        match label {
            Some(l) => format!("{}{body}", self.token(l)),
            None => body,
        }
    }
}

/// A line as compared: no comment, no `!dbg` and no metadata numbers.
fn compared(line: &str) -> String {
    let code = match comment_of(line) {
        Some(c) => line[..line.len() - c.len()]
            .trim_end()
            .trim_end_matches(';'),
        None => line,
    };
    let keyed = crate::summary::matched::key(code.trim_end());
    rewrite(&keyed, |r| {
        matches!(r, Ref::Meta(_)).then(|| "!".to_string())
    })
}

/// The change between an old block and a new one already in old names.
pub(crate) fn change(old: &[String], new_in_old_names: &[String]) -> Vec<ChangeLine> {
    let code = |lines: &[String]| -> Vec<(usize, String)> {
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| !is_comment(l))
            .map(|(i, l)| (i, compared(l)))
            .collect()
    };
    let (old_code, new_code) = (code(old), code(new_in_old_names));
    let old_keys: Vec<&String> = old_code.iter().map(|(_, k)| k).collect();
    let new_keys: Vec<&String> = new_code.iter().map(|(_, k)| k).collect();
    let mut out = Vec::new();
    let (mut next_old, mut next_new) = (0, 0);
    let ends = std::iter::once((old_code.len(), new_code.len()));
    for (i, j) in diff::common(&old_keys, &new_keys).into_iter().chain(ends) {
        out.extend(
            old_code[next_old..i]
                .iter()
                .map(|(k, _)| ('-', old[*k].clone())),
        );
        out.extend(
            new_code[next_new..j]
                .iter()
                .map(|(k, _)| ('+', new_in_old_names[*k].clone())),
        );
        if let Some((k, _)) = old_code.get(i) {
            out.push((' ', old[*k].clone()));
        }
        (next_old, next_new) = (i + 1, j + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_split_at_labels_and_the_entry_may_be_unwritten() {
        let text = "define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n  br label %3\n\n; the exit\n3:                                ; preds = %1\n  ret i32 %2 ; done\n}\n";
        let defs = Definitions::new(text);
        let blocks = defs.blocks("@f", "1");
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].label, "1");
        assert_eq!(blocks[0].lines.len(), 2);
        assert_eq!(blocks[1].label, "3");
        assert_eq!(blocks[1].lines[0], "; the exit");
        assert_eq!(comments(&blocks[1].lines), vec!["the exit", "done"]);
    }

    #[test]
    fn labels_are_read_with_quotes_and_comments() {
        assert_eq!(
            crate::text::label_of_line("for.body:   ; preds = %3"),
            Some("for.body")
        );
        assert_eq!(crate::text::label_of_line("\"a b\":"), Some("\"a b\""));
        assert_eq!(crate::text::label_of_line("  %x = add i32 1, 2"), None);
        assert_eq!(crate::text::label_of_line("; x:"), None);
    }

    #[test]
    fn a_change_keeps_equal_lines_and_ignores_debug_locations() {
        let old: Vec<String> = [
            "4:",
            "  %5 = load i32, ptr %2, !dbg !7",
            "  %6 = add i32 %5, 1",
        ]
        .map(String::from)
        .to_vec();
        let new: Vec<String> = [
            "4:",
            "  %5 = load i32, ptr %2, !dbg !9",
            "  %6 = add i32 %5, 2",
        ]
        .map(String::from)
        .to_vec();
        let got = change(&old, &new);
        let kinds: String = got.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, "  -+");
        assert_eq!(got[3].1, "  %6 = add i32 %5, 2");
    }
}
