//! The merge's view of a canonical module: module-level entities keyed by
//! name, functions as labelled blocks of instruction lines, and the numbered
//! metadata nodes and attribute groups those lines point to.
//!
//! Metadata and attribute numbers (`!7`, `#1`) are positions, not identities:
//! one side adding a loop renumbers every later `!N`. So every reference is
//! read twice: a *key* (a content hash, used to compare lines across sides)
//! and an *output* form (a number allocated in the merged module).
//!
//! ```text
//! O:  br label %bb1, !llvm.loop !6        !6 = distinct !{!6, !7}
//! A:  br label %bb1, !llvm.loop !8        !8 = distinct !{!8, !9}   (A added a loop above)
//! key of both lines: "br label %bb1, !llvm.loop !k3f0a..."  -> equal, so no change
//! ```

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::borrow::Cow;
use std::hash::{Hash, Hasher};

use crate::text::{def_name, function_name, rewrite, scan_refs, Ref};
use crate::three::Side;

/// The local names a line refers to, in order.
pub(crate) fn local_refs(line: &str) -> Vec<String> {
    let mut v = Vec::new();
    scan_refs(line, |_, _, r| {
        if let Ref::Local(n) = r {
            v.push(n.to_string());
        }
    });
    v
}

/// The local names a line refers to, in order, borrowed from the line.
pub(crate) fn local_refs_str(line: &str) -> Vec<&str> {
    let mut v = Vec::new();
    scan_refs(line, |_, _, r| {
        if let Ref::Local(n) = r {
            v.push(n);
        }
    });
    v
}

/// The definitions of one function's local values in LLVM's numbering
/// order, as (line, name): its numbered arguments, then block labels and
/// instruction results; `None` for an entry block without a label.
pub(crate) fn local_definitions<'a>(lines: &[&'a str]) -> Vec<(usize, Option<&'a str>)> {
    let mut defs = Vec::new();
    let mut args: Vec<&str> = local_refs_str(lines[0]);
    args.retain(|a| a.bytes().all(|b| b.is_ascii_digit()));
    args.dedup();
    defs.extend(args.into_iter().map(|a| (0, Some(a))));
    let first_body = lines[1..].iter().position(|l| !l.trim().is_empty());
    for (i, line) in lines.iter().enumerate().skip(1) {
        let label = own_label(line);
        if Some(i - 1) == first_body && label.is_none() && *line != "}" {
            defs.push((i, None));
        }
        if let Some(l) = label {
            defs.push((i, Some(l)));
        } else if let Some(d) = crate::text::def_name(line.trim_start()) {
            defs.push((i, Some(d)));
        }
    }
    defs
}

/// A label line's own name (`7:`, `new.3:`), its `; preds = ...` aside.
pub(crate) fn own_label(line: &str) -> Option<&str> {
    let end = line.bytes().position(|c| !crate::text::is_id_byte(c))?;
    (end > 0 && line[end..].starts_with(':')).then_some(&line[..end])
}

/// A label line under another label, its `; preds = ...` at the column
/// LLVM's printer pads it to (50, at least one space after the label).
///
/// ```text
/// 19:                                               ; preds = %2   (new.19)
/// new.19:                                           ; preds = %2
/// ```
pub(crate) fn relabelled(line: &str, label: &str) -> String {
    let rest = own_label(line).map_or(line, |old| &line[old.len() + 1..]);
    match rest.trim_start().strip_prefix("; preds = ") {
        Some(preds) => {
            let pad = 50usize.saturating_sub(label.len() + 1).max(1);
            format!("{label}:{}; preds = {preds}", " ".repeat(pad))
        }
        None => format!("{label}:{rest}"),
    }
}

