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

/// The value a line defines (`%x = ...`), if any: a bare name (a quoted
/// one, `%"a b" = `, is `None`).
pub fn def_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('%')?;
    let end = rest.bytes().position(|c| !is_id_byte(c))?;
    rest[end..].starts_with(" = ").then_some(&rest[..end])
}

/// The opcode of an instruction line (`store`, `add`, `call`...): its first
/// word once the `%name = ` it defines (bare or quoted) is set aside.
pub fn opcode(line: &str) -> &str {
    let rest = match line.find(" = ") {
        Some(p) if line.starts_with('%') => &line[p + 3..],
        _ => line,
    };
    rest.split_whitespace().next().unwrap_or("")
}

/// The name a block label defines, given the line's code without its
/// comment and surrounding space: `entry:` → `entry`, `12:` → `12`,
/// `"a b":` → `"a b"` (quotes kept); `None` for any other line.
pub fn label_name(code: &str) -> Option<&str> {
    let name = code.strip_suffix(':')?;
    let quoted = name.len() >= 2 && name.starts_with('"') && name.ends_with('"');
    (quoted || !name.is_empty() && name.bytes().all(is_id_byte)).then_some(name)
}

/// The label a line opens, read from its first byte: `7:`, `for.body:
/// ; preds = %3` (→ `for.body`), `"a b":` (quotes kept); `None` for an
/// indented line, a comment or any other line.
pub fn label_of_line(line: &str) -> Option<&str> {
    let end = match line.as_bytes().first()? {
        b'"' => line[1..].find('"')? + 2,
        _ => line.bytes().position(|c| !is_id_byte(c))?,
    };
    label_name(line.get(..end + 1)?).filter(|_| line[end..].starts_with(':'))
}

/// Calls `f(start, end, sigil, name)` for every reference in `line` to a
/// local (`%x`, `%"a b"`), a global (`@g`, `@"a b"`), a metadata node
/// (`!7`) or an attribute group (`#2`): `start..end` spans the token, sigil
/// included, and `name` is what follows the sigil (quotes kept). Quoted
/// strings (`c"..."`, `!"..."`) are skipped. The one reference scanner:
/// [`scan_refs`] and [`rewrite_tokens`] read it.
pub fn scan_tokens<'a>(line: &'a str, mut f: impl FnMut(usize, usize, u8, &'a str)) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' {
            i = quoted_end(bytes, i + 1);
            continue;
        }
        if matches!(c, b'%' | b'@' | b'!' | b'#') && i + 1 < bytes.len() {
            let start = i + 1;
            let end = token_end(bytes, c, start);
            if end > start {
                f(i, end, c, &line[start..end]);
                i = end;
                continue;
            }
        }
        i += 1;
    }
}

/// Where a quoted run that starts at `from` (after its opening quote) ends:
/// just past its closing quote, or at the end of `bytes`.
fn quoted_end(bytes: &[u8], from: usize) -> usize {
    match memchr::memchr(b'"', &bytes[from.min(bytes.len())..]) {
        Some(at) => from + at + 1,
        None => bytes.len() + 1,
    }
}

