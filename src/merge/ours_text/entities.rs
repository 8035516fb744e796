//! The last way of writing a result in ours' text: entity by entity. Where
//! the merge's change cannot be placed line by line (ours is written in an
//! older dialect, `i8*` where LLVM prints `ptr`, so the lines of ours as
//! LLVM prints them are not ours' lines), each top-level entity (function,
//! declaration, global, type, attribute group, metadata node) the merge
//! changes is written anew, from the result in ours' names, with LLVM's
//! `; Function Attrs:` line above it; every other entity stays ours' bytes.
//!
//! ```text
//! ours:     define void @f(i8* %p) {...}      define void @g(i8* %q) { store i8 1, i8* %q ... }
//! reprinted (ours as LLVM prints it):         define void @g(ptr %q) { store i8 1, ptr %q ... }
//! result:                                     define void @g(ptr %q) { store i8 7, ptr %q ... }
//! written:  define void @f(i8* %p) {...}      define void @g(ptr %q) { store i8 7, ptr %q ... }
//! ```
//!
//! An entity the result adds follows the one it follows in the result; an
//! entity it removes goes with its `; Function Attrs:` line and one blank
//! line beside it. The caller checks the text like any other candidate.

use rustc_hash::FxHashMap as HashMap;

use crate::comments::layout::{lex, Layout, LineKind, StmtKind};

/// One top-level entity of a text: its key and its lines (LLVM's
/// attribute comment above it included).
struct Entity {
    key: String,
    first: usize,
    last: usize,
}

/// The key of a top-level statement: its kind and name (`@"f$1"` and
/// `@f` as LLVM prints the name), the code itself for a nameless one.
fn key_of(kind: &StmtKind, code: &str) -> String {
    let global = |name: &str| {
        let name = crate::comments::carry::unquote(name);
        format!("@{}", crate::canon::source_map::name_token(&name))
    };
    match kind {
        StmtKind::Define(name) => format!("define {}", global(name)),
        StmtKind::Declare(name) => format!("declare {}", global(name)),
        StmtKind::Global(name) => format!("global {}", global(name)),
        StmtKind::TypeDef(name) => format!("type {name}"),
        StmtKind::Comdat(name) => format!("comdat {name}"),
        StmtKind::AttrGroup(n) => format!("attributes #{n}"),
        StmtKind::Meta(name) | StmtKind::NamedMeta(name) => format!("metadata {name}"),
        StmtKind::SourceFilename => "source_filename".into(),
        StmtKind::DataLayout => "datalayout".into(),
        StmtKind::Triple => "triple".into(),
        _ => format!("line {code}"),
    }
}

/// The top-level entities of `layout`, a function from its header to its
/// `}`.
fn entities(layout: &Layout<'_>) -> Vec<Entity> {
    let mut out = Vec::new();
    let mut open: Option<Entity> = None;
    for stmt in &layout.stmts {
        if stmt.kind == StmtKind::FuncEnd {
            if let Some(mut function) = open.take() {
                function.last = stmt.last;
                out.push(function);
            }
        }
        if stmt.kind.in_function() {
            continue;
        }
        let code = layout.lines[stmt.first].code();
        let mut first = stmt.first;
        while first > 0 && is_attribute_comment(layout, first - 1) {
            first -= 1;
        }
        let entity = Entity {
            key: key_of(&stmt.kind, code),
            first,
            last: stmt.last,
        };
        match stmt.kind {
            StmtKind::Define(_) => open = Some(entity),
            _ => out.push(entity),
        }
    }
    out
}

/// Whether line `i` is LLVM's `; Function Attrs: ...` comment.
fn is_attribute_comment(layout: &Layout<'_>, i: usize) -> bool {
    layout.lines[i].kind == LineKind::Comment
        && layout.lines[i]
            .text
            .trim_start()
            .starts_with("; Function Attrs:")
}

/// A text's entities by key; `None` for a key it has more than once.
struct Index<'t> {
    layout: Layout<'t>,
    list: Vec<Entity>,
    by_key: HashMap<String, Option<usize>>,
}

impl<'t> Index<'t> {
    fn new(text: &'t str) -> Index<'t> {
        let layout = lex(text);
        let list = entities(&layout);
        let mut by_key: HashMap<String, Option<usize>> = HashMap::default();
        for (i, e) in list.iter().enumerate() {
            by_key
                .entry(e.key.clone())
                .and_modify(|at| *at = None)
                .or_insert(Some(i));
        }
        Index {
            layout,
            list,
            by_key,
        }
    }

    /// The one entity with `key`: `Some(None)` when there is none,
    /// `None` when there are several.
    fn get(&self, key: &str) -> Option<Option<&Entity>> {
        match self.by_key.get(key) {
            None => Some(None),
            Some(Some(i)) => Some(Some(&self.list[*i])),
            Some(None) => None,
        }
    }

    /// The code of an entity (LLVM's comment above it left out).
    fn code(&self, e: &Entity) -> Vec<&'t str> {
        let lines = &self.layout.lines[e.first..=e.last];
        lines
            .iter()
            .skip_while(|l| l.kind == LineKind::Comment)
            .map(|l| l.text)
            .collect()
    }

    fn lines(&self, e: &Entity) -> Vec<&'t str> {
        self.layout.lines[e.first..=e.last]
            .iter()
            .map(|l| l.text)
            .collect()
    }

    fn blank(&self, i: Option<usize>) -> bool {
        i.and_then(|i| self.layout.lines.get(i))
            .is_some_and(|l| l.kind == LineKind::Blank)
    }
}