/// Unclosed `[` in a line, not counting quoted text.
pub(crate) fn bracket_depth(line: &str) -> i32 {
    if !line.as_bytes().contains(&b'[') {
        return 0;
    }
    let mut depth = 0;
    let mut quoted = false;
    for c in line.bytes() {
        match c {
            b'"' => quoted = !quoted,
            b'[' if !quoted => depth += 1,
            b']' if !quoted => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// A basic block: its label and its lines (trimmed, terminator last).
#[derive(Debug, Clone)]
pub struct BlockText {
    pub label: String,
    pub lines: Vec<String>,
}

/// A function definition.
#[derive(Debug, Clone)]
pub struct FuncText {
    pub name: String,
    /// The `define ... {` line without the trailing ` {`.
    pub header: String,
    pub blocks: Vec<BlockText>,
}

impl FuncText {
    /// Block labels plus defined values plus `argN` arguments.
    pub fn locals(&self) -> HashSet<String> {
        self.local_names().into_iter().map(str::to_string).collect()
    }

    /// [`FuncText::locals`], borrowed from the function's text.
    pub(crate) fn local_names(&self) -> HashSet<&str> {
        let mut s: HashSet<&str> = HashSet::default();
        for b in &self.blocks {
            s.insert(&b.label);
            for l in &b.lines {
                if let Some(d) = def_name(l) {
                    s.insert(d);
                }
            }
        }
        for r in local_refs_str(&self.header) {
            if r.starts_with("arg") {
                s.insert(r);
            }
        }
        s
    }
}

/// A parsed canonical module.
#[derive(Debug, Clone, Default)]
pub struct ModuleText {
    /// Module-level lines other than functions, attribute groups and numbered
    /// metadata, keyed by what they define, in file order.
    pub entities: Vec<(String, String)>,
    pub funcs: Vec<FuncText>,
    /// `!N = ...` right-hand sides.
    pub meta: BTreeMap<u32, String>,
    /// `attributes #N = ...` right-hand sides.
    pub attrs: BTreeMap<u32, String>,
}

fn entity_key(line: &str) -> String {
    for prefix in ["source_filename", "target datalayout", "target triple"] {
        if line.starts_with(prefix) {
            return prefix.to_string();
        }
    }
    if line.starts_with("declare ") {
        if let Some(at) = line.find(" @") {
            let rest = &line[at + 1..];
            let end = rest.find('(').unwrap_or(rest.len());
            return rest[..end].to_string();
        }
    }
    if let Some(eq) = line.find(" = ") {
        return line[..eq].to_string();
    }
    line.to_string()
}

/// Parses LLVM's printed form of a module. `name` is for error messages.
pub fn parse(text: &str, name: &str) -> Result<ModuleText, String> {
    let mut m = ModuleText::default();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_end();
        if t.is_empty() || t.starts_with(';') {
            continue;
        }
        if t.starts_with("define ") {
            let header = t
                .strip_suffix('{')
                .ok_or_else(|| format!("{name}: function header without '{{': {t}"))?
                .trim_end()
                .to_string();
            let mut f = FuncText {
                name: function_name(&header).unwrap_or(&header).to_string(),
                header,
                blocks: Vec::new(),
            };
            loop {
                let l = lines
                    .next()
                    .ok_or_else(|| format!("{name}: function {} is not closed", f.name))?;
                let l = l.trim_end();
                if l == "}" {
                    break;
                }
                if l.is_empty() || l.trim_start().starts_with(';') {
                    continue;
                }
                if !l.starts_with(' ') {
                    let label = l.split(';').next().unwrap_or("").trim_end();
                    let label = label
                        .strip_suffix(':')
                        .ok_or_else(|| format!("{name}: unexpected line in {}: {l}", f.name))?;
                    f.blocks.push(BlockText {
                        label: label.to_string(),
                        lines: Vec::new(),
                    });
                } else {
                    let b = f
                        .blocks
                        .last_mut()
                        .ok_or_else(|| format!("{name}: unlabelled entry block in {}", f.name))?;
                    // `switch ... [` prints its cases on the following lines:
                    // keep one instruction per line.
                    match b.lines.last_mut() {
                        Some(prev) if bracket_depth(prev) > 0 => {
                            prev.push(' ');
                            prev.push_str(l.trim_start());
                        }
                        _ => b.lines.push(l.trim_start().to_string()),
                    }
                }
            }
            m.funcs.push(f);
            continue;
        }
        if let Some(rest) = t.strip_prefix("attributes #") {
            let (n, rhs) = rest
                .split_once(" = ")
                .ok_or_else(|| format!("{name}: bad attribute group: {t}"))?;
            m.attrs.insert(
                n.parse()
                    .map_err(|_| format!("{name}: bad attribute group: {t}"))?,
                rhs.to_string(),
            );
            continue;
        }
        if let Some(rest) = t.strip_prefix('!') {
            if rest.starts_with(|c: char| c.is_ascii_digit()) {
                let (n, rhs) = rest
                    .split_once(" = ")
                    .ok_or_else(|| format!("{name}: bad metadata line: {t}"))?;
                m.meta.insert(
                    n.parse()
                        .map_err(|_| format!("{name}: bad metadata line: {t}"))?,
                    rhs.to_string(),
                );
                continue;
            }
        }
        m.entities.push((entity_key(t), t.to_string()));
    }
    Ok(m)
}

/// A line of a function as the comparison sees it: `key` compares across
/// versions, `out` is what prints. Not a printed line's own model (that is
/// [`crate::comments::layout::Line`]: its text, kind and comment), but the
/// pair the matching and the merge carry for each one. A line that needs no
/// rewriting borrows both from the model's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedLine<'a> {
    pub key: Cow<'a, str>,
    pub out: Cow<'a, str>,
}

impl<'a> KeyedLine<'a> {
    /// A line that is its own key and output.
    pub(crate) fn verbatim(text: &'a str) -> KeyedLine<'a> {
        KeyedLine {
            key: Cow::Borrowed(text),
            out: Cow::Borrowed(text),
        }
    }
}

fn hash_str(s: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// The metadata references of a module's lines, in the order the
/// canonical form prints them: globals, functions, then the rest (declarations,
/// named metadata). Twins of equal content are anchored by their first user
/// ([`crate::canon::metadata`]).
fn metadata_uses(m: &ModuleText) -> Vec<crate::canon::metadata::MetaUse<'_>> {
    use crate::canon::metadata::uses_in;
    let mut uses = Vec::new();
    let is_global = |k: &str| k.starts_with('@');
    for (k, line) in m.entities.iter().filter(|(k, _)| is_global(k)) {
        uses_in(line, k, &mut uses);
    }
    for f in &m.funcs {
        uses_in(&f.header, &f.name, &mut uses);
        for b in &f.blocks {
            for l in &b.lines {
                uses_in(l, &f.name, &mut uses);
            }
        }
    }
    for (k, line) in m.entities.iter().filter(|(k, _)| !is_global(k)) {
        uses_in(line, k, &mut uses);
    }
    uses
}

/// Identities of one module's metadata nodes and content keys of its
/// attribute groups.
pub struct SideTables {
    pub side: Side,
    meta_key: HashMap<u32, u64>,
    meta_unique: HashMap<u32, bool>,
    attr_key: HashMap<u32, u64>,
}

impl SideTables {
    /// Metadata keyed by identity ([`crate::canon::metadata`]): what the
    /// merge needs, since it keeps which uses share a distinct node.
    pub fn new(side: Side, m: &ModuleText) -> SideTables {
        Self::with_uses(side, m, &metadata_uses(m))
    }

    /// [`SideTables::new`] for a module whose uses of metadata are known
    /// from elsewhere (an input as written, not its canonical model).
    pub(crate) fn with_uses(
        side: Side,
        m: &ModuleText,
        uses: &[crate::canon::metadata::MetaUse<'_>],
    ) -> SideTables {
        let meta_key = crate::canon::metadata::identities(&m.meta, uses);
        Self::with_meta_keys(side, m, meta_key)
    }

    /// Metadata keyed by content alone, twins conflated: for comparing
    /// function bodies across renames (`irgit diff`), where a loop node
    /// anchored in the old name is still the same loop.
    pub(crate) fn by_content(side: Side, m: &ModuleText) -> SideTables {
        let meta_key = crate::canon::metadata::content_keys(&m.meta);
        Self::with_meta_keys(side, m, meta_key)
    }

    fn with_meta_keys(side: Side, m: &ModuleText, meta_key: HashMap<u32, u64>) -> SideTables {
        let mut count: HashMap<u64, u32> = HashMap::default();
        for k in meta_key.values() {
            *count.entry(*k).or_insert(0) += 1;
        }
        let meta_unique = meta_key.iter().map(|(&n, k)| (n, count[k] == 1)).collect();
        let attr_key = m.attrs.iter().map(|(&n, rhs)| (n, hash_str(rhs))).collect();
        SideTables {
            side,
            meta_key,
            meta_unique,
            attr_key,
        }
    }

    /// The content key of metadata node `!n`, and whether no other node
    /// of the module has the same content.
    pub(crate) fn meta_key(&self, n: u32) -> Option<(u64, bool)> {
        let k = *self.meta_key.get(&n)?;
        Some((k, self.meta_unique.get(&n).copied().unwrap_or(false)))
    }

    /// The content key of attribute group `#n`.
    pub(crate) fn attr_key(&self, n: u32) -> Option<u64> {
        self.attr_key.get(&n).copied()
    }

    /// Reads attribute group `#n` as the group whose content key is `key`:
    /// a group this side edited in place ([`super::attribute_edits`]).
    pub(crate) fn read_attr_as(&mut self, n: u32, key: u64) {
        self.attr_key.insert(n, key);
    }
}

/// Allocates the metadata and attribute numbers of the merged module.
#[derive(Default)]
pub struct Numbering {
    meta: HashMap<(Option<Side>, u64), u32>,
    meta_src: Vec<(Side, u32)>,
    attrs: HashMap<u64, u32>,
    attr_src: Vec<(Side, u32)>,
    /// The group that gives its content to the groups of a content key
    /// (an edit in place, [`Numbering::print_attr_from`]).
    attr_content: HashMap<u64, (Side, u32)>,
}

impl Numbering {
    fn meta_out(&mut self, t: &SideTables, n: u32) -> u32 {
        let id = match t.meta_key.get(&n) {
            Some(&k) if t.meta_unique.get(&n).copied().unwrap_or(false) => (None, k),
            _ => (Some(t.side), n as u64),
        };
        if let Some(&x) = self.meta.get(&id) {
            return x;
        }
        let x = self.meta_src.len() as u32;
        self.meta.insert(id, x);
        self.meta_src.push((t.side, n));
        x
    }

    fn attr_out(&mut self, t: &SideTables, n: u32) -> u32 {
        let k = t.attr_key.get(&n).copied().unwrap_or(n as u64);
        if let Some(&x) = self.attrs.get(&k) {
            return x;
        }
        let x = self.attr_src.len() as u32;
        self.attrs.insert(k, x);
        let source = self.attr_content.get(&k).copied();
        self.attr_src.push(source.unwrap_or((t.side, n)));
        x
    }

    /// Prints the attribute groups of content key `key` with the content of
    /// `side`'s group `#n` (a group that side edited in place).
    pub(crate) fn print_attr_from(&mut self, key: u64, side: Side, n: u32) {
        self.attr_content.insert(key, (side, n));
    }

    /// Builds a [`KeyedLine`] from `text`, renaming locals through `local`
    /// (one pass: key and output differ only in metadata and attributes).
    pub fn line(
        &mut self,
        t: &SideTables,
        text: &str,
        local: &dyn Fn(&str) -> Option<String>,
    ) -> KeyedLine<'static> {
        use std::fmt::Write;
        let mut key = String::with_capacity(text.len() + 16);
        let mut out = String::with_capacity(text.len() + 16);
        let mut copied = 0;
        scan_refs(text, |i, j, r| {
            let gap = &text[copied..i];
            match r {
                Ref::Local(n) => {
                    if let Some(s) = local(n) {
                        for x in [&mut key, &mut out] {
                            x.push_str(gap);
                            x.push('%');
                            x.push_str(&s);
                        }
                        copied = j;
                    }
                }
                Ref::Meta(n) => {
                    key.push_str(gap);
                    out.push_str(gap);
                    match t.meta_key.get(&n) {
                        Some(k) => {
                            let _ = write!(key, "!k{k:x}");
                            let _ = write!(out, "!{}", self.meta_out(t, n));
                        }
                        None => {
                            let _ = write!(key, "!{n}");
                            out.push_str(&text[i..j]);
                        }
                    }
                    copied = j;
                }
                Ref::Attr(n) => {
                    key.push_str(gap);
                    out.push_str(gap);
                    match t.attr_key.get(&n) {
                        Some(k) => {
                            let _ = write!(key, "#k{k:x}");
                            let _ = write!(out, "#{}", self.attr_out(t, n));
                        }
                        None => {
                            let _ = write!(key, "#{n}");
                            out.push_str(&text[i..j]);
                        }
                    }
                    copied = j;
                }
            }
        });
        key.push_str(&text[copied..]);
        out.push_str(&text[copied..]);
        KeyedLine {
            key: Cow::Owned(key),
            out: Cow::Owned(out),
        }
    }

    /// The `attributes #N = ...` and `!N = ...` lines of the merged module.
    pub fn definitions(&mut self, sides: &[(&SideTables, &ModuleText)]) -> Vec<String> {
        let find = |s: Side| sides.iter().find(|(t, _)| t.side == s).copied();
        let mut out = Vec::new();
        let mut k = 0;
        while k < self.attr_src.len() {
            let (s, n) = self.attr_src[k];
            if let Some((_, m)) = find(s) {
                out.push(format!("attributes #{k} = {}", m.attrs[&n]));
            }
            k += 1;
        }
        let mut k = 0;
        while k < self.meta_src.len() {
            let (s, n) = self.meta_src[k];
            if let Some((t, m)) = find(s) {
                let rhs = m.meta[&n].clone();
                let text = rewrite(&rhs, |r| match r {
                    Ref::Meta(x) if t.meta_key.contains_key(&x) => {
                        Some(format!("!{}", self.meta_out(t, x)))
                    }
                    _ => None,
                });
                out.push(format!("!{k} = {text}"));
            }
            k += 1;
        }
        out
    }
}
