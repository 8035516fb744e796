//! What a line of a function body is, read from its text alone: a label,
//! an instruction (and the local name it defines), a line that continues
//! one, or a line the text-safe merge does not try to read (`None`).
//! And where the function bodies of a text are.
//!
//! ```text
//! "  %5 = add nsw i32 %4, 1"        LineForm { def: Some("5"), starts: add, value: named }
//! "  call void @g(i32 %5)"          LineForm { def: None, starts: call, no value }
//! "  call i32 @g(i32 %5)"           a value without a name: an implicit `%N`
//! "7:                ; preds = %3"  Label("7")
//! "    i32 1, label %9"             LineForm { def: None, starts: nothing } (a `switch` case)
//! "  %x = add i32 1, 2 %y = ..."    None (two instructions on a line)
//! ```

use crate::text::is_id_byte;

/// What a line of a function body is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form<'a> {
    /// Blank, or only a comment.
    Blank,
    /// `name:` (a block label), the name without quotes' content rules:
    /// `"x y"` keeps its quotes.
    Label(&'a str),
    /// An instruction or a line continuing one.
    Line(LineForm<'a>),
}

/// An instruction line or a continuation line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineForm<'a> {
    /// The local name it defines (`%name = ...`), quotes kept.
    pub(crate) def: Option<&'a str>,
    /// Whether an instruction (or a debug record) starts on it.
    pub(crate) starts: bool,
    /// Whether that instruction ends its block.
    pub(crate) terminator: bool,
    /// Whether it makes a value without naming it: LLVM numbers it
    /// implicitly (`%N`), so it moves the numbers of the values after it.
    pub(crate) unnamed_value: bool,
}

/// A name as a definition: a block label or a value (`x:` and `%x =`
/// share one namespace, but are not the same definition).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Def<'a> {
    pub(crate) name: &'a str,
    pub(crate) label: bool,
}

impl<'a> Form<'a> {
    /// The name this line defines.
    pub(crate) fn def(self) -> Option<Def<'a>> {
        match self {
            Form::Label(name) => Some(Def { name, label: true }),
            Form::Line(LineForm {
                def: Some(name), ..
            }) => Some(Def { name, label: false }),
            _ => None,
        }
    }
}

/// Whether a local name is a number (`%12`, `12:`): LLVM's implicit names.
pub(crate) fn is_numbered(name: &str) -> bool {
    name.bytes().all(|b| b.is_ascii_digit())
}

/// The local names `line` writes (`%x`, `%"x y"` also as `x y`, a label).
pub(crate) fn local_names(line: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for token in Tokens::of(line) {
        if let Token::Local(name) = token {
            names.push(name);
            if let Some(inner) = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
                names.push(inner);
            }
        }
    }
    if let Some(Form::Label(name)) = form(line) {
        names.push(name.trim_matches('"'));
    }
    names
}

/// Whether `word` starts an instruction.
fn is_opcode(word: &str) -> bool {
    is_terminator(word)
        || matches!(
            word,
            "fneg"
                | "add"
                | "fadd"
                | "sub"
                | "fsub"
                | "mul"
                | "fmul"
                | "udiv"
                | "sdiv"
                | "fdiv"
                | "urem"
                | "srem"
                | "frem"
                | "shl"
                | "lshr"
                | "ashr"
                | "and"
                | "or"
                | "xor"
                | "extractelement"
                | "insertelement"
                | "shufflevector"
                | "extractvalue"
                | "insertvalue"
                | "alloca"
                | "load"
                | "store"
                | "fence"
                | "cmpxchg"
                | "atomicrmw"
                | "getelementptr"
                | "trunc"
                | "zext"
                | "sext"
                | "fptrunc"
                | "fpext"
                | "fptoui"
                | "fptosi"
                | "uitofp"
                | "sitofp"
                | "ptrtoint"
                | "ptrtoaddr"
                | "inttoptr"
                | "bitcast"
                | "addrspacecast"
                | "icmp"
                | "fcmp"
                | "phi"
                | "select"
                | "call"
                | "va_arg"
                | "landingpad"
                | "catchpad"
                | "cleanuppad"
                | "freeze"
        )
}

/// Whether the instruction `word` starts ends its block.
fn is_terminator(word: &str) -> bool {
    matches!(
        word,
        "ret"
            | "br"
            | "switch"
            | "indirectbr"
            | "invoke"
            | "resume"
            | "unreachable"
            | "cleanupret"
            | "catchret"
            | "catchswitch"
            | "callbr"
    )
}

