//! Edits of hand-written LLVM-style tests (`.ll` with RUN and CHECK lines),
//! made on the text the way a developer makes them, for the test-edit
//! benchmark:
//!
//! ```text
//! constant         %r = add i32 %x, 1        →  %r = add i32 %x, 2
//! opcode           %r = add nsw i32 %x, %y   →  %r = sub nsw i32 %x, %y
//! named insert     (after %r) + %r.more = add i32 %r, 1
//! unnamed insert   (after %3) + %4 = add i32 %3, 1, and %4.. below become %5..
//! delete           a store, a void call, or an unused value (unnamed values renumbered)
//! rename           %r → %r.renamed in the IR lines (CHECK lines untouched)
//! add function     a new function with its CHECK lines after another
//! copy function    a function and its CHECK lines again as @f.copy (!dbg dropped from the copy)
//! delete function  a function and the comment/CHECK block above it
//! ```
//!
//! Edits that do not parse and verify are the caller's to skip.

use irgit::ir::Session;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LlEditKind {
    Constant,
    Opcode,
    NamedInsert,
    UnnamedInsert,
    DeleteInstruction,
    Rename,
    AddFunction,
    CopyFunction,
    DeleteFunction,
}

impl LlEditKind {
    pub const ALL: [LlEditKind; 9] = [
        LlEditKind::Constant,
        LlEditKind::Opcode,
        LlEditKind::NamedInsert,
        LlEditKind::UnnamedInsert,
        LlEditKind::DeleteInstruction,
        LlEditKind::Rename,
        LlEditKind::AddFunction,
        LlEditKind::CopyFunction,
        LlEditKind::DeleteFunction,
    ];

    pub fn label(self) -> &'static str {
        match self {
            LlEditKind::Constant => "constant",
            LlEditKind::Opcode => "opcode",
            LlEditKind::NamedInsert => "insert a named instruction",
            LlEditKind::UnnamedInsert => "insert an unnamed instruction",
            LlEditKind::DeleteInstruction => "delete an instruction",
            LlEditKind::Rename => "rename a value (IR lines only)",
            LlEditKind::AddFunction => "add a function",
            LlEditKind::CopyFunction => "copy a function",
            LlEditKind::DeleteFunction => "delete a function",
        }
    }
}

/// A function of the file: `define` line, closing `}` line, and the first
/// line of the comment block right above it (CHECK lines; not the RUN
/// lines), if any.
#[derive(Debug, Clone)]
pub struct LlFunction {
    pub name: String,
    pub define: usize,
    pub end: usize,
    pub comments_from: usize,
}

/// The functions defined in `lines`.
pub fn ll_functions(lines: &[&str]) -> Vec<LlFunction> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("define ") {
            i += 1;
            continue;
        }
        let Some(end) = (i..lines.len()).find(|&j| lines[j].starts_with('}')) else {
            break;
        };
        let name = lines[i]
            .split_once('@')
            .map(|(_, r)| r.split('(').next().unwrap_or("").to_string())
            .unwrap_or_default();
        let mut from = i;
        while from > 0 && lines[from - 1].starts_with(';') && !lines[from - 1].contains("RUN:") {
            from -= 1;
        }
        out.push(LlFunction {
            name,
            define: i,
            end,
            comments_from: from,
        });
        i = end + 1;
    }
    out
}

/// Whether `text` parses and verifies in LLVM 22.
pub fn is_valid_ir(text: &str) -> bool {
    let s = Session::new();
    s.parse(text.as_bytes(), "edited.ll")
        .is_ok_and(|m| m.verify().is_ok())
}

