//! Whether two printed modules are the same module up to what
//! canonicalization decides anyway: the order of top-level entities, the
//! names of local values and blocks, the numbers of attribute groups (`#N`)
//! and metadata nodes (`!N`), comments and blank lines. Canonicalization
//! orders entities by name, names locals by content, and LLVM numbers groups
//! and nodes as it prints, so two such texts have one canonical form.
//!
//! The merge uses it to recognize its structured result in the canonical
//! form of `git merge-file`'s result without canonicalizing it a second
//! time. The structured text lists declarations first, numbers groups in
//! its own order and keeps the base's name for a value a side edited:
//!
//! ```text
//! structured:                          git's result, canonical:
//! declare void @g() #0                 define void @f() #0 { ... }
//! define void @f() #1 { ... }          declare void @g() #1
//! attributes #0 = { nounwind }         attributes #0 = { noinline }
//! attributes #1 = { noinline }         attributes #1 = { nounwind }
//! ```
//!
//! The check is exact: entities pair up by what they define, their lines
//! must be equal except for `#N` / `!N` / local-name tokens, those tokens
//! must pair up one to one across both texts (local names within one
//! function, labels included), paired groups and nodes must have equal
//! definitions (under the same pairing), and every group and node of the
//! second text (a canonical form: LLVM prints only what is in use) must be
//! paired; groups and nodes of the first that nothing refers to are not part
//! of its module. No hashing, no guessing: any doubt answers "no", and the
//! caller canonicalizes. A text that takes a block's address
//! (`blockaddress(@f, %bb)`) writes a local name of one function in another,
//! which the pairing by function cannot follow: the answer is "no".

use std::borrow::Cow;
use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use crate::compare::model::bracket_depth;

use crate::text::{function_name, scan_refs, Ref};

/// Whether `a` prints the same module as `b`, a text LLVM printed (see the
/// module doc).
pub(crate) fn same_module(a: &str, b: &str) -> bool {
    if a.contains("blockaddress") || b.contains("blockaddress") {
        return false;
    }
    // Each text cut on its own core.
    let (ea, eb) = std::thread::scope(|scope| {
        let hb = scope.spawn(|| Entities::of(b));
        let ea = Entities::of(a);
        (
            ea,
            hb.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
        )
    });
    let (Some(ea), Some(eb)) = (ea, eb) else {
        return false;
    };
    if ea.named.len() != eb.named.len() {
        return false;
    }
    let mut pairing = Pairing::default();
    for (key, la) in &ea.named {
        let Some(lb) = eb.named.get(key) else {
            return false;
        };
        // Local names pair up within one function.
        pairing.locals.forward.clear();
        pairing.locals.backward.clear();
        pairing.in_function = true;
        if la.len() != lb.len() || !la.iter().zip(lb).all(|(x, y)| pairing.same(x, y, &ea)) {
            return false;
        }
        pairing.in_function = false;
    }
    // Definitions of the paired groups and nodes, which may pair more nodes.
    let mut done = 0;
    while done < pairing.order.len() {
        let (kind, x, y) = pairing.order[done];
        done += 1;
        let same = match kind {
            Kind::Attr => ea
                .attrs
                .get(&x)
                .zip(eb.attrs.get(&y))
                .is_some_and(|(p, q)| p == q),
            Kind::Meta => ea
                .meta
                .get(&x)
                .zip(eb.meta.get(&y))
                .is_some_and(|(p, q)| pairing.same(p, q, &ea)),
        };
        if !same {
            return false;
        }
    }
    // Every group and node of `b` is paired. Those of `a` that nothing
    // refers to are not part of the module (the parser drops them; the
    // structured merge numbers every side's nodes, used or not).
    pairing.numbers[Kind::Attr as usize].backward.len() == eb.attrs.len()
        && pairing.numbers[Kind::Meta as usize].backward.len() == eb.meta.len()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Attr = 0,
    Meta = 1,
}

/// Pairs of `a`'s things with `b`'s, one to one.
struct OneToOne<T> {
    forward: HashMap<T, T>,
    backward: HashMap<T, T>,
}

impl<T> Default for OneToOne<T> {
    fn default() -> Self {
        OneToOne {
            forward: HashMap::default(),
            backward: HashMap::default(),
        }
    }
}