/// Whether the instruction `word` starts never makes a value.
fn is_void(word: &str) -> bool {
    matches!(
        word,
        "ret"
            | "br"
            | "switch"
            | "indirectbr"
            | "resume"
            | "unreachable"
            | "cleanupret"
            | "catchret"
            | "store"
            | "fence"
    )
}

/// Words written before `call`.
fn is_call_prefix(word: &str) -> bool {
    matches!(word, "tail" | "musttail" | "notail")
}

/// Flags between an operator and the `(` of a constant expression
/// (`getelementptr inbounds nuw (...)`).
fn is_constant_flag(word: &str) -> bool {
    matches!(
        word,
        "inbounds" | "nuw" | "nsw" | "nusw" | "exact" | "inrange"
    )
}

/// A token of a line, outside strings and comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// A bare word (`add`, `i32`, `label`, `7` in `7:`).
    Word(&'a str),
    /// `%name`, `%"name"`, `%12`: the name, quotes kept.
    Local(&'a str),
    /// `@name`, `!7`, `#3`, `$c` and the like.
    Sigiled(&'a str),
    /// A quoted string (`"x"`, the string of `c"..."`).
    Quoted(&'a str),
    /// One byte of punctuation (`=`, `:`, `(`, `,`...).
    Punct(u8),
}

/// The tokens of a line up to its comment.
pub(super) struct Tokens<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Tokens<'a> {
    pub(super) fn of(line: &'a str) -> Tokens<'a> {
        Tokens { line, at: 0 }
    }

    /// The end of a quoted string that opens at `start` (its closing
    /// quote included; LLVM escapes a quote inside as `\22`); `None` when
    /// it does not close on this line.
    fn quoted_end(&self, start: usize) -> Option<usize> {
        let bytes = self.line.as_bytes();
        memchr::memchr(b'"', &bytes[start + 1..]).map(|e| start + e + 2)
    }

    /// The end of the bare name or word from `start`.
    fn word_end(&self, start: usize) -> usize {
        let bytes = self.line.as_bytes();
        start
            + bytes[start..]
                .iter()
                .take_while(|&&b| is_id_byte(b))
                .count()
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let (line, bytes) = (self.line, self.line.as_bytes());
        let mut i = self.at;
        while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        let c = *bytes.get(i).filter(|&&c| c != b';')?;
        // A string that goes on past the line is one quote, a token no
        // line that [`form`] reads has: the lines after it are misread.
        let unclosed = (Token::Punct(b'"'), bytes.len());
        let (token, end) = match c {
            b'"' => match self.quoted_end(i) {
                Some(end) => (Token::Quoted(&line[i..end]), end),
                None => unclosed,
            },
            b'%' | b'@' | b'!' | b'#' | b'$' => {
                let end = match bytes.get(i + 1) {
                    Some(b'"') => self.quoted_end(i + 1),
                    _ => Some(self.word_end(i + 1)),
                };
                match (c, end) {
                    (_, None) => unclosed,
                    (b'%', Some(end)) => (Token::Local(&line[i + 1..end]), end),
                    (_, Some(end)) => (Token::Sigiled(&line[i..end]), end),
                }
            }
            _ if is_id_byte(c) => {
                let end = self.word_end(i);
                (Token::Word(&line[i..end]), end)
            }
            _ => (Token::Punct(c), i + 1),
        };
        self.at = end.max(i + 1);
        Some(token)
    }
}

/// What `line` (a line of a function body) is; `None` for a line this
/// reading does not vouch for: a label or `=` anywhere else than where
/// LLVM prints them, two instructions on one line, a `uselistorder`
/// directive, a top-level entity.
pub(crate) fn form(line: &str) -> Option<Form<'_>> {
    let mut tokens = Tokens::of(line).peekable();
    let Some(first) = tokens.next() else {
        return Some(Form::Blank);
    };
    if let Token::Word(name) | Token::Quoted(name) = first {
        if tokens.next_if_eq(&Token::Punct(b':')).is_some() {
            return tokens.next().is_none().then_some(Form::Label(name));
        }
    }
    let (def, mut head) = match first {
        Token::Local(name) if tokens.next_if_eq(&Token::Punct(b'=')).is_some() => {
            (Some(name), tokens.next())
        }
        _ => (None, Some(first)),
    };
    while matches!(head, Some(Token::Word(w)) if is_call_prefix(w)) {
        head = tokens.next();
    }
    let record = matches!(head, Some(Token::Sigiled(s)) if s.starts_with("#dbg_"));
    let opcode = match head {
        Some(Token::Word(w)) if is_opcode(w) => Some(w),
        _ => None,
    };
    if opcode.is_none() && !record && (def.is_some() || head.is_some_and(starts_top_level)) {
        return None;
    }
    let mut operands = Operands::after(opcode);
    let continued = head.filter(|_| opcode.is_none());
    if !continued
        .into_iter()
        .chain(tokens)
        .all(|t| operands.read(t))
        || operands.pending
    {
        return None;
    }
    let value = opcode.is_some_and(|op| !is_void(op) && !operands.void_call(op));
    Some(Form::Line(LineForm {
        def,
        starts: opcode.is_some() || record,
        terminator: opcode.is_some_and(is_terminator),
        unnamed_value: value && def.is_none(),
    }))
}

/// The operands of a line, read token by token: whether another
/// instruction starts among them (an opcode word that is not a constant
/// expression, `getelementptr inbounds (...)`, nor the operation of an
/// `atomicrmw`), and whether a call's return type is `void`.
struct Operands {
    /// An opcode word read, not yet known to be a constant expression.
    pending: bool,
    /// Words of `atomicrmw [volatile] <operation>` still to pass.
    atomic_words: u8,
    /// Whether the callee (or a function type's `(`) has been read.
    callee_reached: bool,
    /// Whether `void` came before it.
    void_before_callee: bool,
}

impl Operands {
    fn after(opcode: Option<&str>) -> Operands {
        Operands {
            pending: false,
            atomic_words: if opcode == Some("atomicrmw") { 2 } else { 0 },
            callee_reached: false,
            void_before_callee: false,
        }
    }

    /// Reads one token; `false` when the line is not one [`form`] vouches for.
    fn read(&mut self, token: Token<'_>) -> bool {
        match token {
            Token::Punct(b':' | b'=' | b'"') => return false,
            Token::Word(w) if self.atomic_words > 0 => {
                self.atomic_words = if w == "volatile" && self.atomic_words == 2 {
                    1
                } else {
                    0
                };
                return true;
            }
            Token::Word(w) if self.pending && is_constant_flag(w) => return true,
            Token::Punct(b'(') if self.pending => self.pending = false,
            _ if self.pending => return false,
            Token::Word(w) if is_opcode(w) || is_call_prefix(w) => self.pending = true,
            Token::Word("void") if !self.callee_reached => self.void_before_callee = true,
            _ => {}
        }
        self.callee_reached |= match token {
            Token::Local(_) | Token::Punct(b'(') => true,
            Token::Sigiled(s) => s.starts_with('@'),
            _ => false,
        };
        true
    }

    /// Whether `opcode` is a call whose return type is `void` (written
    /// before the callee and before a function type's parameters:
    /// `call void (ptr, ...) @printf`).
    fn void_call(&self, opcode: &str) -> bool {
        matches!(opcode, "call" | "invoke" | "callbr") && self.void_before_callee
    }
}

/// Whether a line starts like a module-level entity (no body line does).
pub(super) fn starts_top_level(token: Token<'_>) -> bool {
    match token {
        Token::Sigiled(s) => !s.starts_with("#dbg_"),
        Token::Word(w) => matches!(
            w,
            "define"
                | "declare"
                | "attributes"
                | "source_filename"
                | "target"
                | "module"
                | "uselistorder"
                | "uselistorder_bb"
        ),
        _ => false,
    }
}

/// A function body: the lines strictly between its opening line (the
/// header's last, ending in `{`) and its closing `}` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Body<'a> {
    /// `@name` as the header writes it.
    pub(crate) name: &'a str,
    /// The header's first line (`define ...`).
    pub(crate) header: usize,
    /// The lines inside, by index.
    pub(crate) inside: std::ops::Range<usize>,
}

/// Where a body is being read.
#[derive(Clone, Copy)]
enum Reading<'a> {
    Outside,
    /// In a header that started at line `from`, a `define` naming `name`.
    Header(&'a str, usize),
    /// Inside the body of `name` (header at `from`, first line inside at
    /// `inside`), at brace depth `depth`.
    Inside(&'a str, usize, usize, i64),
}

/// The braces of a line: how many it opens less those it closes, whether
/// it has one, whether it is `}` alone, whether it ends in `{`.
#[derive(Default)]
struct Braces {
    balance: i64,
    any: bool,
    lone_close: bool,
    ends_open: bool,
}

impl Braces {
    fn of(line: &str) -> Braces {
        if memchr::memchr2(b'{', b'}', line.as_bytes()).is_none() {
            return Braces::default();
        }
        let mut braces = Braces::default();
        let mut count = 0;
        let mut last = None;
        for token in Tokens::of(line) {
            count += 1;
            braces.balance += match token {
                Token::Punct(b'{') => 1,
                Token::Punct(b'}') => -1,
                _ => 0,
            };
            braces.any |= matches!(token, Token::Punct(b'{' | b'}'));
            last = Some(token);
        }
        braces.lone_close = count == 1 && last == Some(Token::Punct(b'}'));
        braces.ends_open = last == Some(Token::Punct(b'{'));
        braces
    }
}

/// The function bodies of `lines`, in order. A body is one whose header
/// starts with `define` at the start of a line, whose last header line
/// ends in its only unclosed `{`, and whose braces close on a line of
/// their own: any other (a function on one line, a body closed on the
/// line of an instruction) is left out, its lines outside every body.
pub(crate) fn bodies<'a>(lines: &[&'a str]) -> Vec<Body<'a>> {
    let mut found = Vec::new();
    let mut reading = Reading::Outside;
    for (at, &line) in lines.iter().enumerate() {
        if line.starts_with("define ") || line.starts_with("define\t") {
            let name = crate::text::function_name(line).unwrap_or_default();
            reading = Reading::Header(name, at);
        }
        let (next, body) = read_line(reading, at, line);
        found.extend(body);
        reading = next;
    }
    found
}