/// The end of the name after `sigil` at `start` (`start` when there is
/// none): a bare or quoted name for `%` and `@`, a number for `!` and `#`
/// (`!12abc` is not a numbered reference).
fn token_end(bytes: &[u8], sigil: u8, start: usize) -> usize {
    if matches!(sigil, b'%' | b'@') {
        if bytes[start] == b'"' {
            return quoted_end(bytes, start + 1).min(bytes.len());
        }
        let run = bytes[start..]
            .iter()
            .take_while(|&&b| is_id_byte(b))
            .count();
        return start + run;
    }
    let digits = bytes[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    match bytes.get(start + digits) {
        Some(&b) if is_id_byte(b) => start,
        _ => start + digits,
    }
}

/// Calls `f(start, end, reference)` for every reference in `line` to a
/// bare local, a metadata node or an attribute group (byte range of the
/// whole token, sigil included), skipping quoted strings (`c"..."`,
/// `!"..."`) and quoted names.
pub fn scan_refs<'a>(line: &'a str, mut f: impl FnMut(usize, usize, Ref<'a>)) {
    scan_tokens(line, |i, j, sigil, tok| {
        let r = match sigil {
            b'%' if !tok.starts_with('"') => Ref::Local(tok),
            b'!' => Ref::Meta(tok.parse().unwrap_or(u32::MAX)),
            b'#' => Ref::Attr(tok.parse().unwrap_or(u32::MAX)),
            _ => return,
        };
        f(i, j, r);
    });
}

/// `code` with the references [`scan_tokens`] finds rewritten through
/// `map(sigil, name)`: `Some(new)` puts `new` after the sigil, `None` keeps
/// the reference as it is.
pub fn rewrite_tokens(code: &str, mut map: impl FnMut(u8, &str) -> Option<String>) -> String {
    let mut out = String::with_capacity(code.len() + 8);
    let mut copied = 0;
    scan_tokens(code, |i, j, sigil, name| {
        if let Some(new) = map(sigil, name) {
            out.push_str(&code[copied..i]);
            out.push(sigil as char);
            out.push_str(&new);
            copied = j;
        }
    });
    out.push_str(&code[copied..]);
    out
}

/// Calls `f(start, end, number)` for every `!N` (`sigil` `b'!'`) or `#N`
/// (`b'#'`) reference of `line`: exactly those [`scan_refs`] reports as
/// [`Ref::Meta`] or [`Ref::Attr`] (no other token can hold a `!` or `#`),
/// found by jumping from one quote or sigil to the next.
pub(crate) fn scan_numbered(line: &str, sigil: u8, mut f: impl FnMut(usize, usize, u32)) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while let Some(k) = memchr::memchr2(b'"', sigil, &bytes[i..]) {
        let at = i + k;
        if bytes[at] == b'"' {
            i = memchr::memchr(b'"', &bytes[at + 1..]).map_or(bytes.len(), |e| at + e + 2);
            continue;
        }
        let start = at + 1;
        let digits = bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let end = start + digits;
        if digits > 0 && !bytes.get(end).is_some_and(|&b| is_id_byte(b)) {
            f(at, end, line[start..end].parse().unwrap_or(u32::MAX));
            i = end;
        } else {
            i = start;
        }
    }
}

/// Appends `n` in decimal.
pub(crate) fn push_decimal(out: &mut String, n: u32) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// The lines of `text` exactly as [`str::lines`] splits them (`\n` or
/// `\r\n` ends a line), found by a vectorized search: the text passes
/// walk whole printed modules several times.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    lines_inclusive(text).map(|l| {
        let Some(l) = l.strip_suffix('\n') else {
            return l;
        };
        l.strip_suffix('\r').unwrap_or(l)
    })
}

/// The lines of `text` with their `\n`, as `text.split_inclusive('\n')`.
pub(crate) fn lines_inclusive(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let mut ends = memchr::memchr_iter(b'\n', text.as_bytes());
    std::iter::from_fn(move || {
        let end = ends.next().map_or(text.len(), |e| e + 1);
        (start < end).then(|| {
            let line = &text[start..end];
            start = end;
            line
        })
    })
}

/// The lines of `text` that contain `byte`, each once and in order, as
/// [`lines`] gives them: found from the occurrences of `byte`, so a pass
/// that only reads such lines (`#N` in a module without attributes) does
/// not walk the others.
pub(crate) fn lines_with(text: &str, byte: u8) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut next_line = 0;
    memchr::memchr_iter(byte, bytes).filter_map(move |at| {
        if at < next_line {
            return None;
        }
        let start =
            memchr::memrchr(b'\n', &bytes[next_line..at]).map_or(next_line, |k| next_line + k + 1);
        next_line = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |k| at + k + 1);
        Some(line_from(text, start))
    })
}

/// The lines of `text` that start with `prefix` (not empty, no `\n`), in
/// order, as [`lines`] gives them: found by searching for a line end
/// followed by the prefix.
pub(crate) fn lines_starting_with<'t>(
    text: &'t str,
    prefix: &str,
) -> impl Iterator<Item = &'t str> {
    debug_assert!(!prefix.is_empty() && !prefix.contains('\n'));
    let bytes = text.as_bytes();
    let first = text.starts_with(prefix).then_some(0);
    let needle = format!("\n{prefix}");
    let finder = memchr::memmem::Finder::new(needle.as_bytes()).into_owned();
    let mut from = 0;
    let after_line_ends = std::iter::from_fn(move || {
        let at = from + finder.find(&bytes[from..])?;
        from = at + 1;
        Some(at + 1)
    });
    first
        .into_iter()
        .chain(after_line_ends)
        .map(move |start| line_from(text, start))
}