/// Every edit of `kind` of `text` the generator can make, as whole edited
/// texts, in file order (not yet checked for validity).
pub fn ll_candidates(text: &str, kind: LlEditKind) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let funcs = ll_functions(&lines);
    let mut out = Vec::new();
    match kind {
        LlEditKind::AddFunction => {
            for (k, f) in funcs.iter().enumerate() {
                out.push(splice(&lines, f.end + 1, 0, &new_function(k)));
            }
        }
        LlEditKind::CopyFunction => {
            for f in &funcs {
                out.push(splice(&lines, f.end + 1, 0, &copied_function(&lines, f)));
            }
        }
        LlEditKind::DeleteFunction => {
            for f in &funcs {
                let blank_after = lines.get(f.end + 1).is_some_and(|l| l.trim().is_empty());
                let n = f.end + 1 - f.comments_from + blank_after as usize;
                out.push(splice(&lines, f.comments_from, n, &[]));
            }
        }
        _ => {
            for f in &funcs {
                for i in f.define + 1..f.end {
                    if let Some(t) = instruction_edit(&lines, f, i, kind) {
                        out.push(t);
                    }
                }
            }
        }
    }
    out
}

/// `lines` with `n` lines at `at` replaced by `new`.
fn splice(lines: &[&str], at: usize, n: usize, new: &[String]) -> String {
    let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    v.splice(at..at + n, new.iter().cloned());
    v.join("\n") + "\n"
}

fn new_function(k: usize) -> Vec<String> {
    [
        String::new(),
        format!("; CHECK-LABEL: define i32 @added_{k}("),
        "; CHECK-NEXT:    [[SUM:%.*]] = add i32 [[A:%.*]], [[B:%.*]]".into(),
        "; CHECK-NEXT:    ret i32 [[SUM]]".into(),
        format!("define i32 @added_{k}(i32 %a, i32 %b) {{"),
        "  %sum = add i32 %a, %b".into(),
        "  ret i32 %sum".into(),
        "}".into(),
    ]
    .to_vec()
}

/// `f` with its comment block again, renamed `@NAME.copy`, without debug
/// attachments and records (a `DISubprogram` belongs to one function).
fn copied_function(lines: &[&str], f: &LlFunction) -> Vec<String> {
    let (from, to) = (format!("@{}(", f.name), format!("@{}.copy(", f.name));
    let mut out = vec![String::new()];
    for (i, line) in lines
        .iter()
        .enumerate()
        .take(f.end + 1)
        .skip(f.comments_from)
    {
        if line.trim_start().starts_with("#dbg_") {
            continue;
        }
        let mut l = line.replace(&from, &to);
        if i >= f.define {
            l = strip_dbg(&l);
        }
        out.push(l);
    }
    out
}

/// The line without `, !dbg !N` / ` !dbg !N` attachments.
fn strip_dbg(line: &str) -> String {
    let mut l = line.to_string();
    while let Some(p) = l.find(" !dbg !") {
        let start = if l[..p].ends_with(',') { p - 1 } else { p };
        let end = p + " !dbg !".len();
        let end = end + l[end..].chars().take_while(char::is_ascii_digit).count();
        l.replace_range(start..end, "");
    }
    l
}

