//! Carrying comments through canonicalization: each note is bound to the
//! LLVM object its anchor names (a function, block, instruction, global) or,
//! for what has no object (attribute groups, metadata, the target triple), to
//! a key made of its content. The canonical stages move and rename objects
//! but never replace them, so after printing, each note is written back at
//! its object's new place.
//!
//! ```text
//! input                                  canonical form
//! define i32 @f(i32 %x) {                define i32 @f(i32 %arg0) {
//!   ; the increment                      entry:
//!   %y = add i32 %x, 1  ; why              %mul.03cc = mul i32 %arg0, 3
//!   %z = mul i32 %x, 3                     ; the increment
//!   ...                                    %add.0405 = add i32 %arg0, 1 ; why
//! ```
//!
//! The printed text is mapped back to objects the same way the input is:
//! by [`super::layout`], with blocks and instructions matched by position
//! inside each function and checked against LLVM's own counts and names.
//! Where a check fails, the notes fall to the next statement that could be
//! mapped (at worst the end of the file): a comment may move, it is never
//! dropped.

use rustc_hash::FxHashMap as HashMap;

use super::layout::{self, Layout, LineKind, StmtKind};
use super::{notes, Anchor};
use crate::ir::{Func, IrModule, Val};

/// What a note is bound to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    /// A function, block, instruction or global.
    Object(Val),
    /// The `}` of a function.
    FuncEnd(Val),
    /// The top of a function's body.
    BodyStart(Val),
    /// A module-level line without an object, by content.
    Text(String),
}

/// Items bound to keys, in the order their keys were first seen, with an
/// index to find a key's entry.
#[derive(Debug)]
struct Keyed<T> {
    list: Vec<(Key, Vec<T>)>,
    index: HashMap<Key, usize>,
}

impl<T> Default for Keyed<T> {
    fn default() -> Self {
        Keyed {
            list: Vec::new(),
            index: HashMap::default(),
        }
    }
}

impl<T> Keyed<T> {
    fn push(&mut self, key: Key, items: impl IntoIterator<Item = T>) {
        match self.index.get(&key) {
            Some(&i) => self.list[i].1.extend(items),
            None => {
                self.index.insert(key.clone(), self.list.len());
                self.list.push((key, items.into_iter().collect()));
            }
        }
    }

    /// The position of `key`'s entry in `list`.
    fn find(&self, key: &Key) -> Option<usize> {
        self.index.get(key).copied()
    }
}

/// Notes bound to their keys, in file order.
#[derive(Debug, Default)]
struct Bound {
    head: Vec<String>,
    end: Vec<String>,
    /// Leading lines per key.
    before: Keyed<String>,
    /// Trailing comments per key: (line of the statement, text).
    trailing: Keyed<(usize, String)>,
}

/// The comments of one input, ready to be written into its canonical text.
#[derive(Debug, Default)]
pub struct Carried {
    bound: Bound,
}

impl Carried {
    /// Reads the notes of `text` and binds them to the objects of `module`,
    /// which must be `text` as LLVM parsed it (before any change).
    pub fn collect(text: &str, module: &IrModule<'_>) -> Carried {
        let layout = layout::lex(text);
        let notes = notes(&layout);
        let mut bound = Bound::default();
        if notes.is_empty() {
            return Carried { bound };
        }
        let keys = stmt_keys(&layout, module);
        // The first statement at or after `s` that has a key.
        let forward = |s: usize| (s..keys.len()).find_map(|i| keys[i].clone());
        for note in notes {
            match note.anchor {
                Anchor::Head => bound.head.extend(note.lines),
                Anchor::End => bound.end.extend(note.lines),
                Anchor::Before(s) => match forward(s) {
                    Some(k) => bound.before.push(k, note.lines),
                    None => bound.end.extend(note.lines),
                },
                Anchor::BodyStart(s) => match &keys[s] {
                    Some(Key::Object(f)) => bound.before.push(Key::BodyStart(*f), note.lines),
                    _ => match forward(s + 1) {
                        Some(k) => bound.before.push(k, note.lines),
                        None => bound.end.extend(note.lines),
                    },
                },
                Anchor::Trailing { stmt, line } => match &keys[stmt] {
                    Some(k) => bound
                        .trailing
                        .push(k.clone(), note.lines.into_iter().map(|t| (line, t))),
                    None => match forward(stmt) {
                        Some(k) => bound.before.push(k, note.lines),
                        None => bound.end.extend(note.lines),
                    },
                },
            }
        }
        Carried { bound }
    }