/// The line of `text` from `start` to the next `\n` (or the end), without
/// the `\r` of a `\r\n` ending, as [`lines`] gives it.
fn line_from(text: &str, start: usize) -> &str {
    match memchr::memchr(b'\n', &text.as_bytes()[start..]) {
        Some(k) => {
            let line = &text[start..start + k];
            line.strip_suffix('\r').unwrap_or(line)
        }
        None => &text[start..],
    }
}

/// Rewrites every reference in `line`: `f` either writes the replacement
/// to the output and returns `true`, or returns `false` to keep the token.
pub fn rewrite_with(line: &str, f: impl FnMut(Ref<'_>, &mut String) -> bool) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    rewrite_into(line, &mut out, f);
    out
}

/// [`rewrite_with`], appending the rewritten `line` to `out`.
pub fn rewrite_into(line: &str, out: &mut String, mut f: impl FnMut(Ref<'_>, &mut String) -> bool) {
    let mut copied = 0;
    scan_refs(line, |i, j, r| {
        let mark = out.len();
        out.push_str(&line[copied..i]);
        if f(r, out) {
            copied = j;
        } else {
            out.truncate(mark);
        }
    });
    out.push_str(&line[copied..]);
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

/// The byte spans (from just after `(` or `,` to the next `,` or `)`) of
/// the items of a bracketed list (a function's parameters, a call's
/// arguments) in `list`, which starts with `(`; `None` when the list
/// does not close.
pub(crate) fn item_spans(list: &str) -> Option<Vec<(usize, usize)>> {
    let bytes = list.as_bytes();
    let close = bracket_end(bytes, 0)? - 1;
    let (mut spans, mut start, mut i) = (Vec::new(), 1, 1);
    while i < close {
        match bytes[i] {
            b'"' => i += 2 + bytes[i + 1..].iter().position(|&b| b == b'"')?,
            b'(' | b'[' | b'{' | b'<' => i = bracket_end(bytes, i)?,
            b',' => {
                spans.push((start, i));
                start = i + 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    spans.push((start, close));
    Some(spans)
}

/// The end (after the closing bracket) of the bracketed text that starts
/// at `start` (`(`, `[`, `{` or `<`), quoted strings skipped.
pub(crate) fn bracket_end(bytes: &[u8], start: usize) -> Option<usize> {
    let (mut depth, mut quoted) = (0i32, false);
    for (i, &b) in bytes.iter().enumerate().skip(start) {
        match b {
            b'"' => quoted = !quoted,
            _ if quoted => {}
            b'[' | b'<' | b'{' | b'(' => depth += 1,
            b']' | b'>' | b'}' | b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// `@f` in `define ptr addrspace(1) @f(...`: the first `@name(` of a
/// function's header or declaration, a quoted name read to its closing
/// quote (`@"(T).m"` in `define void @"(T).m"(ptr %p)`).
pub fn function_name(header: &str) -> Option<&str> {
    let mut search = header;
    while let Some(at) = search.find('@') {
        let rest = &search[at..];
        let end = match rest.strip_prefix("@\"") {
            Some(quoted) => quoted.find('"').map(|close| close + 3),
            None => rest.find('(').filter(|&paren| !rest[..paren].contains(' ')),
        };
        if let Some(end) = end.filter(|&end| rest[end..].starts_with('(')) {
            return Some(&rest[..end]);
        }
        search = &search[at + 1..];
    }
    None
}

/// The name a canonical numbering anchor hashes for a line: the text from
/// its first `@` to the next `(` with no space between, so only `@"` for a
/// quoted name with a parenthesis (`@"(T).m"(`). The canonical form's `#N`
/// and `!N` numbers depend on it: a change here changes the canonical form
/// of such files (a new `CANON_VERSION`), which is why it is not
/// [`function_name`].
pub fn anchor_name(line: &str) -> Option<&str> {
    let mut search = line;
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

#[cfg(test)]
mod tests {
    /// Lines with a byte, and lines with a prefix, are the lines a full
    /// walk finds, on texts with `\r\n`, no final line end, empty lines,
    /// and the byte or prefix at either end of a line.
    #[test]
    fn lines_found_by_search_are_the_lines_a_walk_finds() {
        let texts = [
            "",
            "#",
            "#\n",
            "a#b#c\n#\n\nxx\n#y",
            "attributes #0 = { }\r\n!0 = !{}\r\n\r\n!1 = !{!0}",
            "x\n!\n!!\n ! \n!a\n",
            "no hit at all\nstill none\n",
            "\n\n#\n\n",
            "a#\r",
            "!a\r\n!b\r",
        ];
        for text in texts {
            for byte in [b'#', b'!', b'x'] {
                let walked: Vec<&str> = lines(text)
                    .filter(|l| l.as_bytes().contains(&byte))
                    .collect();
                let found: Vec<&str> = lines_with(text, byte).collect();
                assert_eq!(found, walked, "{text:?} with {:?}", byte as char);
            }
            for prefix in ["!", "#", "attributes #", "!a", "x"] {
                let walked: Vec<&str> = lines(text).filter(|l| l.starts_with(prefix)).collect();
                let found: Vec<&str> = lines_starting_with(text, prefix).collect();
                assert_eq!(found, walked, "{text:?} starting with {prefix:?}");
            }
        }
    }

    use super::*;

    /// Tricky lines: strings holding sigils, unclosed strings, sigils at the
    /// end, names and numbers glued to sigils.
    const LINES: &[&str] = &[
        "  store i32 %v, ptr %p, align 4, !tbaa !5, !noalias !12",
        "@s = constant [5 x i8] c\"#0!1\\00\", align 1 #3",
        "!7 = !{!\"a!1\", !8, i64 0}",
        "  call void @f() #12 !dbg !3abc !4",
        "!",
        "x #",
        "%\"q!1\" = load i32, ptr %a#2!3",
        "unclosed \"!1 #2",
        "!1!2#3#4\"!5\"!6",
    ];

    #[test]
    fn scan_numbered_finds_what_scan_refs_finds() {
        for line in LINES {
            for (sigil, want) in [(b'!', true), (b'#', false)] {
                let mut all = Vec::new();
                scan_refs(line, |s, e, r| match r {
                    Ref::Meta(n) if want => all.push((s, e, n)),
                    Ref::Attr(n) if !want => all.push((s, e, n)),
                    _ => {}
                });
                let mut fast = Vec::new();
                scan_numbered(line, sigil, |s, e, n| fast.push((s, e, n)));
                assert_eq!(fast, all, "{line:?}, sigil {}", sigil as char);
            }
        }
    }

    #[test]
    fn lines_split_like_std() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\r\nb\r",
            "a\n\nb\r\n",
            "\r\n\r",
            "x\ry\nz",
        ] {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.lines().collect::<Vec<_>>()
            );
            assert_eq!(
                lines_inclusive(text).collect::<Vec<_>>(),
                text.split_inclusive('\n').collect::<Vec<_>>()
            );
        }
        let all = LINES.join("\n");
        assert_eq!(lines(&all).collect::<Vec<_>>(), LINES);
    }

    #[test]
    fn function_name_reads_quoted_names_whole() {
        let cases = [
            (
                "define i32 @\"(Number).Double\"(i32 %r) {",
                Some("@\"(Number).Double\""),
            ),
            (
                "  %x = call i32 @\"(T).m$invoke\"(ptr null)",
                Some("@\"(T).m$invoke\""),
            ),
            ("define ptr addrspace(1) @f(i32 %a) {", Some("@f")),
            ("declare void @\"a b\"(ptr)", Some("@\"a b\"")),
            ("@g = global ptr @\"(T).m\"", None),
        ];
        for (line, name) in cases {
            assert_eq!(function_name(line), name, "{line}");
        }
        assert_eq!(anchor_name("define void @\"(T).m\"(ptr %p)"), Some("@\""));
    }

    #[test]
    fn push_decimal_writes_like_display() {
        let mut n = String::new();
        for k in [0, 7, 10, 99, 100, 4_294_967_295] {
            n.clear();
            push_decimal(&mut n, k);
            assert_eq!(n, k.to_string());
        }
    }
}