/// The text with instruction line `i` of `f` edited by `kind`, if it applies.
fn instruction_edit(lines: &[&str], f: &LlFunction, i: usize, kind: LlEditKind) -> Option<String> {
    let line = lines[i];
    let code = line.split(" ;").next().unwrap_or(line);
    if !line.starts_with("  ") || code.trim_start().starts_with(['#', ';', ']']) {
        return None;
    }
    let def = code.trim_start().split_once(" = ");
    match kind {
        LlEditKind::Constant => {
            let new = bump_int_constant(line)?;
            Some(splice(lines, i, 1, &[new]))
        }
        LlEditKind::Opcode => {
            let (d, rest) = def?;
            let (op, tail) = rest.split_once(' ')?;
            let to = match op {
                "add" => "sub",
                "sub" => "add",
                "mul" => "add",
                "and" => "xor",
                "xor" => "and",
                "fadd" => "fsub",
                "fsub" => "fadd",
                "fmul" => "fadd",
                "shl" => "mul",
                _ => return None,
            };
            let indent = &line[..line.len() - line.trim_start().len()];
            let after = &line[line.find(code.trim_start()).unwrap() + code.trim_start().len()..];
            Some(splice(
                lines,
                i,
                1,
                &[format!("{indent}{d} = {to} {tail}{after}")],
            ))
        }
        LlEditKind::NamedInsert | LlEditKind::UnnamedInsert => {
            let (d, rest) = def?;
            let ty = int_binop_type(rest)?;
            if kind == LlEditKind::NamedInsert {
                let name = match d.strip_prefix('%') {
                    Some(n) if n.starts_with(|c: char| c.is_ascii_digit()) => format!("%ins{n}"),
                    _ => format!("{d}.more"),
                };
                if lines[f.define..f.end].iter().any(|l| l.contains(&name)) {
                    return None;
                }
                let new = format!("  {name} = add {ty} {d}, 1");
                return Some(splice(lines, i + 1, 0, &[new]));
            }
            let k = next_unnamed(lines, f, i + 1)?;
            let mut v: Vec<String> = renumbered(lines, f, k, 1);
            v.insert(i + 1, format!("  %{k} = add {ty} {d}, 1"));
            Some(v.join("\n") + "\n")
        }
        LlEditKind::DeleteInstruction => delete_instruction(lines, f, i, def.map(|d| d.0)),
        LlEditKind::Rename => {
            let (d, _) = def?;
            let name = d.strip_prefix('%')?;
            if name.starts_with(|c: char| c.is_ascii_digit()) {
                return None;
            }
            let new = format!("%{name}.renamed");
            let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            for l in v.iter_mut().take(f.end).skip(f.define) {
                *l = replace_value(l, d, &new);
            }
            Some(v.join("\n") + "\n")
        }
        _ => None,
    }
}

/// Deletes a store, a call without result, or a value nothing uses.
fn delete_instruction(
    lines: &[&str],
    f: &LlFunction,
    i: usize,
    def: Option<&str>,
) -> Option<String> {
    let t = lines[i].trim_start();
    let Some(d) = def else {
        let deletable =
            t.starts_with("store ") || (t.contains("call void ") && !t.contains("@llvm.dbg."));
        return deletable.then(|| splice(lines, i, 1, &[]));
    };
    let uses = lines[f.define..=f.end]
        .iter()
        .map(|l| count_value(l, d))
        .sum::<usize>();
    if uses != 1 {
        return None;
    }
    match d[1..].parse::<u64>() {
        Ok(n) => {
            let mut v = renumbered(lines, f, n + 1, -1);
            v.remove(i);
            Some(v.join("\n") + "\n")
        }
        Err(_) => Some(splice(lines, i, 1, &[])),
    }
}

/// The type of an integer binary operation (`add nsw i32 %a, %b` → `i32`).
fn int_binop_type(rest: &str) -> Option<&str> {
    let mut words = rest.split_whitespace();
    let op = words.next()?;
    if ![
        "add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr",
    ]
    .contains(&op)
    {
        return None;
    }
    let ty = words.find(|w| !["nsw", "nuw", "exact", "disjoint"].contains(w))?;
    let bits = ty.strip_prefix('i')?;
    bits.parse::<u32>().ok().map(|_| ty)
}

/// The number of the first unnamed value defined at or after line `from`
/// in `f` (value or block label); when there is none, one past the last.
fn next_unnamed(lines: &[&str], f: &LlFunction, from: usize) -> Option<u64> {
    let defined = |l: &str| -> Option<u64> {
        let t = l.trim_start();
        let head = t
            .strip_prefix('%')
            .and_then(|r| r.split_once(" = "))
            .map(|p| p.0);
        let label = (!l.starts_with(' '))
            .then(|| l.split_once(':').map(|p| p.0))
            .flatten();
        head.or(label).and_then(|n| n.parse().ok())
    };
    if let Some(n) = lines[from..f.end].iter().find_map(|l| defined(l)) {
        return Some(n);
    }
    let last = lines[f.define..from]
        .iter()
        .flat_map(|l| numbers_in(l))
        .max();
    last.map(|n| n + 1)
}

