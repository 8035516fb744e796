//! The view of a file in the syntax before LLVM 3.7, which LLVM 22 no
//! longer reads: `load` and `getelementptr` name the type they read or
//! index only through the pointer's type, `alias` its aliasee's, and a
//! call's function type is a pointer. Written out explicitly, such a
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
//! ```
//!
//! Only the view reads it so; the merge and the hook never do.

use crate::comments::layout::comment_start;

/// `text` with each `load`, `getelementptr` and `alias` of the old syntax
/// given its explicit type; `None` when there is none to give.
pub(super) fn upgraded(text: &str) -> Option<String> {
    if !KEYWORDS.iter().chain(&CALLS).any(|k| text.contains(k)) {
        return None;
    }
    let mut changed = false;
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in crate::text::lines_inclusive(text) {
        let code_end = comment_start(line).unwrap_or(line.len());
        let (code, rest) = line.split_at(code_end);
        let new = with_callee_types(&upgraded_code(code));
        changed |= new != code;
        out.push_str(&new);
        out.push_str(rest);
    }
    changed.then_some(out)
}

/// The keywords after which the old syntax wrote a pointer where the new
/// one writes the pointee type first, and the flags that may follow them.
const KEYWORDS: [&str; 3] = ["load ", "getelementptr ", "alias "];
const FLAGS: [&str; 6] = ["volatile ", "atomic ", "inbounds ", "nuw ", "nusw ", "("];

/// One line's code (no comment) with its old-syntax operands upgraded.
fn upgraded_code(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + 16);
    let mut at = 0;
    while let Some((start, len)) = next_keyword(code, at) {
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

/// The next `load ` or `getelementptr ` at or after `from` that is a whole
/// word outside quoted strings: (its start, its length).
fn next_keyword(code: &str, from: usize) -> Option<(usize, usize)> {
    next_of(code, from, &KEYWORDS)
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
        if let Some(k) = words.iter().find(|k| code[i..].starts_with(**k)) {
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
    fn the_new_syntax_and_strings_are_left_alone() {
        let text = "  %v = load i32, ptr %p\n  %g = getelementptr i8, ptr %p, i64 1\n\
                    @s = constant [9 x i8] c\"load i8* \\00\"\n";
        assert_eq!(upgraded(text), None);
    }
}