    /// Whether there is nothing to carry.
    pub fn is_empty(&self) -> bool {
        let b = &self.bound;
        b.head.is_empty()
            && b.end.is_empty()
            && b.before.list.is_empty()
            && b.trailing.list.is_empty()
    }

    /// Writes the notes into `printed`, LLVM's printing of `module` after
    /// canonicalization. Notes whose place is not found go at the end.
    pub fn render(&self, printed: &str, module: &IrModule<'_>) -> String {
        if self.is_empty() {
            return printed.to_string();
        }
        let b = &self.bound;
        let layout = layout::lex(printed);
        let keys = stmt_keys(&layout, module);
        let twins = twin_notes(&layout, &keys, |k| {
            let lead = b.before.find(k).map(|i| &b.before.list[i].1);
            let trail = b.trailing.find(k).map(|i| &b.trailing.list[i].1);
            (lead.is_some() || trail.is_some()).then(|| format!("{lead:?}{trail:?}"))
        });
        let mut w = NoteWriter::new(b, printed.len());
        if !b.head.is_empty() {
            w.lines(&b.head);
            if !printed.starts_with('\n') {
                w.out.push('\n');
            }
        }
        for (idx, line) in layout.lines.iter().enumerate() {
            let stmt = match line.kind {
                // LLVM's own comment lines (`; Function Attrs:`) wait for
                // the statement they introduce, so user notes go above them.
                LineKind::Comment => {
                    w.held.push(line.text);
                    continue;
                }
                LineKind::Blank => {
                    w.flush_held();
                    w.line(line.text);
                    continue;
                }
                LineKind::Code { stmt } => stmt,
            };
            let s = &layout.stmts[stmt];
            // A debug record shares its instruction's key (notes above it
            // belong to the instruction); the notes are written once, at
            // the instruction itself.
            let key = match s.kind {
                StmtKind::Record => None,
                _ => twins.get(&stmt).or(keys[stmt].as_ref()),
            };
            if idx == s.first {
                if let Some(k) = key {
                    w.notes_before(k);
                }
                w.flush_held();
            }
            w.out.push_str(line.text);
            if let Some(k) = key {
                w.trailing_notes(k, idx - s.first, s.last - s.first + 1);
            }
            w.out.push('\n');
            if idx == s.last {
                if let (StmtKind::Define(_), Some(Key::Object(f))) = (&s.kind, key) {
                    w.notes_before(&Key::BodyStart(*f));
                }
            }
        }
        w.finish()
    }
}

/// Writes a printed module with the bound notes put back.
struct NoteWriter<'b> {
    bound: &'b Bound,
    out: String,
    before_used: Vec<bool>,
    trailing_used: Vec<bool>,
    /// LLVM comment lines waiting for the statement they introduce.
    held: Vec<&'b str>,
}

impl<'b> NoteWriter<'b> {
    fn new(bound: &'b Bound, printed_len: usize) -> Self {
        NoteWriter {
            bound,
            out: String::with_capacity(printed_len + 1024),
            before_used: vec![false; bound.before.list.len()],
            trailing_used: vec![false; bound.trailing.list.len()],
            held: Vec::new(),
        }
    }

    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn lines(&mut self, lines: &[String]) {
        for l in lines {
            self.line(l);
        }
    }