impl<T: std::hash::Hash + Eq + Copy> OneToOne<T> {
    /// Pairs `x` with `y`: `Some(true)` for a new pair, `Some(false)` when
    /// they were paired already, `None` when either is paired with another.
    fn pair(&mut self, x: T, y: T) -> Option<bool> {
        match (self.forward.get(&x), self.backward.get(&y)) {
            (None, None) => {
                self.forward.insert(x, y);
                self.backward.insert(y, x);
                Some(true)
            }
            (Some(&y2), Some(&x2)) => (y2 == y && x2 == x).then_some(false),
            _ => None,
        }
    }
}

/// The pairing of the numbers of `a` with those of `b`, and, inside a
/// function, of its local names.
#[derive(Default)]
struct Pairing<'a> {
    numbers: [OneToOne<u32>; 2],
    /// Pairs in the order they were made (their definitions are compared).
    order: Vec<(Kind, u32, u32)>,
    /// Local names in the function being compared, when `in_function`
    /// (outside functions a local name must be equal).
    locals: OneToOne<&'a str>,
    in_function: bool,
    /// A line's tokens (kept to spare an allocation per line).
    scratch: Vec<Token<'a>>,
}

impl<'a> Pairing<'a> {
    fn pair(&mut self, kind: Kind, x: u32, y: u32) -> bool {
        match self.numbers[kind as usize].pair(x, y) {
            Some(true) => {
                self.order.push((kind, x, y));
                true
            }
            Some(false) => true,
            None => false,
        }
    }

    /// Pairs local name `x` of `a` with `y` of `b`. Named types are
    /// module-wide: they must be equal.
    fn pair_local(&mut self, x: &'a str, y: &'a str, a: &Entities<'_>) -> bool {
        if !self.in_function {
            return x == y;
        }
        if let Some(&y2) = self.locals.forward.get(x) {
            return y2 == y;
        }
        let is_type = |n: &str| a.types.contains(n);
        if is_type(x) || is_type(y) {
            return x == y;
        }
        self.locals.pair(x, y).is_some()
    }

    /// Whether lines `x` and `y` are equal but for paired numbers and
    /// local names.
    fn same(&mut self, x: &'a str, y: &'a str, a: &Entities<'_>) -> bool {
        if x == y {
            // Equal text: each reference pairs with itself.
            let mut ok = true;
            tokens(x, |t| {
                ok = ok
                    && match t {
                        Token::Text(_) => true,
                        Token::Num(k, n) => self.pair(k, n, n),
                        Token::Local(n) => self.pair_local(n, n, a),
                    }
            });
            return ok;
        }
        let mut tx = std::mem::take(&mut self.scratch);
        tx.clear();
        tokens(x, |t| tx.push(t));
        let mut ok = true;
        let mut at = 0;
        tokens(y, |q| {
            ok = ok
                && at < tx.len()
                && match (tx[at], q) {
                    (Token::Text(s), Token::Text(t)) => s == t,
                    (Token::Num(k, m), Token::Num(l, n)) => k == l && self.pair(k, m, n),
                    (Token::Local(m), Token::Local(n)) => self.pair_local(m, n, a),
                    _ => false,
                };
            at += 1;
        });
        ok &= at == tx.len();
        self.scratch = tx;
        ok
    }
}

#[derive(Clone, Copy)]
enum Token<'a> {
    Text(&'a str),
    Num(Kind, u32),
    Local(&'a str),
}

/// A line as text between references (`#N`, `!N`, `%name`), and the
/// references.
fn tokens<'l>(line: &'l str, mut out: impl FnMut(Token<'l>)) {
    // A block's label names a local like `%label` does.
    if let Some(label) = crate::text::label_name(line).filter(|l| !l.starts_with('"')) {
        out(Token::Local(label));
        out(Token::Text(":"));
        return;
    }
    let mut copied = 0;
    scan_refs(line, |i, j, r| {
        out(Token::Text(&line[copied..i]));
        out(match r {
            Ref::Attr(n) => Token::Num(Kind::Attr, n),
            Ref::Meta(n) => Token::Num(Kind::Meta, n),
            Ref::Local(n) => Token::Local(n),
        });
        copied = j;
    });
    out(Token::Text(&line[copied..]));
}

/// A printed module cut into top-level entities.
struct Entities<'a> {
    /// What an entity defines (`define @f`, `@g`, `%struct.s`, `!llvm.ident`,
    /// `source_filename`...; a line defining nothing is its own key, with
    /// its occurrence) → its lines without comments and blank lines.
    named: BTreeMap<String, Vec<Cow<'a, str>>>,
    /// `attributes #N = { ... }`: N → the braces.
    attrs: HashMap<u32, &'a str>,
    /// `!N = ...`: N → the right-hand side.
    meta: HashMap<u32, &'a str>,
    /// Named types (`%struct.s = type ...`), without the `%`.
    types: rustc_hash::FxHashSet<&'a str>,
}

