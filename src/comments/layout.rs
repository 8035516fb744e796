//! The layout of a textual IR file: which lines are blank, which are
//! comments, and which statement (global, function header, block label,
//! instruction, `}`...) each code line belongs to.
//!
//! LLVM's parser keeps no comments and no line numbers, so everything irgit
//! does with the user's text (carrying comments through the canonical form,
//! writing a merge in ours' text) starts from this map.
//!
//! ```text
//! line  text                                   kind
//! 0     ; RUN: opt -S %s | FileCheck %s         Comment
//! 1                                              Blank
//! 2     define i32 @f(i32 %x) {                 Code, stmt 0 = Define("@f")
//! 3     entry:                                  Code, stmt 1 = Label("entry")
//! 4       switch i32 %x, label %d [  ; cases    Code, stmt 2 = Inst, trailing comment at col 29
//! 5         i32 0, label %z                     Code, stmt 2 (continuation)
//! 6       ]                                     Code, stmt 2 (continuation)
//! 7     }                                       Code, stmt 3 = FuncEnd
//! ```
//!
//! A statement continues onto the next line while a `(`, `[` or `{` is open,
//! after a line ending in `,`, and for the clause lines LLVM itself prints on
//! their own line (`to label ...` of `invoke`/`callbr`, `catch`/`filter`/
//! `cleanup` of `landingpad`). `;` starts a comment only outside a quoted
//! string; quoted strings never span lines in LLVM IR.

/// What a statement is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StmtKind {
    SourceFilename,
    DataLayout,
    Triple,
    ModuleAsm,
    /// `%name = type ...` (the name with its sigil).
    TypeDef(String),
    /// `$name = comdat ...`
    Comdat(String),
    /// `@name = ...`: a global variable, alias or ifunc.
    Global(String),
    /// `declare ... @name(...)`
    Declare(String),
    /// The header of a function definition, up to its `{`.
    Define(String),
    /// `attributes #N = { ... }` (the number as written).
    AttrGroup(String),
    /// `!name = !{...}`
    NamedMeta(String),
    /// `!N = ...`
    Meta(String),
    /// `^N = ...` (summary entries).
    Summary(String),
    /// Module-level `uselistorder` directives.
    ModuleUseListOrder,
    /// Any other module-level line.
    OtherModule,
    /// A block label (`entry:`, `5:`, `"a b":`), the name as written.
    Label(String),
    /// An instruction; `def` is the name it defines (`%x =`), sigil dropped.
    Inst {
        def: Option<String>,
    },
    /// A debug record (`#dbg_value(...)`), which belongs to the next instruction.
    Record,
    /// `uselistorder` / `uselistorder_bb` inside a function.
    UseListOrder,
    /// The `}` closing a function.
    FuncEnd,
}

impl StmtKind {
    /// Whether the statement lives inside a function body.
    pub fn in_function(&self) -> bool {
        matches!(
            self,
            StmtKind::Label(_)
                | StmtKind::Inst { .. }
                | StmtKind::Record
                | StmtKind::UseListOrder
                | StmtKind::FuncEnd
        )
    }
}

/// One statement: a kind and the lines it spans (0-based, inclusive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub first: usize,
    pub last: usize,
}

/// What one line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Blank,
    /// A whole-line comment.
    Comment,
    /// Code of statement `stmt` (possibly followed by a trailing comment).
    Code {
        stmt: usize,
    },
}

/// One line of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line without its `\n` (a `\r` before it is kept).
    pub text: &'a str,
    pub kind: LineKind,
    /// Byte offset of the `;` starting a comment on this line, if any.
    pub comment_at: Option<usize>,
}

impl<'a> Line<'a> {
    /// The comment on this line, from its `;` (end of line trimmed).
    pub fn comment(&self) -> Option<&'a str> {
        self.comment_at.map(|at| self.text[at..].trim_end())
    }

    /// The code part, without the comment, trimmed on both sides.
    pub fn code(&self) -> &'a str {
        match self.comment_at {
            Some(at) => self.text[..at].trim(),
            None => self.text.trim(),
        }
    }
}

/// A lexed file.
#[derive(Debug, Clone)]
pub struct Layout<'a> {
    pub lines: Vec<Line<'a>>,
    pub stmts: Vec<Stmt>,
}

/// The byte offset of the first `;` outside a quoted string.
pub fn comment_start(line: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, b) in line.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b';' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

/// Net count of open `(`, `[`, `{` in code (quoted strings skipped).
fn depth_change(code: &str) -> i32 {
    let mut quoted = false;
    let mut d = 0;
    for b in code.bytes() {
        match b {
            b'"' => quoted = !quoted,
            b'(' | b'[' | b'{' if !quoted => d += 1,
            b')' | b']' | b'}' if !quoted => d -= 1,
            _ => {}
        }
    }
    d
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'$' | b'.' | b'_' | b'-')
}