    fn flush_held(&mut self) {
        for h in std::mem::take(&mut self.held) {
            self.line(h);
        }
    }

    /// The note lines bound above `key`'s statement.
    fn notes_before(&mut self, key: &Key) {
        if let Some(i) = self.bound.before.find(key) {
            let bound = self.bound;
            self.lines(&bound.before.list[i].1);
            self.before_used[i] = true;
        }
    }

    /// The end-of-line notes of `key`'s statement that belong on its line
    /// `rel` (of `span` lines; all on the first when the statement now has
    /// fewer lines than when they were written).
    fn trailing_notes(&mut self, key: &Key, rel: usize, span: usize) {
        let Some(i) = self.bound.trailing.find(key) else {
            return;
        };
        let list = &self.bound.trailing.list[i].1;
        let keep_lines = list.iter().all(|(at, _)| *at < span);
        for (at, text) in list {
            if (if keep_lines { *at } else { 0 }) == rel {
                self.out.push(' ');
                self.out.push_str(text);
            }
        }
        self.trailing_used[i] = true;
    }

    /// The held lines, then anything whose place was not found, then the
    /// notes of the end of the file.
    fn finish(mut self) -> String {
        self.flush_held();
        let b = self.bound;
        let mut tail: Vec<String> = Vec::new();
        for (i, (_, lines)) in b.before.list.iter().enumerate() {
            if !self.before_used[i] {
                tail.extend(lines.iter().cloned());
            }
        }
        for (i, (_, list)) in b.trailing.list.iter().enumerate() {
            if !self.trailing_used[i] {
                tail.extend(list.iter().map(|(_, t)| t.clone()));
            }
        }
        tail.extend(b.end.iter().cloned());
        if !tail.is_empty() {
            self.out.push('\n');
            self.lines(&tail);
        }
        self.out
    }
}

/// A canonical value name without the `.N` that tells apart values no
/// bounded neighbourhood could (`%ld.fc37.1` → `%ld.fc37`).
pub(crate) fn without_twin_suffix(name: &str) -> &str {
    let Some((head, n)) = name.rsplit_once('.') else {
        return name;
    };
    let hashed = head.rsplit_once('.').is_some_and(|(_, h)| {
        (4..=16).contains(&h.len()) && h.bytes().all(|c| c.is_ascii_hexdigit())
    });
    if hashed && !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) {
        head
    } else {
        name
    }
}

/// Twin instructions: lines of one function that are the same once the
/// twin suffixes are dropped (two loads of one address between the same
/// stores). The canonical form cannot tell twins apart, so neither may the
/// place of their notes: within each group the notes are dealt out in a
/// fixed order (instructions without notes first, then by the notes' text),
/// whichever twin carried them in the input. Returns, per statement, the
/// key whose notes it shows, where that is another twin's.
fn twin_notes(
    layout: &Layout<'_>,
    keys: &[Option<Key>],
    notes_of: impl Fn(&Key) -> Option<String>,
) -> HashMap<usize, Key> {
    let mut swaps = HashMap::default();
    let mut groups: HashMap<String, Vec<usize>> = HashMap::default();
    let mut flush = |groups: &mut HashMap<String, Vec<usize>>| {
        for (_, members) in groups.drain() {
            if members.len() < 2 {
                continue;
            }
            let mut bundles: Vec<(Option<String>, usize)> = members
                .iter()
                .map(|&s| (keys[s].as_ref().and_then(&notes_of), s))
                .collect();
            if bundles.iter().all(|(n, _)| n.is_none()) {
                continue;
            }
            bundles.sort();
            for (&at, (_, from)) in members.iter().zip(bundles) {
                if let Some(k) = &keys[from] {
                    swaps.insert(at, k.clone());
                }
            }
        }
    };
    for (i, s) in layout.stmts.iter().enumerate() {
        match s.kind {
            StmtKind::Inst { .. } if keys[i].is_some() => {
                let line = &layout.lines[s.first];
                let code = line.text[..line.comment_at.unwrap_or(line.text.len())].trim_end();
                let shape = crate::text::rewrite(code, |r| match r {
                    crate::text::Ref::Local(n) => Some(format!("%{}", without_twin_suffix(n))),
                    _ => None,
                });
                groups.entry(shape).or_default().push(i);
            }
            StmtKind::FuncEnd => flush(&mut groups),
            _ => {}
        }
    }
    flush(&mut groups);
    swaps
}