/// One step of [`bodies`]: the state after line `at`, and the body it closes.
fn read_line<'a>(reading: Reading<'a>, at: usize, line: &str) -> (Reading<'a>, Option<Body<'a>>) {
    let braces = Braces::of(line);
    let next = match reading {
        Reading::Outside => Reading::Outside,
        Reading::Header(name, from) if !braces.any => {
            let mut tokens = Tokens::of(line);
            let first = tokens.next();
            let entity = first.is_some_and(starts_top_level) && at != from
                || matches!(first, Some(Token::Local(_)))
                    && tokens.next() == Some(Token::Punct(b'='));
            match entity {
                true => Reading::Outside,
                false => Reading::Header(name, from),
            }
        }
        Reading::Header(name, from) => match braces.balance == 1 && braces.ends_open {
            true => Reading::Inside(name, from, at + 1, 1),
            false => Reading::Outside,
        },
        Reading::Inside(name, from, inside, depth) => {
            let depth = depth + braces.balance;
            if depth == 0 && braces.lone_close {
                let body = Body {
                    name,
                    header: from,
                    inside: inside..at,
                };
                return (Reading::Outside, Some(body));
            }
            match depth > 0 {
                true => Reading::Inside(name, from, inside, depth),
                false => Reading::Outside,
            }
        }
    };
    (next, None)
}

