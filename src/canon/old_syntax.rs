//! The view of a file in a syntax LLVM 22 no longer reads. Before LLVM
//! 3.7, `load` and `getelementptr` name the type they read or index only
//! through the pointer's type, `alias` its aliasee's (with its linkage
//! after the keyword), `sret` and `byval` their parameter's, a call's
//! function type is a pointer, and a `landingpad` names the function's
//! personality; before 3.6, metadata is written with the word `metadata`
//! (`!0 = metadata !{metadata !"x"}`) and an intrinsic's value wrapped in a
//! node (`metadata !{i32 %x}`); before 15, an inline `asm` operand of an
//! indirect constraint (`=*m`) has no `elementtype`. Written out explicitly, such a
//! file is the module its authors meant, and its view is compared with its
//! neighbours' as any other (emscripten's kept test cases, whose older
//! versions LLVM 22 rejects, otherwise differ from their modernized
//! neighbours on every line).
//!
//! ```text
//! as written (LLVM 3.6)                       read as
//! %v = load i32* %p, align 4                  %v = load i32, i32* %p, align 4
//! getelementptr inbounds (%T* @g, i32 0)      getelementptr inbounds (%T, %T* @g, i32 0)
//! @a = alias void ()* @f                      @a = alias void (), void ()* @f
//! call i32 (i8*, ...)* @printf(i8* %s)         call i32 (i8*, ...) @printf(i8* %s)
//! !0 = metadata !{metadata !"a.c", i32 1}     !0 = !{!"a.c", i32 1}
//! asm "...", "=*m"(i32* %p)                    asm "...", "=*m"(i32* elementtype(i32) %p)
//! define void @f(%T* sret %r) {               define void @f(%T* sret(%T) %r) personality ... {
//!   landingpad { i8*, i32 } personality ...     landingpad { i8*, i32 }
//! ```
//!
//! Only the view reads it so; the merge and the hook never do. IR a person
//! wrote, read so, is shown in its own text ([`super::view`]).

use crate::comments::layout::comment_start;

/// `text` in today's syntax where it used the old one (the forms above);
/// `None` when it uses none of them.
pub(super) fn upgraded(text: &str) -> Option<String> {
    let mut changed = false;
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in crate::text::lines_inclusive(text) {
        let code_end = comment_start(line).unwrap_or(line.len());
        let (code, rest) = line.split_at(code_end);
        let new = with_asm_element_types(&with_pointee_attributes(&with_callee_types(
            &upgraded_code(&alias_upgraded(&with_metadata_upgraded(code))),
        )));
        changed |= new != code;
        out.push_str(&new);
        out.push_str(rest);
    }
    match with_function_personalities(&out) {
        Some(moved) => Some(moved),
        None => changed.then_some(out),
    }
}

/// Linkages an older `alias` wrote after the keyword (`alias internal`).
const LINKAGES: [&str; 8] = [
    "private ",
    "internal ",
    "weak ",
    "weak_odr ",
    "linkonce ",
    "linkonce_odr ",
    "external ",
    "available_externally ",
];

/// An `alias` line of the older syntaxes in today's: a linkage after the
/// keyword moved before it, and an aliasee that is a `bitcast (X to T*)`
/// given its type (`alias T, T* bitcast (...)`).
fn alias_upgraded(code: &str) -> std::borrow::Cow<'_, str> {
    let Some(at) = code.find(" alias ").filter(|_| code.starts_with('@')) else {
        return code.into();
    };
    let (head, mut rest) = (&code[..at], &code[at + " alias ".len()..]);
    let mut linkage = "";
    if let Some(l) = LINKAGES.iter().find(|l| rest.starts_with(**l)) {
        linkage = l;
        rest = &rest[l.len()..];
    }
    let typed = rest
        .strip_prefix("bitcast ")
        .and_then(|cast| cast_target(cast))
        .and_then(|to| pointee_of(to).map(|p| format!("{p}, {to} ")));
    if linkage.is_empty() && typed.is_none() {
        return code.into();
    }
    let typed = typed.unwrap_or_default();
    format!("{head} {linkage}alias {typed}{rest}").into()
}