impl<'a> Entities<'a> {
    fn of(text: &'a str) -> Option<Entities<'a>> {
        let mut e = Entities {
            named: BTreeMap::new(),
            attrs: HashMap::default(),
            meta: HashMap::default(),
            types: Default::default(),
        };
        let mut lines = text.lines().map(code_of).filter(|l| !l.is_empty());
        while let Some(line) = lines.next() {
            if line.starts_with("define ") {
                let mut body = vec![Cow::Borrowed(line)];
                for l in lines.by_ref() {
                    if l == "}" {
                        body.push(Cow::Borrowed(l));
                        break;
                    }
                    // A `switch ... [` continues on the next lines: one
                    // instruction per line, as the structured merge writes it.
                    match body.last_mut() {
                        Some(prev) if bracket_depth(prev) > 0 => {
                            let prev = prev.to_mut();
                            prev.push(' ');
                            prev.push_str(l.trim_start());
                        }
                        _ => body.push(Cow::Borrowed(l)),
                    }
                }
                e.insert(format!("define {}", function_name(line)?), body)?;
            } else if let Some(rest) = line.strip_prefix("attributes #") {
                let (n, rhs) = rest.split_once(" = ")?;
                e.attrs
                    .insert(n.parse().ok()?, rhs)
                    .is_none()
                    .then_some(())?;
            } else if let Some((n, rhs)) = line
                .strip_prefix('!')
                .and_then(|rest| rest.split_once(" = "))
                .filter(|(n, _)| n.bytes().all(|c| c.is_ascii_digit()) && !n.is_empty())
            {
                e.meta
                    .insert(n.parse().ok()?, rhs)
                    .is_none()
                    .then_some(())?;
            } else {
                if let Some((name, _)) = line.split_once(" = type ") {
                    e.types.insert(name.trim_start_matches('%'));
                }
                let key = match line.split_once(" = ") {
                    Some((name, _)) if !name.contains(' ') => name.to_string(),
                    _ if line.starts_with("declare ") => {
                        format!("declare {}", function_name(line)?)
                    }
                    _ => line.to_string(),
                };
                let mut k = key.clone();
                let mut n = 1;
                while e.named.contains_key(&k) {
                    n += 1;
                    k = format!("{key} #{n}");
                }
                e.insert(k, vec![Cow::Borrowed(line)])?;
            }
        }
        Some(e)
    }

    fn insert(&mut self, key: String, lines: Vec<Cow<'a, str>>) -> Option<()> {
        self.named.insert(key, lines).is_none().then_some(())
    }
}

/// A line without the comments LLVM's printer adds and without trailing
/// blanks: `; ModuleID`, `; Function Attrs`, a label's `; preds = ...`.
/// A line that is only a comment becomes empty.
fn code_of(line: &str) -> &str {
    let line = line.trim_end();
    if line.trim_start().starts_with(';') {
        return "";
    }
    // `label:   ; preds = %a, %b` (a label never contains `;`; instructions
    // are indented).
    if line.starts_with(' ') {
        return line;
    }
    if let Some((label, _)) = line.split_once(';') {
        let label = label.trim_end();
        if label.ends_with(':') && !label.starts_with(' ') && !label.contains('"') {
            return label;
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::same_module;

    const A: &str = "declare void @g() #0\n\n\
        define void @f() #1 {\nentry:\n  call void @g(), !dbg !3\n  ret void\n}\n\n\
        attributes #0 = { nounwind }\nattributes #1 = { noinline }\n\n\
        !llvm.module.flags = !{!0}\n!0 = !{i32 2, !\"Debug Info Version\", i32 3}\n\
        !3 = !DILocation(line: 1, scope: !4)\n!4 = distinct !DISubprogram(name: \"f\")\n";

    const B: &str = "; ModuleID = 'm'\n\
        ; Function Attrs: noinline\n\
        define void @f() #0 {\nentry:                  ; preds = %x\n  call void @g(), !dbg !9\n  ret void\n}\n\n\
        declare void @g() #1\n\n\
        attributes #0 = { noinline }\nattributes #1 = { nounwind }\n\n\
        !llvm.module.flags = !{!1}\n!1 = !{i32 2, !\"Debug Info Version\", i32 3}\n\
        !9 = !DILocation(line: 1, scope: !2)\n!2 = distinct !DISubprogram(name: \"f\")\n";

    #[test]
    fn order_numbers_and_printer_comments_do_not_count() {
        assert!(same_module(A, B));
        assert!(same_module(B, A));
    }

    #[test]
    fn a_block_address_is_never_paired_by_its_name() {
        let text = |label: &str| {
            format!(
                "define void @f() {{\nentry:\n  br label %b1\n\nb1:\n  br label %b2\n\n\
                 b2:\n  ret void\n}}\n\ndefine ptr @g() {{\nentry:\n  \
                 ret ptr blockaddress(@f, %{label})\n}}\n"
            )
        };
        assert!(!same_module(&text("b1"), &text("b2")), "two blocks");
        assert!(!same_module(&text("b1"), &text("b1")), "no pairing at all");
    }

    #[test]
    fn blank_lines_and_label_notes_do_not_count() {
        let canonical = "; ModuleID = 't.ll'\ndefine void @f() {\nentry:\n  br label %b\n\nb:                                                ; preds = %entry\n  ret void\n}\n";
        let text = "define void @f() {\nentry:\n  br label %b\n\nb:\n  ret void\n}\n\n";
        assert!(same_module(text, canonical));
        assert!(!same_module(
            &text.replace("ret void", "unreachable"),
            canonical
        ));
        assert!(!same_module(&text.replace("b:\n", "c:\n"), canonical));
        assert!(!same_module("define void @f() {\n", canonical));
    }

    #[test]
    fn local_names_pair_up_within_a_function() {
        let a = "%t = type { i32 }\ndefine i32 @f(i32 %arg0) {\nentry:\n  %add.1 = add i32 %arg0, 1\n  %mul.2 = mul i32 %add.1, %add.1\n  ret i32 %mul.2\n}\n";
        let b = "%t = type { i32 }\ndefine i32 @f(i32 %arg0) {\nentry:\n  %add.9 = add i32 %arg0, 1\n  %mul.8 = mul i32 %add.9, %add.9\n  ret i32 %mul.8\n}\n";
        assert!(same_module(a, b));
        // Not one to one: two values of `a` are one of `b`.
        let c = b.replace(
            "%mul.8 = mul i32 %add.9, %add.9",
            "%mul.8 = mul i32 %add.9, %arg0",
        );
        assert!(!same_module(a, &c));
        // Labels are local names too: the same label lines with the
        // branches swapped are another CFG.
        let g = "define void @f(i1 %arg0) {\nentry:\n  br i1 %arg0, label %x, label %y\n\nx:\n  ret void\n\ny:\n  unreachable\n}\n";
        assert!(same_module(g, &g.replace("%x", "%p").replace("x:", "p:")));
        assert!(!same_module(
            g,
            &g.replace("label %x, label %y", "label %y, label %x")
        ));
        // A named type is no local name.
        let d = a.replace("  ret i32 %mul.2", "  %v = alloca %t\n  ret i32 %mul.2");
        let e = b.replace("  ret i32 %mul.8", "  %v = alloca %add.9\n  ret i32 %mul.8");
        assert!(!same_module(&d, &e));
    }

    #[test]
    fn a_real_difference_counts() {
        // Another instruction.
        assert!(!same_module(A, &B.replace("ret void", "unreachable")));
        // The call's attributes swapped with the function's.
        assert!(!same_module(A, &B.replace("@g() #1", "@g() #0")));
        // Another group body.
        assert!(!same_module(
            A,
            &B.replace("{ nounwind }", "{ nounwind cold }")
        ));
        // Another node reached through the pairing.
        assert!(!same_module(A, &B.replace("name: \"f\"", "name: \"h\"")));
        // A node of the canonical side left over; one that nothing refers
        // to on the other side is no part of its module.
        assert!(!same_module(A, &format!("{B}!7 = !{{}}\n")));
        assert!(same_module(&format!("{A}!7 = !{{}}\n"), B));
        // Two references that are one node in A and two nodes in B.
        let a = "define void @f() {\n  ret void, !x !0, !y !0\n}\n!0 = !{}\n";
        let b = "define void @f() {\n  ret void, !x !0, !y !1\n}\n!0 = !{}\n!1 = !{}\n";
        assert!(!same_module(a, b));
        assert!(same_module(a, a));
    }
}
