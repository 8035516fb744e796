//! Does LLVM 22 write a file in the syntax it was written in?
//!
//! The hook stores a canonical form only when it differs from the file in
//! order, names, numbering, whitespace and LLVM's own comments. Anything
//! else is LLVM 22 moving the file to its own dialect, which a project
//! pinned to an older LLVM may not read:
//!
//! ```text
//! written                                   LLVM 22 prints
//! define void @f(i32* nocapture %p)   ─►    define void @f(ptr captures(none) %p)     other syntax
//! attributes #0 = { readonly }        ─►    attributes #0 = { memory(read) }          other syntax
//! %3 = add i32 %1, 2   ; sum          ─►    %sum = add i32 %x, 2                      same syntax
//! ```
//!
//! Each line is reduced to what survives a renaming: comments, whitespace
//! and label lines dropped, every local, global, comdat, `!N` and `#N` name
//! replaced by its sigil. The file and LLVM's plain print of it must then
//! hold the same lines, in any order. An attribute group LLVM prints must
//! be one of the file's, or part of one: LLVM drops the attributes an
//! intrinsic does not take, which is no new syntax.

use std::collections::HashMap;

use crate::comments::layout::comment_start;

/// `None` when LLVM 22's print of the module (`printed`, before any
/// canonicalization) differs from `written` only in order, names,
/// numbering, whitespace and comments; otherwise one example of the
/// difference, naming the written line.
pub(crate) fn other_syntax(written: &str, printed: &str) -> Option<String> {
    let mut available: HashMap<String, usize> = HashMap::new();
    for line in printed.lines().filter(|l| !is_group(l)).filter_map(reduce) {
        *available.entry(line).or_default() += 1;
    }
    for (i, line) in written.lines().enumerate() {
        if is_group(line) {
            continue;
        }
        let Some(r) = reduce(line) else { continue };
        match available.get_mut(&r) {
            Some(n) if *n > 0 => *n -= 1,
            _ => return Some(format!("line {}: `{}`", i + 1, line.trim())),
        }
    }
    let added = printed
        .lines()
        .filter(|l| !is_group(l))
        .find(|l| reduce(l).is_some_and(|r| available.get(&r).is_some_and(|n| *n > 0)));
    if let Some(line) = added {
        return Some(format!("LLVM 22 adds `{}`", line.trim()));
    }
    other_groups(written, printed)
}

/// An attribute group line, `attributes #N = { ... }`.
fn is_group(line: &str) -> bool {
    line.trim_start().starts_with("attributes #")
}

/// The attributes of a group line, as a set.
fn group_attributes(line: &str) -> Option<Vec<&str>> {
    let open = line.find('{')?;
    let close = line.rfind('}')?;
    let mut attrs: Vec<&str> = line.get(open + 1..close)?.split_whitespace().collect();
    attrs.sort_unstable();
    attrs.dedup();
    Some(attrs)
}

/// Attribute groups: every group LLVM prints must be one the file has, or
/// a part of one. LLVM re-derives an intrinsic's attributes when it parses
/// (it drops `mustprogress` from `llvm.lifetime.start`'s group), so two
/// groups of the file may print as one, and one group shared by several
/// intrinsics (`llvm.va_start`, `llvm.va_end`) may print as parts of it:
/// a written group may answer for any number of printed ones. An attribute
/// the file does not have (`memory(read)` for `readonly`) is another syntax.
fn other_groups(written: &str, printed: &str) -> Option<String> {
    let groups: Vec<Vec<&str>> = written
        .lines()
        .filter(|l| is_group(l))
        .filter_map(group_attributes)
        .collect();
    for line in printed.lines().filter(|l| is_group(l)) {
        let Some(attrs) = group_attributes(line) else {
            continue;
        };
        let covered = |group: &Vec<&str>| attrs.iter().all(|a| group.contains(a));
        if !groups.iter().any(covered) {
            return Some(format!("LLVM 22 writes `{}`", line.trim()));
        }
    }
    None
}

/// The part of `line` a renaming cannot change; `None` for lines that hold
/// nothing else (blank, comment, label).
fn reduce(line: &str) -> Option<String> {
    let code = match comment_start(line) {
        Some(at) => &line[..at],
        None => line,
    };
    let code = code.trim();
    if code.is_empty() || crate::text::label_name(code).is_some() {
        return None;
    }
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => copy_string(&mut chars, &mut out),
            c if c.is_whitespace() => {}
            '%' | '@' | '$' | '!' | '#' => {
                out.push(c);
                let digits_only = matches!(c, '!' | '#');
                match chars.peek() {
                    Some('"') if !digits_only => {
                        chars.next();
                        copy_string(&mut chars, &mut String::new());
                        out.push('_');
                    }
                    Some(&n) if is_name_char(n, digits_only) => {
                        while chars.peek().is_some_and(|&n| is_name_char(n, digits_only)) {
                            chars.next();
                        }
                        out.push('_');
                    }
                    _ => {}
                }
            }
            _ => out.push(c),
        }
    }
    Some(out)
}

fn is_name_char(c: char, digits_only: bool) -> bool {
    if digits_only {
        c.is_ascii_digit()
    } else {
        c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')
    }
}

/// Copies a quoted string (the opening quote already read) up to and
/// including its closing quote, whitespace and all.
fn copy_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, out: &mut String) {
    out.push('"');
    for c in chars.by_ref() {
        out.push(c);
        if c == '"' {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renaming_reordering_and_comments_are_the_same_syntax() {
        let written = "; a test\ndefine i32 @f(i32 %a) {\nentry:\n  %x = add i32 %a, 1 ; one\n  ret i32 %x\n}\nattributes #3 = { nounwind noinline }\n";
        let printed = "attributes #0 = { noinline nounwind }\ndefine i32 @g(i32 %0) {\n  %2 = add i32 %0, 1\n  ret i32 %2\n}\n";
        assert_eq!(other_syntax(written, printed), None);
    }

    #[test]
    fn upgraded_syntax_is_named_by_its_line() {
        let written = "define void @f(i32* nocapture %p) {\n  ret void\n}\n";
        let printed = "define void @f(ptr captures(none) %p) {\n  ret void\n}\n";
        assert_eq!(
            other_syntax(written, printed).as_deref(),
            Some("line 1: `define void @f(i32* nocapture %p) {`")
        );
        let printed_more = format!("{written}declare void @g() #0\n");
        assert_eq!(
            other_syntax(written, &printed_more).as_deref(),
            Some("LLVM 22 adds `declare void @g() #0`")
        );
        let old_group = "attributes #0 = { nounwind readonly }\n";
        let new_group = "attributes #0 = { nounwind memory(read) }\n";
        assert_eq!(
            other_syntax(old_group, new_group).as_deref(),
            Some("LLVM 22 writes `attributes #0 = { nounwind memory(read) }`")
        );
        // Attributes an intrinsic does not take are dropped: not a syntax.
        let clang = "attributes #1 = { mustprogress nocallback nofree }\n";
        let llvm = "attributes #1 = { nocallback nofree }\n";
        assert_eq!(other_syntax(clang, llvm), None);
    }

    #[test]
    fn strings_keep_their_spaces_and_sigils() {
        assert_eq!(
            reduce("@s = constant [4 x i8] c\"a %b\\00\"").as_deref(),
            Some("@_=constant[4xi8]c\"a %b\\00\"")
        );
        assert_eq!(reduce("  \"my block\":"), None);
        assert_eq!(
            reduce("%\"x y\" = load i32, ptr %p, !tbaa !12").as_deref(),
            Some("%_=loadi32,ptr%_,!tbaa!_")
        );
    }
}