/// Reads a function body's lines in order and says whether every value
/// but its entry block is named in the text (`%5 =`, `7:`), so that no
/// edit elsewhere in it can move the number LLVM gives a value: no unnamed
/// value, and no block that starts without a label after a terminator.
#[derive(Default)]
pub(crate) struct Numbering<'a> {
    seen_first: bool,
    after_terminator: bool,
    /// The label of the entry block, if it has one.
    pub(crate) entry: Option<&'a str>,
}

impl<'a> Numbering<'a> {
    /// Reads the next line; `false` when it gives a value an implicit number.
    pub(crate) fn read(&mut self, form: Form<'a>) -> bool {
        match form {
            Form::Blank => return true,
            Form::Label(name) => {
                self.after_terminator = false;
                if !self.seen_first {
                    self.entry = Some(name);
                }
            }
            Form::Line(l) => {
                if l.unnamed_value || (l.starts && self.after_terminator) {
                    return false;
                }
                if l.starts {
                    self.after_terminator = l.terminator;
                }
            }
        }
        self.seen_first = true;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entry block's label of a body's `lines` (`Some(None)`: none) when
    /// [`Numbering`] finds every value named; else `None` (also when a line
    /// is not one [`form`] reads).
    fn explicit_entry<'a>(lines: &[&'a str]) -> Option<Option<&'a str>> {
        let mut numbering = Numbering::default();
        for &line in lines {
            if !numbering.read(form(line)?) {
                return None;
            }
        }
        Some(numbering.entry)
    }

    fn line(def: Option<&str>, starts: bool, terminator: bool, unnamed: bool) -> Option<Form<'_>> {
        Some(Form::Line(LineForm {
            def,
            starts,
            terminator,
            unnamed_value: unnamed,
        }))
    }

    #[test]
    fn forms_of_printed_lines() {
        assert_eq!(
            form("  %5 = add nsw i32 %4, 1"),
            line(Some("5"), true, false, false)
        );
        assert_eq!(
            form("  call void @g(i32 %5)"),
            line(None, true, false, false)
        );
        assert_eq!(
            form("  tail call void (ptr, ...) @p(ptr @s)"),
            line(None, true, false, false)
        );
        assert_eq!(form("  call i32 @g(i32 %5)"), line(None, true, false, true));
        assert_eq!(
            form("  call i32 (ptr, ...) @p(ptr @s)"),
            line(None, true, false, true)
        );
        assert_eq!(
            form("7:                ; preds = %3"),
            Some(Form::Label("7"))
        );
        assert_eq!(form("\"a b\":"), Some(Form::Label("\"a b\"")));
        assert_eq!(form("    i32 1, label %9"), line(None, false, false, false));
        assert_eq!(
            form("  br label %7, !llvm.loop !12"),
            line(None, true, true, false)
        );
        assert_eq!(
            form("  store ptr getelementptr inbounds nuw (i8, ptr @g, i64 4), ptr %p"),
            line(None, true, false, false)
        );
        assert_eq!(
            form("  %r = atomicrmw volatile add ptr %p, i32 1 seq_cst"),
            line(Some("r"), true, false, false)
        );
        assert_eq!(
            form("    #dbg_value(i32 %x, !12, !DIExpression(), !15)"),
            line(None, true, false, false)
        );
        assert_eq!(form("  ; a comment: %x = 1"), Some(Form::Blank));
        assert_eq!(
            form("  %s = select i1 %c, ptr @\"a:b\", ptr null"),
            line(Some("s"), true, false, false)
        );
    }

    #[test]
    fn lines_it_does_not_vouch_for() {
        assert_eq!(form("  %x = add i32 1, 2 %y = add i32 3, 4"), None);
        assert_eq!(form("  store i32 1, ptr %p add i32 1, 2"), None);
        assert_eq!(form("  br label %a b:"), None);
        assert_eq!(form("  %t = type { i32 }"), None);
        assert_eq!(form("@g = global i32 0"), None);
        assert_eq!(form("  uselistorder i32 %x, { 1, 0 }"), None);
        assert_eq!(form("  call void asm \"nop"), None);
        assert_eq!(form("  %\"x = add i32 1, 2"), None);
        assert_eq!(
            form("  call void @f(), !dbg !DILocation(line: 3, scope: !4)"),
            None
        );
    }

    #[test]
    fn bodies_close_on_their_own_brace_line() {
        let text = "define { i32, i32 } @f() {\n  ret { i32, i32 } { i32 1, i32 2 }\n}\n\
                    define void @g() { ret void }\n%t = type {\n  i32\n}\n\
                    define void @h(i32 %a,\n    i32 %b) {\nentry:\n  ret void\n}\n";
        let lines: Vec<&str> = crate::text::lines(text).collect();
        let found = bodies(&lines);
        assert_eq!(
            found,
            vec![
                Body {
                    name: "@f",
                    header: 0,
                    inside: 1..2
                },
                Body {
                    name: "@h",
                    header: 7,
                    inside: 9..11
                },
            ]
        );
    }

    #[test]
    fn implicit_numbers_are_found() {
        let explicit = [
            "  %1 = add i32 %0, 1",
            "  br label %3",
            "3:",
            "  ret i32 %1",
        ];
        assert_eq!(explicit_entry(&explicit), Some(None));
        let labelled = ["entry:", "  ret void"];
        assert_eq!(explicit_entry(&labelled), Some(Some("entry")));
        let unnamed = ["  add i32 %0, 1", "  ret void"];
        assert_eq!(explicit_entry(&unnamed), None);
        let unlabelled_block = ["  br label %2", "  ret void"];
        assert_eq!(explicit_entry(&unlabelled_block), None);
        let switch = [
            "  switch i32 %0, label %2 [",
            "    i32 1, label %2",
            "  ]",
            "2:",
            "  ret void",
        ];
        assert_eq!(explicit_entry(&switch), Some(None));
    }
}