/// The target type of a cast's operand list `(X to T)`.
fn cast_target(cast: &str) -> Option<&str> {
    let end = crate::text::bracket_end(cast.as_bytes(), 0)?;
    let inner = &cast[1..end - 1];
    let to = inner.rfind(" to ")?;
    Some(inner[to + " to ".len()..].trim())
}

/// One line's code with each `sret` and `byval` written without its type
/// (older syntax: the parameter's pointee) given it: `%T* sret %p` becomes
/// `%T* sret(%T) %p`.
fn with_pointee_attributes(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + 16);
    let mut at = 0;
    while let Some((start, len)) = next_of(code, at, &POINTEE_ATTRIBUTES) {
        let attribute_end = start + len - 1;
        out.push_str(&code[at..attribute_end]);
        at = attribute_end;
        let operand = operand_start(code, start);
        let pointee = type_end(code, operand).and_then(|end| pointee_of(&code[operand..end]));
        if let Some(pointee) = pointee {
            out.push('(');
            out.push_str(pointee);
            out.push(')');
        }
    }
    out.push_str(&code[at..]);
    out
}

const POINTEE_ATTRIBUTES: [&str; 2] = ["sret ", "byval "];

/// One line's code with each operand of an inline `asm` that an indirect
/// constraint (`=*m`, `*m`) reads or writes given its `elementtype`, which
/// LLVM 14 and older left to the pointer's type: `"=*m"(i32* %p)` becomes
/// `"=*m"(i32* elementtype(i32) %p)`.
fn with_asm_element_types(code: &str) -> String {
    element_types_written(code).unwrap_or_else(|| code.to_string())
}

/// [`with_asm_element_types`] of a line with an inline `asm` call.
fn element_types_written(code: &str) -> Option<String> {
    let (constraints, open, close) = asm_arguments(code)?;
    let list = &code[open..=close];
    let spans = crate::text::item_spans(list)?;
    let mut indirection = constraints.split(',').filter_map(operand_indirection);
    let operands: Vec<_> = spans
        .into_iter()
        .map(|(from, to)| with_element_type(&list[from..to], indirection.next() == Some(true)))
        .collect();
    let mut out = String::with_capacity(code.len() + 32);
    out.push_str(&code[..=open]);
    out.push_str(&operands.join(","));
    out.push_str(&code[close..]);
    Some(out)
}

/// The constraint string of the line's inline `asm` call and the bytes of
/// its argument list's `(` and `)`.
fn asm_arguments(code: &str) -> Option<(&str, usize, usize)> {
    let (start, len) = next_of(code, 0, &["asm "])?;
    let bytes = code.as_bytes();
    let mut quotes = (start + len..bytes.len()).filter(|&i| bytes[i] == b'"');
    let _asm_string = (quotes.next()?, quotes.next()?);
    let (open_quote, close_quote) = (quotes.next()?, quotes.next()?);
    let open = close_quote + 1;
    if bytes.get(open) != Some(&b'(') {
        return None;
    }
    let close = crate::text::bracket_end(bytes, open)? - 1;
    Some((&code[open_quote + 1..close_quote], open, close))
}

/// For one constraint, whether the operand it takes is indirect; `None`
/// for one that takes no operand (a clobber `~{...}`, a direct output).
fn operand_indirection(constraint: &str) -> Option<bool> {
    if constraint.starts_with('~') {
        return None;
    }
    match constraint.strip_prefix('=') {
        Some(output) => output
            .trim_start_matches('&')
            .starts_with('*')
            .then_some(true),
        None => Some(constraint.starts_with('*')),
    }
}

/// An operand (`" i32* %p"`) given `elementtype(i32)` when `indirect`,
/// its type a typed pointer and no element type written.
fn with_element_type(operand: &str, indirect: bool) -> std::borrow::Cow<'_, str> {
    let start = operand.len() - operand.trim_start().len();
    let pointee =
        type_end(operand, start).and_then(|end| Some((end, pointee_of(&operand[start..end])?)));
    match pointee {
        Some((end, pointee)) if indirect && !operand.contains("elementtype(") => format!(
            "{} elementtype({pointee}){}",
            &operand[..end],
            &operand[end..]
        )
        .into(),
        _ => operand.into(),
    }
}