/// The sigil-prefixed token starting at `s` (`@name`, `%"a b"`, `!12`).
fn sigil_token(s: &str) -> &str {
    let bytes = s.as_bytes();
    if bytes.len() > 1 && bytes[1] == b'"' {
        match s[2..].find('"') {
            Some(end) => &s[..end + 3],
            None => s,
        }
    } else {
        let end = bytes[1..]
            .iter()
            .position(|&b| !is_ident_byte(b))
            .map_or(bytes.len(), |p| p + 1);
        &s[..end]
    }
}

/// The first `@name` in a line (the function of a `define`/`declare`).
fn first_global_name(code: &str) -> String {
    let mut quoted = false;
    for (i, b) in code.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b'@' if !quoted => return sigil_token(&code[i..]).to_string(),
            _ => {}
        }
    }
    String::new()
}

/// The name a block label line declares, if the code is a label.
fn label_name(code: &str) -> Option<String> {
    let name = code.strip_suffix(':')?;
    if name.is_empty() {
        return None;
    }
    let ok = if let Some(q) = name.strip_prefix('"') {
        q.ends_with('"') && !q.is_empty()
    } else {
        name.bytes().all(is_ident_byte)
    };
    ok.then(|| name.to_string())
}

fn module_kind(code: &str) -> StmtKind {
    let first_word = code.split_whitespace().next().unwrap_or("");
    match first_word {
        "source_filename" => return StmtKind::SourceFilename,
        "target" if code.contains("datalayout") => return StmtKind::DataLayout,
        "target" => return StmtKind::Triple,
        "module" => return StmtKind::ModuleAsm,
        "declare" => return StmtKind::Declare(first_global_name(code)),
        "define" => return StmtKind::Define(first_global_name(code)),
        "attributes" => {
            let num = code
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .trim_start_matches('#');
            return StmtKind::AttrGroup(num.to_string());
        }
        "uselistorder" => return StmtKind::ModuleUseListOrder,
        _ => {}
    }
    let tok = match code.as_bytes().first() {
        Some(b'%' | b'@' | b'$' | b'!' | b'^') if code.len() > 1 => sigil_token(code),
        _ => return StmtKind::OtherModule,
    };
    let rest = code[tok.len()..].trim_start();
    if !rest.starts_with('=') {
        return StmtKind::OtherModule;
    }
    let t = tok.to_string();
    match code.as_bytes()[0] {
        b'%' => StmtKind::TypeDef(t),
        b'@' => StmtKind::Global(t),
        b'$' => StmtKind::Comdat(t),
        b'^' => StmtKind::Summary(t),
        _ if tok[1..].bytes().all(|b| b.is_ascii_digit()) => StmtKind::Meta(t),
        _ => StmtKind::NamedMeta(t),
    }
}

fn function_kind(code: &str) -> StmtKind {
    if code == "}" {
        return StmtKind::FuncEnd;
    }
    if let Some(name) = label_name(code) {
        return StmtKind::Label(name);
    }
    if code.starts_with("#dbg_") {
        return StmtKind::Record;
    }
    if code.starts_with("uselistorder") {
        return StmtKind::UseListOrder;
    }
    let def = code.strip_prefix('%').and_then(|_| {
        let tok = sigil_token(code);
        code[tok.len()..]
            .trim_start()
            .starts_with('=')
            .then(|| tok[1..].to_string())
    });
    StmtKind::Inst { def }
}

/// Whether `code` continues the instruction before it although no bracket
/// is open: clause lines LLVM prints on their own line.
fn is_clause_line(code: &str) -> bool {
    let w = code.split_whitespace().next().unwrap_or("");
    matches!(w, "to" | "unwind" | "catch" | "filter" | "cleanup")
}

