//! Which of the names a user wrote the stored canonical form renames, so
//! the pre-commit hook can say so instead of renaming silently.
//!
//! ```text
//! written (work tree)                 stored (canonical form)
//! loop:                               bb.fca0:
//!   %acc = phi i32 [ 0, %entry ] ...    %phi.0b97 = phi i32 [ 0, %entry ] ...
//!
//! irgit pre-commit: sum.ll: the commit names values and blocks by content: %acc and %loop
//!   are renamed (your file keeps them); `canon: {rename_values: false, rename_blocks: false}`
//!   in .irgit.yaml keeps the names as written
//! ```
//!
//! A name counts as renamed when the written text has `%name` (a value,
//! argument or block; not a number) and the stored text has no such name.

use crate::config::CanonOptions;

/// How many renamed names the message lists before "and N more".
const LISTED: usize = 4;

/// The line the hook prints for `path` when `stored` lacks names that
/// `written` has; `None` when no name was lost or renaming is off.
pub(crate) fn names_note(
    path: &str,
    written: &[u8],
    stored: &[u8],
    opts: &CanonOptions,
) -> Option<String> {
    if !opts.rename_values && !opts.rename_blocks {
        return None;
    }
    let written = String::from_utf8_lossy(written);
    let stored = String::from_utf8_lossy(stored);
    let kept = local_names(&stored);
    let mut lost: Vec<&str> = Vec::new();
    for name in local_names(&written) {
        if !kept.contains(&name) && !lost.contains(&name) {
            lost.push(name);
        }
    }
    if lost.is_empty() {
        return None;
    }
    let mut listed: Vec<String> = lost.iter().take(LISTED).map(|n| format!("%{n}")).collect();
    if lost.len() > LISTED {
        listed.push(format!("{} more", lost.len() - LISTED));
    }
    let names = match listed.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    Some(format!(
        "{path}: stored in canonical form, which names values and blocks by content: {names} \
         {} renamed in the commit (your file keeps {}); `canon: {{rename_values: false, \
         rename_blocks: false}}` in .irgit.yaml keeps the names as written",
        if lost.len() == 1 { "is" } else { "are" },
        if lost.len() == 1 { "it" } else { "them" },
    ))
}

/// Every `%name` of `text` that is a name, not a number (`%5`), in order of
/// first appearance; names in comments count too (they travel unchanged).
fn local_names(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('%') {
        let after = &rest[at + 1..];
        let len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')))
            .unwrap_or(after.len());
        let name = &after[..len];
        if !name.is_empty() && !name.chars().all(|c| c.is_ascii_digit()) && !names.contains(&name) {
            names.push(name);
        }
        rest = &after[len..];
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_names_the_stored_text_lacks() {
        let written = "define i32 @f(i32 %n) {\nentry:\n  br label %loop\nloop:\n  %acc = add i32 %n, 1\n  %1 = add i32 %acc, 2\n  ret i32 %1\n}\n";
        let stored = "define i32 @f(i32 %arg0) {\nentry:\n  br label %bb.fca0\nbb.fca0:\n  %add.1 = add i32 %arg0, 1\n  %add.2 = add i32 %add.1, 2\n  ret i32 %add.2\n}\n";
        let note = names_note(
            "f.ll",
            written.as_bytes(),
            stored.as_bytes(),
            &CanonOptions::default(),
        )
        .unwrap();
        assert!(note.contains("%n, %loop and %acc are renamed"), "{note}");
        assert_eq!(
            names_note(
                "f.ll",
                stored.as_bytes(),
                stored.as_bytes(),
                &CanonOptions::default()
            ),
            None
        );
    }
}