/// Where the parameter or argument that holds byte `at` starts: after the
/// nearest `(` or `,` before it outside brackets, spaces skipped.
fn operand_start(code: &str, at: usize) -> usize {
    let bytes = code.as_bytes();
    let mut depth = 0i32;
    let mut i = at;
    while i > 0 {
        i -= 1;
        match bytes[i] {
            b')' | b']' | b'}' | b'>' => depth += 1,
            b'(' | b'[' | b'{' | b'<' if depth > 0 => depth -= 1,
            b'(' | b',' if depth == 0 => break,
            _ => {}
        }
    }
    let from = if i == 0 { 0 } else { i + 1 };
    from + code[from..].len() - code[from..].trim_start().len()
}

/// `text` with each function's personality, which older syntax wrote on
/// its `landingpad`s (`landingpad T personality P cleanup`), on its
/// `define` line instead (`define ... personality P {`); `None` when no
/// `landingpad` names one.
fn with_function_personalities(text: &str) -> Option<String> {
    if !text.contains(" personality ") {
        return None;
    }
    let lines: Vec<&str> = crate::text::lines_inclusive(text).collect();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut define = None;
    let mut changed = false;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("define ") {
            define = Some(i);
        }
        let Some((without, personality)) = landingpad_personality(line) else {
            continue;
        };
        out[i] = without;
        changed = true;
        if let Some(d) = define.filter(|&d| !out[d].contains(" personality ")) {
            let brace = out[d].rfind('{')?;
            out[d].insert_str(brace, &format!("personality {personality} "));
        }
    }
    changed.then(|| out.concat())
}

/// A `landingpad` line without its `personality <type> <value>`, and that
/// personality.
fn landingpad_personality(line: &str) -> Option<(String, String)> {
    let code_end = comment_start(line).unwrap_or(line.len());
    let code = &line[..code_end];
    let pad = code.find(" landingpad ")?;
    let at = pad + code[pad..].find(" personality ")?;
    let value = at + " personality ".len();
    let ty_end = type_end(code, value)?;
    let value_start = ty_end + 1;
    let rest = &code[value_start..];
    let word = rest
        .bytes()
        .take_while(|b| crate::text::is_id_byte(*b) || matches!(b, b'@' | b'%' | b'"'))
        .count();
    let mut value_end = value_start + word;
    if code[value_end..].starts_with(" (") {
        value_end = crate::text::bracket_end(code.as_bytes(), value_end + 1)?;
    }
    let personality = code[value..value_end].to_string();
    let without = format!("{}{}", &code[..at], &line[value_end..]);
    Some((without, personality))
}

/// One line's code with metadata in the syntax of LLVM 3.6 on: a node's
/// elements and a node itself written without the word `metadata`
/// (`!0 = metadata !{metadata !"x", i32 1}` is `!0 = !{!"x", i32 1}`), and
/// a value an intrinsic takes as metadata written as itself
/// (`metadata !{i32 %x}` is `metadata i32 %x`).
fn with_metadata_upgraded(code: &str) -> std::borrow::Cow<'_, str> {
    const WORD: &str = "metadata ";
    if next_of(code, 0, &[WORD]).is_none() {
        return code.into();
    }
    let definition = code.starts_with('!');
    let mut out = String::with_capacity(code.len());
    let mut at = 0;
    while let Some((start, len)) = next_of(code, at, &[WORD]) {
        out.push_str(&code[at..start]);
        at = start + len;
        let node = &code[at..];
        if !node.starts_with('!') {
            out.push_str(WORD);
        } else if !definition && !inside_node(&code[..start]) {
            match wrapped_value(node) {
                Some((value, end)) => {
                    out.push_str(WORD);
                    out.push_str(value);
                    at += end;
                }
                None => out.push_str(WORD),
            }
        }
    }
    out.push_str(&code[at..]);
    out.into()
}

/// Whether the end of `code` lies inside a metadata node's braces (`!{`),
/// quoted strings aside.
fn inside_node(code: &str) -> bool {
    let mut open: Vec<bool> = Vec::new();
    let mut quoted = false;
    let bytes = code.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b'{' if !quoted => open.push(i > 0 && bytes[i - 1] == b'!'),
            b'}' if !quoted => {
                open.pop();
            }
            _ => {}
        }
    }
    open.contains(&true)
}