/// The unnamed value numbers (`%N`) on a line.
fn numbers_in(line: &str) -> Vec<u64> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    for (p, _) in line.match_indices('%') {
        let digits: String = line[p + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let after = b.get(p + 1 + digits.len()).copied().unwrap_or(b' ');
        if !digits.is_empty() && !continues_name(after) {
            out.push(digits.parse().unwrap());
        }
    }
    out
}

/// The file's lines with every unnamed number ≥ `from` in `f` moved by
/// `delta` (values `%N` and block labels `N:`).
fn renumbered(lines: &[&str], f: &LlFunction, from: u64, delta: i64) -> Vec<String> {
    let shift = |n: u64| {
        if n >= from {
            (n as i64 + delta) as u64
        } else {
            n
        }
    };
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i < f.define || i > f.end {
                return l.to_string();
            }
            let mut out = String::new();
            let mut rest = *l;
            if !l.starts_with(' ') {
                if let Some((n, tail)) = l.split_once(':') {
                    if let Ok(n) = n.parse::<u64>() {
                        out.push_str(&format!("{}:", shift(n)));
                        rest = tail;
                    }
                }
            }
            while let Some(p) = rest.find('%') {
                out.push_str(&rest[..=p]);
                rest = &rest[p + 1..];
                let len = rest.chars().take_while(char::is_ascii_digit).count();
                let after = rest.as_bytes().get(len).copied().unwrap_or(b' ');
                if len > 0 && !continues_name(after) {
                    out.push_str(&shift(rest[..len].parse().unwrap()).to_string());
                    rest = &rest[len..];
                }
            }
            out.push_str(rest);
            out
        })
        .collect()
}

/// How often value `name` (`%x`) occurs on `line` as a whole name.
fn count_value(line: &str, name: &str) -> usize {
    line.match_indices(name)
        .filter(|(p, _)| {
            let after = line.as_bytes().get(p + name.len()).copied().unwrap_or(b' ');
            !continues_name(after)
        })
        .count()
}

/// `line` with whole-name occurrences of `name` replaced by `new`, outside
/// comments.
fn replace_value(line: &str, name: &str, new: &str) -> String {
    let (code, comment) = match line.find(';') {
        Some(p) => line.split_at(p),
        None => (line, ""),
    };
    let mut out = String::new();
    let mut last = 0;
    for (p, _) in code.match_indices(name) {
        let after = code.as_bytes().get(p + name.len()).copied().unwrap_or(b' ');
        if p >= last && !continues_name(after) {
            out.push_str(&code[last..p]);
            out.push_str(new);
            last = p + name.len();
        }
    }
    out.push_str(&code[last..]);
    out + comment
}

/// The line with its last integer constant operand (`i32 7`, or `, 7` after
/// a first typed operand; not an alignment) increased by one.
fn bump_int_constant(line: &str) -> Option<String> {
    let code_end = line.find(" ;").unwrap_or(line.len());
    let code_end = line[..code_end].find(", !").unwrap_or(code_end);
    let code = &line[..code_end];
    let typed = code.match_indices(" i").filter_map(|(p, _)| {
        let bits = code[p + 2..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        (bits > 0 && code[p + 2 + bits..].starts_with(' ')).then_some(p + 2 + bits + 1)
    });
    let after_comma = code.match_indices(", ").map(|(p, _)| p + 2);
    let mut best = None;
    for at in typed.chain(after_comma) {
        let num = &code[at..];
        let neg = num.starts_with('-') as usize;
        let len = num[neg..].chars().take_while(char::is_ascii_digit).count();
        let after = num.as_bytes().get(neg + len).copied().unwrap_or(b',');
        if len > 0 && matches!(after, b',' | b' ' | b')' | b']' | b'>') {
            best = best.max(Some((at, neg + len)));
        }
    }
    let (at, len) = best?;
    let n: i64 = line[at..at + len].parse().ok()?;
    Some(format!("{}{}{}", &line[..at], n + 1, &line[at + len..]))
}

/// Whether byte `c` can continue an LLVM value name (`%x` is not `%x.1`).
fn continues_name(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
}
