//! Declarations one side removed while the other side's new code still
//! calls them. Removing an unused declaration is tidying; a new call needs
//! it. So the merge keeps the declaration ([`super::apply`] asks
//! [`names_global`] of the merged module), and the result written in ours'
//! text gets it back where ours has it ([`restored`]), since a line merge
//! takes the removal:
//!
//! ```text
//! base:   declare ptr @alloc(i32)      theirs: (the declaration removed)
//! ours:   declare ptr @alloc(i32)  +  define ptr @make() { %p = call ptr @alloc(i32 12) ... }
//! merged: declare ptr @alloc(i32)  +  @make, with its call
//! ```

use super::render::Piece;
use crate::text::{function_name, is_id_byte};

/// Whether a module-level line only declares something defined elsewhere
/// (a function's `declare`, an `external` global).
pub(crate) fn is_declaration(line: &str) -> bool {
    line.starts_with("declare ") || (line.starts_with('@') && line.contains(" = external "))
}

/// Whether `text` names the global `name` (`@alloc`, not `@alloc2`).
pub(crate) fn names(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let after = text.as_bytes().get(at + name.len()).copied();
        !after.is_some_and(is_id_byte)
    })
}

/// Whether a line of `pieces` (either side of a conflict included) names
/// the global `name`.
pub(crate) fn names_global(pieces: &[Piece], name: &str) -> bool {
    pieces.iter().any(|piece| match piece {
        Piece::Text(text) => names(text, name),
        Piece::Conflict { ours, base, theirs } => ours
            .iter()
            .chain(base)
            .chain(theirs)
            .any(|l| names(l, name)),
    })
}

/// The function a `declare` line declares.
fn declared(line: &str) -> Option<&str> {
    line.strip_prefix("declare ").and_then(function_name)
}

/// `merged` (ours' text with theirs' changes, clean) with each function
/// declaration it calls but lacks put back as ours writes it, before the
/// line that follows it in ours; `None` when nothing is missing. `expected`
/// (the structured merge's canonical form) says which declarations the
/// merge kept.
pub(crate) fn restored(merged: &str, ours: &str, expected: &str) -> Option<String> {
    let lines: Vec<&str> = merged.lines().collect();
    let has = |name: &str| lines.iter().any(|l| declared(l) == Some(name));
    let defines = |name: &str| {
        lines
            .iter()
            .any(|l| l.starts_with("define ") && function_name(l) == Some(name))
    };
    let missing: Vec<&str> = expected
        .lines()
        .filter_map(declared)
        .filter(|name| !has(name) && !defines(name) && names(merged, name))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let ours_lines: Vec<&str> = ours.lines().collect();
    let mut out: Vec<&str> = lines.clone();
    for name in missing {
        let at = ours_lines.iter().position(|l| declared(l) == Some(name))?;
        let next = ours_lines[at + 1..]
            .iter()
            .find(|l| !l.trim().is_empty() && declared(l).is_none_or(&has));
        let before = next
            .and_then(|n| out.iter().position(|l| l == n))
            .or_else(|| out.iter().position(|l| l.starts_with("define ")))
            .unwrap_or(out.len());
        if ours_lines.get(at + 1).is_some_and(|l| l.trim().is_empty()) {
            out.insert(before, "");
        }
        out.insert(before, ours_lines[at]);
    }
    let mut text = out.join("\n");
    if merged.ends_with('\n') {
        text.push('\n');
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_called_declaration_comes_back_where_ours_has_it() {
        let ours =
            "declare ptr @alloc(i32)\n\ndefine i32 @len(i32 %n) {\nentry:\n  ret i32 %n\n}\n";
        let merged = "define internal i32 @len(i32 %n) {\nentry:\n  ret i32 %n\n}\n\n\
                      define ptr @make() {\nentry:\n  %p = call ptr @alloc(i32 12)\n  ret ptr %p\n}\n";
        let expected = "define ptr @make() {\n}\n\ndeclare ptr @alloc(i32)\n";
        let got = restored(merged, ours, expected).unwrap();
        assert!(
            got.starts_with("declare ptr @alloc(i32)\n\ndefine internal"),
            "{got}"
        );
        assert_eq!(restored(&got, ours, expected), None);
    }
}