/// The one value a node of an intrinsic's operand wraps (`!{i32 %x}`
/// gives `i32 %x`), and where the node ends; `None` for a node of
/// metadata, an empty one or one of several elements.
fn wrapped_value(node: &str) -> Option<(&str, usize)> {
    let inner = node.strip_prefix("!{")?;
    let end = crate::text::bracket_end(node.as_bytes(), 1)?;
    let value = inner[..end - 3].trim();
    let of_metadata = value.starts_with('!') || value.starts_with("metadata ");
    let single = !value.is_empty() && !of_metadata && !value.contains(", ");
    single.then_some((value, end))
}

/// The keywords after which the old syntax wrote a pointer where the new
/// one writes the pointee type first, and the flags that may follow them.
const KEYWORDS: [&str; 3] = ["load ", "getelementptr ", "alias "];
const FLAGS: [&str; 6] = ["volatile ", "atomic ", "inbounds ", "nuw ", "nusw ", "("];

/// One line's code (no comment) with its old-syntax operands upgraded.
fn upgraded_code(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + 16);
    let mut at = 0;
    while let Some((start, len)) = next_of(code, at, &KEYWORDS) {
        let mut operand = start + len;
        while let Some(flag) = FLAGS.iter().find(|f| code[operand..].starts_with(**f)) {
            operand += flag.len();
        }
        out.push_str(&code[at..operand]);
        at = operand;
        let Some(end) = type_end(code, operand) else {
            continue;
        };
        let ty = &code[operand..end];
        let explicit = code[end..].trim_start().starts_with(',');
        if let (false, Some(pointee)) = (explicit, pointee_of(ty)) {
            out.push_str(pointee);
            out.push_str(", ");
        }
        out.push_str(ty);
        at = end;
    }
    out.push_str(&code[at..]);
    out
}

/// One line's code with each call's function type written as a function
/// type, not a pointer to one: `call i32 (i8*, ...)* @printf(` becomes
/// `call i32 (i8*, ...) @printf(`.
fn with_callee_types(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut at = 0;
    while let Some((start, len)) = next_of(code, at, &CALLS) {
        let ty = skip_attributes(code, start + len);
        out.push_str(&code[at..ty]);
        at = ty;
        let Some(end) = type_end(code, ty) else {
            continue;
        };
        let callee_follows = code[end..].starts_with(' ');
        match code[ty..end].strip_suffix(")*") {
            Some(function) if callee_follows => {
                out.push_str(function);
                out.push(')');
            }
            _ => out.push_str(&code[ty..end]),
        }
        at = end;
    }
    out.push_str(&code[at..]);
    out
}

const CALLS: [&str; 2] = ["call ", "invoke "];

/// Where the return type starts after a call's keyword: past calling
/// conventions and return attributes (`fastcc`, `cc 10`, `noalias`,
/// `dereferenceable(8)`), every word that starts no type.
fn skip_attributes(code: &str, mut at: usize) -> usize {
    let bytes = code.as_bytes();
    loop {
        let word = bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if word == 0 || starts_type(&code[at..at + word]) {
            return at;
        }
        let mut next = at + word;
        if bytes.get(next) == Some(&b'(') {
            match crate::text::bracket_end(bytes, next) {
                Some(end) => next = end,
                None => return at,
            }
        }
        if bytes.get(next) != Some(&b' ') {
            return at;
        }
        at = next + 1;
    }
}

/// Whether `word` begins a type (`i32`, `void`, `ptr`, `double`...).
fn starts_type(word: &str) -> bool {
    let int =
        word.len() > 1 && word.starts_with('i') && word[1..].bytes().all(|b| b.is_ascii_digit());
    int || [
        "void",
        "half",
        "bfloat",
        "float",
        "double",
        "fp128",
        "x86_fp80",
        "ppc_fp128",
        "ptr",
        "label",
        "metadata",
        "token",
        "x86_amx",
    ]
    .contains(&word)
}