/// Edits to ours' lines: lines deleted, lines written before or after a line.
#[derive(Default)]
struct Edits<'t> {
    deleted: Vec<bool>,
    before: HashMap<usize, Vec<&'t str>>,
    after: HashMap<usize, Vec<&'t str>>,
}

/// Ours' text with each entity the change from `reprinted` (ours as LLVM
/// prints it, in ours' names) to `result` (in ours' names) touches written
/// anew; `None` when such an entity is not once in each text.
pub(crate) fn written_anew(reprinted: &str, ours: &str, result: &str) -> Option<String> {
    let (reprinted, ours_index, result) =
        (Index::new(reprinted), Index::new(ours), Index::new(result));
    let mut edits = Edits {
        deleted: vec![false; ours_index.layout.lines.len()],
        ..Edits::default()
    };
    // Changed and removed entities, where ours has them.
    for e in &reprinted.list {
        let now = result.get(&e.key)?;
        if now.is_some_and(|n| result.code(n) == reprinted.code(e)) {
            continue;
        }
        let mine = ours_index.get(&e.key)??;
        edits.deleted[mine.first..=mine.last].fill(true);
        match now {
            Some(n) => edits
                .before
                .entry(mine.first)
                .or_default()
                .extend(result.lines(n)),
            None => remove_blank_beside(&ours_index, mine, &mut edits.deleted),
        }
    }
    // Added entities, after the one they follow in the result.
    for (i, e) in result.list.iter().enumerate() {
        if reprinted.get(&e.key)?.is_some() {
            continue;
        }
        add(&result, i, &ours_index, &mut edits)?;
    }
    Some(write(ours, &ours_index, &edits))
}

/// Writes the result's entity `i`, which ours lacks, after the ours'
/// entity the result has before it (else before the one it has after it).
fn add<'t>(result: &Index<'t>, i: usize, ours: &Index<'_>, edits: &mut Edits<'t>) -> Option<()> {
    let e = &result.list[i];
    let in_ours = |j: usize| ours.get(&result.list[j].key).flatten();
    let lines = result.lines(e);
    if let Some(previous) = (0..i).rev().find_map(in_ours) {
        let at = edits.after.entry(previous.last).or_default();
        if result.blank(e.first.checked_sub(1)) {
            at.push("");
        }
        at.extend(lines);
        return Some(());
    }
    let next = (i + 1..result.list.len()).find_map(in_ours)?;
    let at = edits.before.entry(next.first).or_default();
    at.extend(lines);
    if result.blank(Some(e.last + 1)) {
        at.push("");
    }
    Some(())
}

/// With entity `e` removed, the blank line after it (or before it) goes
/// too when it would leave two blank lines together.
fn remove_blank_beside(ours: &Index<'_>, e: &Entity, deleted: &mut [bool]) {
    let before = e.first.checked_sub(1);
    let after = e.last + 1;
    let (blank_before, blank_after) = (ours.blank(before), ours.blank(Some(after)));
    if blank_after && (blank_before || before.is_none()) {
        deleted[after] = true;
    } else if blank_before && !blank_after {
        if let Some(b) = before {
            deleted[b] = true;
        }
    }
}

fn write(ours: &str, index: &Index<'_>, edits: &Edits<'_>) -> String {
    let mut out = String::with_capacity(ours.len() + 256);
    let mut push = |l: &str| {
        out.push_str(l);
        out.push('\n');
    };
    for (k, line) in index.layout.lines.iter().enumerate() {
        edits
            .before
            .get(&k)
            .into_iter()
            .flatten()
            .for_each(|l| push(l));
        if !edits.deleted[k] {
            push(line.text);
        }
        edits
            .after
            .get(&k)
            .into_iter()
            .flatten()
            .for_each(|l| push(l));
    }
    // `lex` sees one more (empty) line after a final newline.
    if ours.ends_with('\n') && out.ends_with("\n\n") {
        out.pop();
    }
    if !ours.ends_with('\n') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OURS: &str = "declare void @h(i8*)\n\n; Function Attrs: nounwind\n\
                        define void @f(i8* %p) {\n  call void @h(i8* %p)\n  ret void\n}\n\n\
                        define void @g(i8* %q) {\n  store i8 1, i8* %q\n  ret void\n}\n";
    const REPRINTED: &str = "; Function Attrs: nounwind\ndefine void @f(ptr %p) {\n  \
                             call void @h(ptr %p)\n  ret void\n}\n\ndefine void @g(ptr %q) {\n  \
                             store i8 1, ptr %q\n  ret void\n}\n\ndeclare void @h(ptr)\n";

    #[test]
    fn only_the_changed_function_is_written_anew() {
        let result = REPRINTED.replace("store i8 1", "store i8 7");
        let written = written_anew(REPRINTED, OURS, &result).unwrap();
        let want = OURS.replace(
            "define void @g(i8* %q) {\n  store i8 1, i8* %q",
            "define void @g(ptr %q) {\n  store i8 7, ptr %q",
        );
        assert_eq!(written, want);
    }

    #[test]
    fn a_removed_function_goes_with_its_comment_and_an_added_one_follows_its_neighbour() {
        let f = "; Function Attrs: nounwind\ndefine void @f(ptr %p) {\n  call void @h(ptr %p)\n  \
                 ret void\n}\n\n";
        let result = REPRINTED.replace(f, "").replace(
            "declare void @h(ptr)\n",
            "declare void @h(ptr)\n\ndeclare void @k()\n",
        );
        let written = written_anew(REPRINTED, OURS, &result).unwrap();
        assert_eq!(
            written,
            "declare void @h(i8*)\n\ndeclare void @k()\n\ndefine void @g(i8* %q) {\n  \
             store i8 1, i8* %q\n  ret void\n}\n"
        );
    }
}
