//! The view of IR a person wrote (a lit test, or IR with no compiler
//! header): the file's own text, with only its numbered values given the
//! names the view gives them ([`super::view`]). Every other byte stays as
//! written: layout and indentation, attributes written inline, the
//! typed-pointer dialect, comments and CHECK lines, `!N` and `#N`. So a
//! change shows as git shows it, less the renumbering an inserted value
//! causes, and a version LLVM rejects (shown as written) is compared with
//! text written the same way.
//!
//! ```text
//! as written                               view
//! define i32 @f(i32 %x) nounwind {         define i32 @f(i32 %x) nounwind {
//!        %1 = add i32 %x, 1                       %add.5e1c = add i32 %x, 1
//!        ret i32 %1 ; CHECK: ret i32 %1           ret i32 %add.5e1c ; CHECK: ret i32 %1
//! }                                        }
//! ```
//!
//! The renamed text is the view only when its own canonical view is the
//! file's (checked by the caller): a rename that did not carry over is
//! never shown.

use rustc_hash::FxHashMap as HashMap;

use super::source_map::SourceNames;
use crate::comments::layout::comment_start;
use crate::text::{self, Ref};

/// `text` with every numbered local (`%7`, a label `7:` or the `; <label>:7`
/// of older printers) renamed as `names` (the view's names → the input's
/// tokens) says; `None` where the file has what the rename does not cover
/// (numbered types or globals). A function whose name is quoted keeps its
/// numbers (the source names key it unquoted).
pub(super) fn renamed(text: &str, names: &SourceNames) -> Option<String> {
    if has_numbered_types_or_globals(text, names) {
        return None;
    }
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut renames: Option<HashMap<&str, &str>> = None;
    for line in text::lines_inclusive(text) {
        if line.starts_with("define ") {
            renames = Some(function_renames(line, names));
        }
        match &renames {
            Some(map) if !map.is_empty() && line.starts_with("define ") => {
                out.push_str(&renamed_line(&with_arguments_named(line, map)?, map))
            }
            Some(map) if !map.is_empty() => out.push_str(&renamed_line(line, map)),
            _ => out.push_str(line),
        }
        if renames.is_some() && line.trim_end() == "}" {
            renames = None;
        }
    }
    Some(out)
}

/// Whether `text` defines a numbered type (`%0 = type {...}`, whose uses
/// inside a function a local's rename would take) or `names` has a
/// numbered global (`@0`).
fn has_numbered_types_or_globals(text: &str, names: &SourceNames) -> bool {
    names.globals.values().any(|g| is_number(g))
        || text::lines_starting_with(text, "%").any(|l| {
            l[1..]
                .split_once(" = type")
                .is_some_and(|(n, _)| is_number(n))
        })
}

/// Whether a token (without its sigil) is a slot number: `7`, not `x7`.
fn is_number(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

/// The input's numbered tokens → the view's names in the function that
/// `header` defines (none for a header without a name the source names
/// know).
fn function_renames<'n>(header: &str, names: &'n SourceNames) -> HashMap<&'n str, &'n str> {
    let name = text::function_name(header).map(|n| n.trim_start_matches('@'));
    let locals = name.and_then(|name| names.locals.get(name));
    locals
        .into_iter()
        .flatten()
        .filter(|(view, token)| is_number(token) && !is_number(view))
        .map(|(view, token)| (token.as_str(), view.as_str()))
        .collect()
}

/// A `define` line whose arguments written without a name (`i8*, i32`:
/// numbered `%0`, `%1` by their place) get the names `map` gives their
/// numbers; `None` when its parameter list does not end on this line.
fn with_arguments_named(header: &str, map: &HashMap<&str, &str>) -> Option<String> {
    let name = text::function_name(header)?;
    let open = header.find(name)? + name.len();
    let params = text::item_spans(&header[open..])?;
    let mut out = String::with_capacity(header.len() + 32);
    let (mut copied, mut slot) = (0, 0usize);
    for (from, to) in params {
        let param = header[open + from..open + to].trim_end();
        if param.is_empty() || param == "..." {
            continue;
        }
        match last_word(param) {
            Some(word) if word.starts_with('%') && !is_type_word(param) => {
                slot += is_number(&word[1..]) as usize;
            }
            _ => {
                let end = open + from + param.len();
                out.push_str(&header[copied..end]);
                if let Some(view) = map.get(slot.to_string().as_str()) {
                    out.push_str(" %");
                    out.push_str(view);
                }
                copied = end;
                slot += 1;
            }
        }
    }
    out.push_str(&header[copied..]);
    Some(out)
}