/// The name a quoted or plain `@name` / `%name` token stands for.
pub(crate) fn unquote(token: &str) -> String {
    let t = token.trim_start_matches(['@', '%', '!', '$']);
    let Some(inner) = t.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return t.to_string();
    };
    let b = inner.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 2 < b.len() + 1 {
            if let Some(v) = inner
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn is_number(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a name as written (`5`, `x`, `"a b"`) is LLVM's `name` (empty
/// for numbered values).
fn same_name(written: &str, llvm: &str) -> bool {
    if is_number(written) {
        llvm.is_empty()
    } else {
        unquote(written) == llvm
    }
}

/// The code of a statement, its lines joined, whitespace removed: a key
/// that does not depend on how the printer spaces things.
fn squeezed_code(layout: &Layout<'_>, first: usize, last: usize) -> String {
    let mut s = String::new();
    for l in &layout.lines[first..=last] {
        s.extend(l.code().chars().filter(|c| !c.is_whitespace()));
    }
    s
}

/// `!N` references replaced by `!#`: metadata numbers are positions.
fn blank_meta_numbers(s: &str) -> String {
    mask_numbers(s, b'!', "#")
}

/// Every `<sigil><digits>` of `s` with the digits replaced by `mask`
/// (`%7` → `%N`): text read as it is once numbering is set aside.
pub fn mask_numbers(s: &str, sigil: u8, mask: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if b[i] == sigil && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
            out.push_str(&s[copied..=i]);
            out.push_str(mask);
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            copied = i;
            continue;
        }
        i += 1;
    }
    out.push_str(&s[copied..]);
    out
}

/// The key of every statement that can carry notes.
fn stmt_keys(layout: &Layout<'_>, module: &IrModule<'_>) -> Vec<Option<Key>> {
    let stmts = &layout.stmts;
    let mut keys: Vec<Option<Key>> = vec![None; stmts.len()];
    let mut meta_seen: HashMap<String, usize> = HashMap::default();
    let mut i = 0;
    while i < stmts.len() {
        let s = &stmts[i];
        let after_eq = || {
            let code = squeezed_code(layout, s.first, s.last);
            code.split_once('=')
                .map(|(_, r)| r.to_string())
                .unwrap_or(code)
        };
        keys[i] = match &s.kind {
            StmtKind::Define(name) => {
                let end = (i + 1..stmts.len())
                    .find(|&j| stmts[j].kind == StmtKind::FuncEnd)
                    .unwrap_or(stmts.len());
                let f = module.function(&unquote(name));
                if let Some(f) = f {
                    bind_body(layout, i + 1..end, f, &mut keys);
                    if end < stmts.len() {
                        keys[end] = Some(Key::FuncEnd(f.0));
                    }
                }
                keys[i] = f.map(|f| Key::Object(f.0));
                i = end + 1;
                continue;
            }
            StmtKind::Declare(name) => module.function(&unquote(name)).map(|f| Key::Object(f.0)),
            StmtKind::Global(name) if !is_number(&unquote(name)) || name.contains('"') => module
                .global_value(&unquote(name))
                .map(Key::Object)
                .or_else(|| Some(Key::Text(format!("global {name}")))),
            StmtKind::Global(name) => Some(Key::Text(format!("global {name}"))),
            StmtKind::AttrGroup(_) => Some(Key::Text(format!("attributes {}", after_eq()))),
            StmtKind::Meta(_) => {
                let shape = blank_meta_numbers(&after_eq());
                let n = meta_seen.entry(shape.clone()).or_default();
                *n += 1;
                Some(Key::Text(format!("meta {shape} #{n}")))
            }
            StmtKind::NamedMeta(n) | StmtKind::TypeDef(n) | StmtKind::Comdat(n) => {
                Some(Key::Text(format!("named {n}")))
            }
            StmtKind::Summary(n) => Some(Key::Text(format!("summary {n}"))),
            StmtKind::SourceFilename => Some(Key::Text("source_filename".into())),
            StmtKind::DataLayout => Some(Key::Text("datalayout".into())),
            StmtKind::Triple => Some(Key::Text("triple".into())),
            StmtKind::ModuleAsm | StmtKind::ModuleUseListOrder | StmtKind::OtherModule => Some(
                Key::Text(format!("line {}", squeezed_code(layout, s.first, s.last))),
            ),
            // Function-level statements outside a function: nothing to bind.
            _ => None,
        };
        i += 1;
    }
    keys
}

