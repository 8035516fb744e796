//! Lines a side adds between the base's module-level entities that the
//! text-safe merge may take as they are: whole entities on one line each
//! (a global, a declaration, a metadata node, an attribute group, a
//! comdat), each under a name that neither the base nor the other side
//! writes anywhere. Nothing else can then refer to them, nor they change
//! what any other line means.
//!
//! ```text
//! theirs adds `@count = global i32 0` after `target triple`, and no other
//! version writes `@count`                          -> text-safe
//! theirs adds `!12 = !{i32 7}`, and ours writes `!12` -> not text-safe
//! theirs adds `%t = type { i32 }` or edits `declare` -> not text-safe
//! ```

use super::forms::{starts_top_level, Token, Tokens};
use crate::text::is_id_byte;

/// What a line added at module level is, when the text-safe merge may
/// take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AddedLine<'a> {
    /// Blank, or only a comment.
    Blank,
    /// A whole entity on one line, and the name it defines (sigil kept:
    /// `@g`, `!7`, `!llvm.ident`, `#3`, `$c`).
    Entity(&'a str),
}

/// What `line` adds, when it is blank or one whole entity that defines a
/// name: `@g = ...`, `!7 = ...`, `$c = comdat ...`, `attributes #3 = ...`,
/// `declare ... @f(...)`, its brackets closed on the line. A numbered
/// global (`@0`) renumbers those after it: `None`, as for anything else.
pub(crate) fn added_line(line: &str) -> Option<AddedLine<'_>> {
    let tokens: Vec<Token<'_>> = Tokens::of(line).collect();
    if tokens.is_empty() {
        return Some(AddedLine::Blank);
    }
    if !brackets_closed(&tokens) {
        return None;
    }
    let name = match tokens[..] {
        [Token::Word("attributes"), Token::Sigiled(n), Token::Punct(b'='), ..] => n,
        [Token::Word("declare"), ..] => tokens.iter().find_map(|t| match t {
            Token::Sigiled(n) if n.starts_with('@') => Some(*n),
            _ => None,
        })?,
        [Token::Sigiled(n), Token::Punct(b'='), ..] if !n.starts_with('#') => n,
        _ => return None,
    };
    let numbered_global = name.starts_with('@') && name[1..].bytes().all(|b| b.is_ascii_digit());
    (!numbered_global).then_some(AddedLine::Entity(name))
}

