//! LLVM's printed syntax as the text passes see it: the references a line
//! makes to locals (`%x`), metadata (`!7`) and attribute groups (`#2`),
//! found without entering quoted strings, and rewritten in one pass.
//!
//! ```text
//! store i32 %v, ptr %p, !tbaa !5      refs: Local("v"), Local("p"), Meta(5)
//! @s = constant [3 x i8] c"%d!1"     refs: none (the string is skipped)
//! ```

/// A reference found in a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ref<'a> {
    /// `%name` (a local value, argument, block, or a named type).
    Local(&'a str),
    /// `!N`
    Meta(u32),
    /// `#N`
    Attr(u32),
}

/// A byte of a bare (unquoted) LLVM name.
pub fn is_id_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'$' | b'.' | b'_' | b'-')
}

/// Calls `f(start, end, reference)` for every reference in `line` (byte
/// range of the whole token, sigil included), skipping quoted strings
/// (`c"..."`, `!"..."`).
pub fn scan_refs<'a>(line: &'a str, mut f: impl FnMut(usize, usize, Ref<'a>)) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += 1;
            }
            i += 1;
            continue;
        }
        if (c == b'%' || c == b'!' || c == b'#') && i + 1 < bytes.len() {
            let start = i + 1;
            let mut j = start;
            if c == b'%' {
                while j < bytes.len() && is_id_byte(bytes[j]) {
                    j += 1;
                }
            } else {
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                // `!12abc` is not a numbered reference (names start with a letter anyway).
                if j < bytes.len() && is_id_byte(bytes[j]) {
                    j = start;
                }
            }
            if j > start {
                let tok = &line[start..j];
                let r = match c {
                    b'%' => Ref::Local(tok),
                    b'!' => Ref::Meta(tok.parse().unwrap_or(u32::MAX)),
                    _ => Ref::Attr(tok.parse().unwrap_or(u32::MAX)),
                };
                f(i, j, r);
                i = j;
                continue;
            }
        }
        i += 1;
    }
}

/// Rewrites every reference in `line`: `f` either writes the replacement
/// to the output and returns `true`, or returns `false` to keep the token.
pub fn rewrite_with(line: &str, mut f: impl FnMut(Ref<'_>, &mut String) -> bool) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut copied = 0;
    scan_refs(line, |i, j, r| {
        let mark = out.len();
        out.push_str(&line[copied..i]);
        if f(r, &mut out) {
            copied = j;
        } else {
            out.truncate(mark);
        }
    });
    out.push_str(&line[copied..]);
    out
}

/// Rewrites every reference in `line` through `f`, leaving quoted strings
/// (`c"..."`, `!"..."`) untouched.
pub fn rewrite(line: &str, mut f: impl FnMut(Ref<'_>) -> Option<String>) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut copied = 0;
    scan_refs(line, |i, j, r| {
        if let Some(s) = f(r) {
            out.push_str(&line[copied..i]);
            out.push_str(&s);
            copied = j;
        }
    });
    out.push_str(&line[copied..]);
    out
}

/// `@f` in `define ptr addrspace(1) @f(...`: the first `@name(` of a
/// function's header or declaration.
pub fn function_name(header: &str) -> Option<&str> {
    let mut search = header;
    while let Some(at) = search.find('@') {
        let rest = &search[at..];
        if let Some(paren) = rest.find('(') {
            let name = &rest[..paren];
            if !name.contains(' ') {
                return Some(name);
            }
        }
        search = &search[at + 1..];
    }
    None
}