/// Binds the statements `range` of a function body to `f`'s blocks and
/// instructions by position, checking counts and names as it goes. If the
/// text and LLVM disagree anywhere, nothing in the body is bound (its notes
/// then fall to the function's `}`).
fn bind_body(
    layout: &Layout<'_>,
    range: std::ops::Range<usize>,
    f: Func,
    keys: &mut [Option<Key>],
) {
    let blocks = f.blocks();
    let mut block: Option<usize> = None;
    let mut insts = Vec::new();
    let mut next = 0;
    let mut records: Vec<usize> = Vec::new();
    let mut ok = true;
    let enter = |b: usize, insts: &mut Vec<crate::ir::Inst>, next: &mut usize| -> bool {
        if b >= blocks.len() {
            return false;
        }
        *insts = blocks[b].instructions();
        *next = 0;
        true
    };
    for s in range.clone() {
        match &layout.stmts[s].kind {
            StmtKind::Label(name) => {
                if block.is_some() && next != insts.len() {
                    ok = false;
                    break;
                }
                let b = block.map_or(0, |b| b + 1);
                if !enter(b, &mut insts, &mut next) || !same_name(name, &blocks[b].name()) {
                    ok = false;
                    break;
                }
                block = Some(b);
                keys[s] = Some(Key::Object(blocks[b].as_val()));
            }
            StmtKind::Inst { def } => {
                if block.is_none() {
                    if !enter(0, &mut insts, &mut next) {
                        ok = false;
                        break;
                    }
                    block = Some(0);
                }
                let Some(inst) = insts.get(next) else {
                    ok = false;
                    break;
                };
                let llvm_name = inst.val().name();
                let named_ok = match def {
                    Some(d) => same_name(d, &llvm_name),
                    None => llvm_name.is_empty(),
                };
                if !named_ok {
                    ok = false;
                    break;
                }
                let key = Some(Key::Object(inst.val()));
                for r in records.drain(..) {
                    keys[r] = key.clone();
                }
                keys[s] = key;
                next += 1;
            }
            StmtKind::Record => records.push(s),
            _ => {}
        }
    }
    let complete =
        block.map_or(blocks.is_empty(), |b| b + 1 == blocks.len()) && next == insts.len();
    if !(ok && complete) {
        for k in &mut keys[range] {
            *k = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_names_are_unescaped() {
        assert_eq!(unquote("@\"a b\""), "a b");
        assert_eq!(unquote("%\"x\\22y\""), "x\"y");
        assert_eq!(unquote("@plain.1"), "plain.1");
        assert!(same_name("5", ""));
        assert!(!same_name("x", ""));
    }

    #[test]
    fn metadata_numbers_are_blanked() {
        assert_eq!(
            blank_meta_numbers("!{!12,!\"a\",i321}"),
            "!{!#,!\"a\",i321}"
        );
    }
}