/// Lexes `text` into lines and statements.
pub(crate) fn lex(text: &str) -> Layout<'_> {
    let mut lines = Vec::new();
    let mut stmts: Vec<Stmt> = Vec::new();
    let mut in_function = false;
    // The statement still open (brackets, trailing comma, function header).
    let mut open: Option<usize> = None;
    let mut depth = 0i32;
    let mut ends_with_comma = false;
    for raw in text.split('\n') {
        let comment_at = comment_start(raw);
        let code = match comment_at {
            Some(at) => raw[..at].trim(),
            None => raw.trim(),
        };
        let index = lines.len();
        if code.is_empty() {
            let kind = if comment_at.is_some() {
                LineKind::Comment
            } else {
                LineKind::Blank
            };
            lines.push(Line {
                text: raw,
                kind,
                comment_at,
            });
            continue;
        }
        let continues = match open {
            Some(s) => {
                depth > 0
                    || ends_with_comma
                    || (matches!(stmts[s].kind, StmtKind::Inst { .. }) && is_clause_line(code))
            }
            None => false,
        };
        let stmt = if continues {
            let s = open.unwrap_or_default();
            stmts[s].last = index;
            s
        } else {
            let kind = if in_function {
                function_kind(code)
            } else {
                module_kind(code)
            };
            depth = 0;
            stmts.push(Stmt {
                kind,
                first: index,
                last: index,
            });
            stmts.len() - 1
        };
        depth += depth_change(code);
        ends_with_comma = code.ends_with(',');
        match &stmts[stmt].kind {
            StmtKind::Define(_) if depth <= 1 && code.ends_with('{') => {
                // The header is complete: the body starts on the next line.
                in_function = true;
                open = None;
                depth = 0;
            }
            StmtKind::Define(_) => open = Some(stmt),
            StmtKind::FuncEnd => {
                in_function = false;
                open = None;
            }
            _ => open = Some(stmt),
        }
        lines.push(Line {
            text: raw,
            kind: LineKind::Code { stmt },
            comment_at,
        });
    }
    // `split` yields one empty line after a final newline; it is not a line.
    if text.ends_with('\n') {
        lines.pop();
    }
    Layout { lines, stmts }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(StmtKind, usize, usize)> {
        lex(text)
            .stmts
            .into_iter()
            .map(|s| (s.kind, s.first, s.last))
            .collect()
    }

    #[test]
    fn statements_of_a_small_module() {
        let text = "; RUN: opt %s\n\nsource_filename = \"a;b.c\"\n%struct.S = type { i32 }\n\
                    @g = global i32 0 ; the global\ndeclare void @h(i32)\n\
                    define i32 @f(i32 %x) {\nentry:\n  %y = add i32 %x, 1 ; one\n  ret i32 %y\n}\n\
                    attributes #0 = { nounwind }\n!llvm.module.flags = !{!0}\n!0 = !{i32 1, !\"x\", i32 2}\n";
        use StmtKind::*;
        assert_eq!(
            kinds(text),
            vec![
                (SourceFilename, 2, 2),
                (TypeDef("%struct.S".into()), 3, 3),
                (Global("@g".into()), 4, 4),
                (Declare("@h".into()), 5, 5),
                (Define("@f".into()), 6, 6),
                (Label("entry".into()), 7, 7),
                (
                    Inst {
                        def: Some("y".into())
                    },
                    8,
                    8
                ),
                (Inst { def: None }, 9, 9),
                (FuncEnd, 10, 10),
                (AttrGroup("0".into()), 11, 11),
                (NamedMeta("!llvm.module.flags".into()), 12, 12),
                (Meta("!0".into()), 13, 13),
            ]
        );
        let l = lex(text);
        assert_eq!(l.lines.len(), 14);
        assert_eq!(l.lines[0].kind, LineKind::Comment);
        assert_eq!(l.lines[1].kind, LineKind::Blank);
        assert_eq!(l.lines[2].comment(), None, "`;` inside a string");
        assert_eq!(l.lines[8].comment(), Some("; one"));
    }

    #[test]
    fn multi_line_instructions_are_one_statement() {
        let text = "define void @f(i32 %x) personality ptr @p {\n\
                    switch i32 %x, label %d [\n  i32 0, label %d ; zero\n]\n\
                    d:\n  invoke void @g()\n          to label %ok unwind label %lp\n\
                    ok:\n  call void @k(i32 1,\n     i32 2)\n  ret void\n\
                    lp:\n  %l = landingpad { ptr, i32 }\n          cleanup\n          catch ptr null\n\
                    #dbg_value(i32 0, !1, !DIExpression(), !2)\n  resume { ptr, i32 } %l\n}\n";
        use StmtKind::*;
        assert_eq!(
            kinds(text),
            vec![
                (Define("@f".into()), 0, 0),
                (Inst { def: None }, 1, 3),
                (Label("d".into()), 4, 4),
                (Inst { def: None }, 5, 6),
                (Label("ok".into()), 7, 7),
                (Inst { def: None }, 8, 9),
                (Inst { def: None }, 10, 10),
                (Label("lp".into()), 11, 11),
                (
                    Inst {
                        def: Some("l".into())
                    },
                    12,
                    14
                ),
                (Record, 15, 15),
                (Inst { def: None }, 16, 16),
                (FuncEnd, 17, 17),
            ]
        );
    }

    #[test]
    fn quoted_and_numbered_names() {
        use StmtKind::*;
        let text = "@\"a b\" = global i32 0\n@0 = private constant i8 1\ndefine void @\"x;y\"() {\n\"blk 1\":\n  %\"v w\" = add i32 1, 2\n  %3 = add i32 1, 2\n  ret void\n}\n";
        assert_eq!(
            kinds(text),
            vec![
                (Global("@\"a b\"".into()), 0, 0),
                (Global("@0".into()), 1, 1),
                (Define("@\"x;y\"".into()), 2, 2),
                (Label("\"blk 1\"".into()), 3, 3),
                (
                    Inst {
                        def: Some("\"v w\"".into())
                    },
                    4,
                    4
                ),
                (
                    Inst {
                        def: Some("3".into())
                    },
                    5,
                    5
                ),
                (Inst { def: None }, 6, 6),
                (FuncEnd, 7, 7),
            ]
        );
    }

    #[test]
    fn multi_line_globals_and_metadata() {
        use StmtKind::*;
        let text = "@t = constant [2 x i32] [\n  i32 1, ; first\n  i32 2\n]\n!0 = !{\n  i32 1 }\n";
        assert_eq!(
            kinds(text),
            vec![(Global("@t".into()), 0, 3), (Meta("!0".into()), 4, 5)]
        );
    }
}