/// The next of `words` at or after `from` that is a whole word outside
/// quoted strings and names: (its start, its length).
fn next_of(code: &str, from: usize, words: &[&str]) -> Option<(usize, usize)> {
    let bytes = code.as_bytes();
    let mut quoted = bytes[..from].iter().filter(|&&b| b == b'"').count() % 2 == 1;
    for i in from..bytes.len() {
        if bytes[i] == b'"' {
            quoted = !quoted;
            continue;
        }
        let in_name =
            i > 0 && (crate::text::is_id_byte(bytes[i - 1]) || b"%@".contains(&bytes[i - 1]));
        if quoted || in_name {
            continue;
        }
        if let Some(k) = words.iter().find(|k| bytes[i..].starts_with(k.as_bytes())) {
            return Some((i, k.len()));
        }
    }
    None
}

/// The end of the type that starts at `start`: a base type (a word, a
/// `%name`, a bracketed aggregate) and any `*`, `addrspace(N)` and
/// function parameter lists after it.
fn type_end(code: &str, start: usize) -> Option<usize> {
    let bytes = code.as_bytes();
    let mut i = base_end(bytes, start)?;
    loop {
        let spaced = usize::from(bytes.get(i) == Some(&b' '));
        match bytes.get(i + spaced) {
            Some(b'*') if spaced == 0 => i += 1,
            Some(b'(') => i = crate::text::bracket_end(bytes, i + spaced)?,
            _ if code[i + spaced..].starts_with("addrspace(") => {
                i = crate::text::bracket_end(bytes, i + spaced + "addrspace".len())?;
            }
            _ => return Some(i),
        }
    }
}

/// The end of the base type at `start`.
fn base_end(bytes: &[u8], start: usize) -> Option<usize> {
    match bytes.get(start)? {
        b'[' | b'<' | b'{' | b'(' => crate::text::bracket_end(bytes, start),
        b'%' if bytes.get(start + 1) == Some(&b'"') => {
            let close = bytes[start + 2..].iter().position(|&b| b == b'"')?;
            Some(start + 2 + close + 1)
        }
        _ => {
            let sigil = usize::from(bytes[start] == b'%');
            let len = bytes[start + sigil..]
                .iter()
                .take_while(|&&b| crate::text::is_id_byte(b))
                .count();
            (len > 0).then_some(start + sigil + len)
        }
    }
}

/// The type a pointer type `ty` points to (`i8` of `i8*` and of
/// `i8 addrspace(1)*`); `None` when `ty` is no typed pointer.
fn pointee_of(ty: &str) -> Option<&str> {
    let inner = ty.strip_suffix('*')?.trim_end();
    match inner.rfind(" addrspace(") {
        Some(at) if inner.ends_with(')') => Some(&inner[..at]),
        _ => Some(inner),
    }
}

#[cfg(test)]
mod tests {
    use super::upgraded;

    #[test]
    fn loads_and_geps_get_their_types() {
        let old = "  %v = load i32* %p, align 4\n\
                   \x20 %q = getelementptr inbounds %T* %s, i32 0, i32 1 ; load i8* %x\n\
                   @g = global i8* getelementptr (i8* getelementptr inbounds ({ i8, [3 x i8] }* @s, i32 0, i32 0), i64 2)\n\
                   \x20 %f = load i32 (i8*)** %fp\n\
                   \x20 %a = load volatile i8 addrspace(1)* %r\n\
                   @o = internal alias void (i32)* @doit\n\
                   \x20 %c = tail call fastcc i32 (i8*, ...)* @printf(i8* bitcast (void (i8*)* @f to i8*))\n";
        let new = "  %v = load i32, i32* %p, align 4\n\
                   \x20 %q = getelementptr inbounds %T, %T* %s, i32 0, i32 1 ; load i8* %x\n\
                   @g = global i8* getelementptr (i8, i8* getelementptr inbounds ({ i8, [3 x i8] }, { i8, [3 x i8] }* @s, i32 0, i32 0), i64 2)\n\
                   \x20 %f = load i32 (i8*)*, i32 (i8*)** %fp\n\
                   \x20 %a = load volatile i8, i8 addrspace(1)* %r\n\
                   @o = internal alias void (i32), void (i32)* @doit\n\
                   \x20 %c = tail call fastcc i32 (i8*, ...) @printf(i8* bitcast (void (i8*)* @f to i8*))\n";
        assert_eq!(upgraded(old).as_deref(), Some(new));
    }