/// The last word of a parameter (`%x` in `ptr nocapture %x`).
fn last_word(param: &str) -> Option<&str> {
    param.split_ascii_whitespace().last()
}

/// Whether a parameter's last word is its type (`%T` in `%T`, a named
/// struct passed by value with no name): one word only.
fn is_type_word(param: &str) -> bool {
    param.split_ascii_whitespace().count() == 1
}

/// One line of a function with its numbered locals renamed: in its code,
/// in its label (`7:`, or `; <label>:7` written as the label `name:`) and
/// in LLVM's `; preds = ...` after it; no other comment is touched (a
/// CHECK line's `%1` is what FileCheck reads).
fn renamed_line(line: &str, map: &HashMap<&str, &str>) -> String {
    let (code, comment) = match comment_start(line) {
        Some(at) => line.split_at(at),
        None => (line, ""),
    };
    let rename = |r: Ref<'_>| match r {
        Ref::Local(token) => map.get(token).map(|name| format!("%{name}")),
        _ => None,
    };
    if let Some(label) = old_label_comment(comment) {
        return match map.get(label.number) {
            Some(name) => format!("{code}{name}:{}", text::rewrite(label.rest, rename)),
            None => line.to_string(),
        };
    }
    let mut out = relabelled(code, map).unwrap_or_else(|| text::rewrite(code, rename));
    if comment
        .trim_start_matches(';')
        .trim_start()
        .starts_with("preds = ")
    {
        out.push_str(&text::rewrite(comment, rename));
    } else {
        out.push_str(comment);
    }
    out
}

/// `code` when it is a numbered label (`7:`), with the label renamed.
fn relabelled(code: &str, map: &HashMap<&str, &str>) -> Option<String> {
    let (number, rest) = code.split_once(':')?;
    let name = map.get(number)?;
    Some(format!("{name}:{rest}"))
}

/// An older printer's label comment: `; <label>:7`, and what follows it.
struct OldLabel<'a> {
    number: &'a str,
    rest: &'a str,
}

fn old_label_comment(comment: &str) -> Option<OldLabel<'_>> {
    let after = comment.strip_prefix("; <label>:")?;
    let end = after
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(after.len());
    (end > 0).then(|| OldLabel {
        number: &after[..end],
        rest: &after[end..],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(func: &str, pairs: &[(&str, &str)]) -> SourceNames {
        let mut names = SourceNames::default();
        let map = pairs
            .iter()
            .map(|(view, token)| (view.to_string(), token.to_string()))
            .collect();
        names.locals.insert(func.to_string(), map);
        names
    }

    #[test]
    fn only_numbered_locals_change() {
        let text = "define i32 @f(i32 %x) nounwind {\n\
                    \t%1 = add i32 %x, 1 ; CHECK: %1 = add\n\
                    \tret i32 %1\n}\n";
        let names = names("f", &[("x", "x"), ("add.5e1c", "1")]);
        assert_eq!(
            renamed(text, &names).unwrap(),
            "define i32 @f(i32 %x) nounwind {\n\
             \t%add.5e1c = add i32 %x, 1 ; CHECK: %1 = add\n\
             \tret i32 %add.5e1c\n}\n"
        );
    }

    #[test]
    fn labels_old_and_new_are_renamed() {
        let text = "define void @f(i1 %c) {\n  br i1 %c, label %1, label %2\n\
                    1:                                   ; preds = %0\n  ret void\n\
                    ; <label>:2                          ; preds = %0\n  ret void\n}\n";
        let names = names("f", &[("c", "c"), ("a.1", "1"), ("b.2", "2")]);
        let out = renamed(text, &names).unwrap();
        assert!(out.contains("label %a.1, label %b.2"), "{out}");
        assert!(out.contains("\na.1:   "), "{out}");
        assert!(out.contains("\nb.2:   "), "{out}");
    }

    #[test]
    fn arguments_written_without_names_get_them() {
        let text =
            "define void @f(i8*, i32 %n, { i8, i32 }, %T* byval(%T) %2, ...) {\n  ret void\n}\n";
        let names = names("f", &[("a", "0"), ("b", "1"), ("c", "2")]);
        let out = renamed(text, &names).unwrap();
        assert_eq!(
            out.lines().next().unwrap(),
            "define void @f(i8* %a, i32 %n, { i8, i32 } %b, %T* byval(%T) %c, ...) {"
        );
    }

    #[test]
    fn numbered_types_are_left_to_the_printed_view() {
        let text = "%0 = type { i32 }\ndefine void @f() {\n  ret void\n}\n";
        assert!(renamed(text, &names("f", &[])).is_none());
    }
}