/// Whether every bracket the tokens open, they close, and no string is
/// left open.
fn brackets_closed(tokens: &[Token<'_>]) -> bool {
    let mut depth = 0i64;
    for token in tokens {
        depth += match token {
            Token::Punct(b'(' | b'[' | b'{' | b'<') => 1,
            Token::Punct(b')' | b']' | b'}' | b'>') => -1,
            Token::Punct(b'"') => return false,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// Whether `text` writes `name` anywhere (as a whole name: `@g` is not
/// written by `@g2`), in a string or comment too.
pub(crate) fn mentions(text: &str, name: &str) -> bool {
    let bytes = text.as_bytes();
    let open_ended = !name.ends_with('"');
    text.match_indices(name).any(|(at, _)| {
        let after = bytes.get(at + name.len()).copied();
        !(open_ended && after.is_some_and(is_id_byte))
    })
}

/// Whether `text` takes the address of a block of function `name`
/// (`blockaddress(@f, %bb)`): the one way a line outside a function
/// writes a local name of it.
pub(crate) fn blockaddress_of(text: &str, name: &str) -> bool {
    text.match_indices("blockaddress").any(|(at, word)| {
        let rest = &text[at + word.len()..];
        let function = &rest[..rest.find(',').unwrap_or(rest.len())];
        mentions(function, name)
    })
}

/// Whether `text` writes every name one way, so that names compared as
/// text are compared as LLVM reads them: no quoted local, global or comdat
/// name (`@"f"` is `@f`, `%"\78"` is `%x`), no quoted label, no number
/// with a leading zero (`#00` is `#0`), no escape outside a string, and no
/// string that runs on past its line (its lines would be read as code).
/// The rules that relax naming (a body one side changes, renames, new
/// entities) hold only then.
pub(crate) fn spelled_plainly(text: &str) -> bool {
    crate::text::lines(text).all(|line| {
        if !line.bytes().any(|b| b == b'"' || b == b'\\') {
            return !leading_zero_after_sigil(line.as_bytes());
        }
        let mut tokens = Tokens::of(line).peekable();
        if matches!(tokens.peek(), Some(Token::Quoted(_))) {
            return false;
        }
        tokens.all(|token| match token {
            Token::Local(name) => !name.starts_with('"') && !leading_zero(name),
            Token::Sigiled(s) => {
                !(s.starts_with("@\"") || s.starts_with("$\"") || leading_zero(&s[1..]))
            }
            Token::Punct(b'"' | b'\\') => false,
            _ => true,
        })
    })
}

/// Whether a name is a number written with a leading zero (`00`, `07`).
fn leading_zero(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.len() > 1 && bytes[0] == b'0' && bytes[1].is_ascii_digit()
}

/// Whether a line without strings writes a sigil and a number with a
/// leading zero (`#01`, `!007`, `%00`).
fn leading_zero_after_sigil(bytes: &[u8]) -> bool {
    bytes.windows(3).any(|w| {
        matches!(w[0], b'%' | b'@' | b'!' | b'#' | b'$') && w[1] == b'0' && w[2].is_ascii_digit()
    })
}

/// Whether a line inserted before `lines[at]` falls between two
/// module-level entities: the line before it is blank, a comment, a
/// closing `}` or an entity other than a function's header, and the line
/// after it blank, a comment or the start of an entity; neither is a line
/// of a body.
pub(crate) fn between_entities(lines: &[&str], at: usize) -> bool {
    let outside = |line: &str, header_ok: bool| {
        let mut tokens = Tokens::of(line);
        let indented = line.starts_with(char::is_whitespace);
        match tokens.next() {
            None => !indented || line.trim().is_empty(),
            Some(Token::Punct(b'}')) => tokens.next().is_none(),
            Some(Token::Word("define")) => header_ok && !indented,
            Some(Token::Local(_)) => !indented && tokens.next() == Some(Token::Punct(b'=')),
            Some(first) => starts_top_level(first) && !indented,
        }
    };
    let before = at.checked_sub(1).map(|i| lines[i]);
    let after = lines.get(at).copied();
    before.is_none_or(|l| outside(l, false)) && after.is_none_or(|l| outside(l, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_entities_and_their_names() {
        let entity = |name| Some(AddedLine::Entity(name));
        assert_eq!(added_line("@count = global i32 0\n"), entity("@count"));
        assert_eq!(added_line("!12 = !{i32 7, !\"x\"}\n"), entity("!12"));
        assert_eq!(added_line("!llvm.ident = !{!3}\n"), entity("!llvm.ident"));
        assert_eq!(added_line("attributes #4 = { nounwind }\n"), entity("#4"));
        assert_eq!(added_line("$c = comdat any\n"), entity("$c"));
        assert_eq!(
            added_line("declare void @use(i32 noundef) #1\n"),
            entity("@use")
        );
        assert_eq!(added_line("; a note\n"), Some(AddedLine::Blank));
        assert_eq!(added_line("\n"), Some(AddedLine::Blank));
    }

    #[test]
    fn lines_it_does_not_take() {
        for line in [
            "@0 = private constant i32 1\n",
            "@t = global [2 x i32] [\n",
            "%t = type { i32 }\n",
            "define void @f() {\n",
            "target triple = \"x86_64\"\n",
            "  %x = add i32 1, 2\n",
            "@s = constant [3 x i8] c\"ab\n",
        ] {
            assert_eq!(added_line(line), None, "{line}");
        }
    }

    #[test]
    fn a_name_is_mentioned_whole() {
        let text = "@g2 = global i32 0\n  call void @f(), !dbg !12\n";
        assert!(!mentions(text, "@g"));
        assert!(mentions(text, "@g2"));
        assert!(mentions(text, "!12"));
        assert!(!mentions(text, "!1"));
    }

    #[test]
    fn names_written_more_than_one_way_are_not_plain() {
        let plain = "@s = constant [5 x i8] c\"%02d\\0A\\00\"\n  call void @f(), !dbg !12\n";
        assert!(spelled_plainly(plain));
        assert!(spelled_plainly(
            "  %x = add i32 1, 2 ; \"quoted\" in a comment\n"
        ));
        for text in [
            "  store ptr blockaddress(@\"f\", %a), ptr @slot\n",
            "  call void @use(i32 %\"\\78\")\n",
            "attributes #00 = { cold }\n",
            "\"a b\":\n",
            "  call void asm sideeffect \"nop\n}\n",
            "!fo\\6F = !{}\n",
        ] {
            assert!(!spelled_plainly(text), "{text}");
        }
    }

    #[test]
    fn block_addresses_name_their_function() {
        let text = "  store ptr blockaddress(@run, %op.add), ptr %slot\n";
        assert!(blockaddress_of(text, "@run"));
        assert!(!blockaddress_of(text, "@ru"));
        assert!(!blockaddress_of("  call void @run()\n", "@run"));
    }

    #[test]
    fn insertions_between_entities_only() {
        let lines = [
            "@g = global i32 0\n",
            "\n",
            "define void @f() {\n",
            "  ret void\n",
            "}\n",
            "declare void @h()\n",
        ];
        assert!(between_entities(&lines, 0));
        assert!(between_entities(&lines, 1));
        assert!(!between_entities(&lines, 3), "inside a body");
        assert!(between_entities(&lines, 2), "before a header");
        assert!(!between_entities(&lines, 4), "before the closing brace");
        assert!(between_entities(&lines, 5));
        assert!(between_entities(&lines, 6));
    }
}