    #[test]
    fn personalities_move_to_their_functions_and_attributes_get_types() {
        let old = "@a = alias internal void ()* @f\n\
                   @b = alias bitcast (void ()* @f to void (i32)*)\n\
                   define void @g(%T* noalias sret %r, %U* byval(%U) %u) {\n\
                   \x20 %x = landingpad { i8*, i32 } personality i8* bitcast (i32 (...)* @p to i8*) cleanup\n\
                   \x20 ret void\n}\n";
        let new = "@a = internal alias void (), void ()* @f\n\
                   @b = alias void (i32), void (i32)* bitcast (void ()* @f to void (i32)*)\n\
                   define void @g(%T* noalias sret(%T) %r, %U* byval(%U) %u) personality i8* bitcast (i32 (...)* @p to i8*) {\n\
                   \x20 %x = landingpad { i8*, i32 } cleanup\n\
                   \x20 ret void\n}\n";
        assert_eq!(upgraded(old).as_deref(), Some(new));
    }

    #[test]
    fn metadata_loses_its_word_and_intrinsics_take_their_values() {
        let old = "!0 = metadata !{i32 786449, metadata !\"a.c\", metadata !1, null}\n\
                   !llvm.ident = !{!0}\n\
                   !2 = metadata !{metadata !\"metadata !{\"}\n\
                   \x20 call void @llvm.dbg.value(metadata !{i32 %x}, i64 0, metadata !5), !dbg !6\n\
                   \x20 call void @llvm.dbg.declare(metadata !{i32* %p}, metadata !{metadata !7})\n\
                   declare void @llvm.dbg.value(metadata, i64, metadata)\n";
        let new = "!0 = !{i32 786449, !\"a.c\", !1, null}\n\
                   !llvm.ident = !{!0}\n\
                   !2 = !{!\"metadata !{\"}\n\
                   \x20 call void @llvm.dbg.value(metadata i32 %x, i64 0, metadata !5), !dbg !6\n\
                   \x20 call void @llvm.dbg.declare(metadata i32* %p, metadata !{!7})\n\
                   declare void @llvm.dbg.value(metadata, i64, metadata)\n";
        assert_eq!(upgraded(old).as_deref(), Some(new));
    }

    #[test]
    fn indirect_asm_operands_get_their_element_types() {
        let old = "  call void asm sideeffect \"mov $0, $1\", \"=*m,r,*m,~{eax}\"(i32* %a, i32 %b, { i8, i16 }* %c)\n\
                   \x20 %r = call i32 asm \"f\", \"=r,=*&m,*m\"(i8* %d, i8* elementtype(i8) %e)\n";
        let new = "  call void asm sideeffect \"mov $0, $1\", \"=*m,r,*m,~{eax}\"(i32* elementtype(i32) %a, i32 %b, { i8, i16 }* elementtype({ i8, i16 }) %c)\n\
                   \x20 %r = call i32 asm \"f\", \"=r,=*&m,*m\"(i8* elementtype(i8) %d, i8* elementtype(i8) %e)\n";
        assert_eq!(upgraded(old).as_deref(), Some(new));
    }

    #[test]
    fn the_new_syntax_and_strings_are_left_alone() {
        let text = "  %v = load i32, ptr %p\n  %g = getelementptr i8, ptr %p, i64 1\n\
                    \x20 call void @llvm.dbg.value(metadata i32 %x, metadata !5, metadata !{})\n\
                    !0 = !{!\"metadata !x\"}\n\
                    \x20 call void asm \"\", \"=*m\"(ptr elementtype(i32) %p)\n
                    \x20 call void asm sideeffect \"nop\", \"~{eax}\"()\n\
                    @s = constant [9 x i8] c\"load i8* \\00\"\n";
        assert_eq!(upgraded(text), None);
    }

    /// Text that is not IR (binary junk read as Latin-1 or UTF-8, here
    /// characters of several bytes) is no upgrade, and no panic: a keyword
    /// is looked for at every byte, not only at character boundaries.
    #[test]
    fn text_with_characters_of_several_bytes_is_read_to_its_end() {
        assert_eq!(upgraded("  é load ü store ©€\n  %x = ÿ\n"), None);
    }
}
