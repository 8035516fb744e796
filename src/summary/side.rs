//! One side of a diff: the module's canonical text, parsed into functions
//! whose lines carry *comparison keys*.
//!
//! A key is a canonical line with everything that is a position rather than
//! content replaced: metadata and attribute-group numbers by a hash of what
//! they point to, the function's own name by `@SELF` (so a recursive call
//! survives a rename), and debug-location attachments dropped (one line added
//! to a C file moves the `!dbg` line numbers of every later function).
//! Debug records (`#dbg_value`) are not instructions and are left out;
//! comment lines (`; ...`) too.
//!
//! ```text
//! canonical line                                         key
//! %ld.3c1f = load i32, ptr %arg0, align 4, !tbaa !7      %ld.3c1f = load i32, ptr %arg0, align 4, !tbaa !k9e02..
//! %call.77aa = call i32 @fib(i32 %sub.1d2e) #4, !dbg !31 %call.77aa = call i32 @SELF(i32 %sub.1d2e) #k51c0..
//! ```

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::SummaryError;
use crate::compare::model::{self, FuncText, ModuleText, Numbering, SideTables};
use crate::text::def_name;

use crate::compare::rename::replace_globals;

/// One side, parsed and keyed.
pub struct Side {
    /// How the input is named in messages and headers.
    pub label: String,
    /// The canonical text (empty for a missing side, e.g. an added file).
    /// Functions found unchanged before canonicalization are declarations
    /// in it (see [`super::diff_bytes`]).
    pub text: String,
    pub module: ModuleText,
    /// One per `module.funcs`, same order.
    pub funcs: Vec<FuncKeys>,
    /// Function name (`@f`) -> index in `funcs`.
    pub index: HashMap<String, usize>,
    /// Functions found unchanged before canonicalization (left out of it).
    pub unchanged: Vec<Unchanged>,
    /// The input text and the names of `unchanged`: where moved code may
    /// have been copied from ([`Side::unchanged_sources`]).
    pub unchanged_input: Option<(String, HashSet<String>)>,
    /// Attribute groups (by content) the instructions of `unchanged` use.
    pub unchanged_attributes: BTreeSet<String>,
    /// The input as written and its names of the canonical locals, when
    /// asked for ([`super::Options::keep_written`]).
    pub written: Option<Written>,
    tables: SideTables,
}

/// A side's input text (bitcode: as LLVM prints it) and where the
/// canonical names came from.
pub struct Written {
    pub text: String,
    pub names: crate::canon::source_map::SourceNames,
}

/// A function left out of the canonicalization because it is the same on
/// both sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unchanged {
    pub name: String,
    pub instructions: usize,
    pub blocks: usize,
}

/// A function's comparison form.
#[derive(Debug, Clone)]
pub struct FuncKeys {
    /// `@name` as printed.
    pub name: String,
    /// The function type (`i32 (ptr, i32)`).
    pub fn_type: String,
    /// Key of the `define` line.
    pub header: String,
    pub blocks: Vec<BlockKeys>,
    /// 1-based lines of the `define` line and of the closing `}` in the text.
    pub first_line: usize,
    pub last_line: usize,
}

/// A block's label and its instructions' keys.
#[derive(Debug, Clone)]
pub struct BlockKeys {
    pub label: String,
    pub insts: Vec<String>,
    /// The line each instruction starts on, counting the function's
    /// `define` line as 1.
    pub lines: Vec<usize>,
}

impl FuncKeys {
    /// Number of instructions (debug records excluded).
    pub fn instruction_count(&self) -> usize {
        self.blocks.iter().map(|b| b.insts.len()).sum()
    }

    /// Whether two functions have equal keys everywhere.
    pub(crate) fn same_as(&self, other: &FuncKeys) -> bool {
        self.header == other.header
            && self.blocks.len() == other.blocks.len()
            && self
                .blocks
                .iter()
                .zip(&other.blocks)
                .all(|(a, b)| a.label == b.label && a.insts == b.insts)
    }

    /// The names the function defines: block labels, values, arguments
    /// (of any name: input text has `%0`, `%x`, not only `%arg0`).
    pub fn locals(&self) -> HashSet<String> {
        let labels = self.blocks.iter().map(|b| b.label.as_str());
        let values = self
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter_map(|l| crate::text::def_name(l));
        labels
            .chain(values)
            .chain(parameter_names(&self.header))
            .map(str::to_string)
            .collect()
    }
}

/// A module's text parsed and its functions keyed.
struct Keyed {
    module: ModuleText,
    tables: SideTables,
    funcs: Vec<FuncKeys>,
}

/// Parses canonical `text` and keys its function definitions; `types` are
/// their types in text order.
fn key_text(text: &str, label: &str, types: Vec<String>) -> Result<Keyed, String> {
    let module = model::parse(text, label)?;
    if types.len() != module.funcs.len() {
        return Err(format!(
            "{label}: {} function types for {} definitions",
            types.len(),
            module.funcs.len()
        ));
    }
    let tables = comparison_tables(&module.meta, &module.attrs);
    let spans = function_spans(text);
    let raw: Vec<&str> = text.lines().collect();
    let mut numbering = Numbering::default();
    let mut funcs = Vec::with_capacity(module.funcs.len());
    for (k, (f, ty)) in module.funcs.iter().zip(types).enumerate() {
        let (first, last) = spans.get(k).copied().unwrap_or((0, 0));
        let line_numbers = if first > 0 {
            instruction_lines(&raw[first - 1..last], f)
        } else {
            Vec::new()
        };
        let own = own_name_map(&f.name);
        let mut key = |l: &str| line_key(l, &tables, &mut numbering, &own);
        let header = key(&f.header);
        let mut blocks = Vec::with_capacity(f.blocks.len());
        for (bi, b) in f.blocks.iter().enumerate() {
            let line_of = line_numbers.get(bi);
            let mut insts = Vec::with_capacity(b.lines.len());
            let mut lines = Vec::with_capacity(b.lines.len());
            for (li, l) in b.lines.iter().enumerate() {
                if is_debug_record(l) {
                    continue;
                }
                insts.push(key(l));
                lines.push(line_of.and_then(|v| v.get(li)).copied().unwrap_or(0));
            }
            blocks.push(BlockKeys {
                label: b.label.clone(),
                insts,
                lines,
            });
        }
        funcs.push(FuncKeys {
            name: f.name.clone(),
            fn_type: ty,
            header,
            blocks,
            first_line: first,
            last_line: last,
        });
    }
    Ok(Keyed {
        module,
        tables,
        funcs,
    })
}

/// Whether a metadata node's right-hand side is debug info
/// (`!DILocation(...)`, `distinct !DISubprogram(...)`...).
fn is_debug_info(rhs: &str) -> bool {
    rhs.trim_start_matches("distinct ").starts_with("!DI")
}

/// The content keys lines are compared by. Debug info is not content: every
/// debug-info node reads the same (a source line inserted above moves every
/// `!DILocation` below it; an edit changes the `DIFile` checksum all of them
/// reach), and a tuple's operands that are debug-info nodes are left out
/// (a loop's `!llvm.loop` lists its source locations).
///
/// ```text
/// !7 = distinct !{!7, !8, !9, !10}   !8 = !DILocation(line: 3, ...)   !10 = !{!"llvm.loop.mustprogress"}
/// key of !7: distinct !{!self, !k<key of !10>}
/// ```
fn comparison_tables(meta: &BTreeMap<u32, String>, attrs: &BTreeMap<u32, String>) -> SideTables {
    let debug: HashSet<u32> = meta
        .iter()
        .filter(|(_, rhs)| is_debug_info(rhs))
        .map(|(&n, _)| n)
        .collect();
    let blind = ModuleText {
        meta: meta
            .iter()
            .map(|(&n, rhs)| {
                let rhs = if debug.contains(&n) {
                    "!DI".to_string()
                } else if debug.is_empty() {
                    rhs.clone()
                } else {
                    without_debug_operands(rhs, &debug)
                };
                (n, rhs)
            })
            .collect(),
        attrs: attrs.clone(),
        ..ModuleText::default()
    };
    SideTables::by_content(crate::three::Side::Base, &blind)
}

/// A tuple (`!{...}`, `distinct !{...}`) without its operands that name
/// nodes of `debug`; any other node as it is.
fn without_debug_operands(rhs: &str, debug: &HashSet<u32>) -> String {
    let Some(open) = rhs.find("!{") else {
        return rhs.to_string();
    };
    let Some(inner) = rhs[open + 2..].strip_suffix('}') else {
        return rhs.to_string();
    };
    let names_debug = |item: &str| {
        item.strip_prefix('!')
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| debug.contains(&n))
    };
    let kept: Vec<&str> = inner
        .split(", ")
        .filter(|item| !names_debug(item.trim()))
        .collect();
    format!("{}!{{{}}}", &rhs[..open], kept.join(", "))
}

/// A function of an input, fingerprinted before any canonicalization.
#[derive(Debug, Clone)]
pub(crate) struct Fingerprint {
    /// Hash of the function's text under a value numbering of its locals,
    /// metadata and attribute numbers read as their content, private
    /// globals as their content, `!dbg` locations, debug records and
    /// comments left out.
    pub hash: u64,
    /// Contents of the attribute groups its instructions name.
    pub attributes: BTreeSet<String>,
}

/// The names of the parameters in a `define` line: the last word of each
/// top-level comma-separated item of the parameter list, when it is a
/// `%name`.
fn parameter_names(header: &str) -> impl Iterator<Item = &str> {
    let open = header
        .find("@")
        .and_then(|at| header[at..].find('(').map(|p| at + p + 1));
    let mut items = Vec::new();
    if let Some(start) = open {
        let mut depth = 0;
        let mut quoted = false;
        let mut item = start;
        for (i, c) in header[start..].char_indices() {
            let i = start + i;
            match c {
                '"' => quoted = !quoted,
                _ if quoted => {}
                '(' | '{' | '[' | '<' => depth += 1,
                ')' if depth == 0 => {
                    items.push(&header[item..i]);
                    break;
                }
                ')' | '}' | ']' | '>' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&header[item..i]);
                    item = i + 1;
                }
                _ => {}
            }
        }
    }
    items
        .into_iter()
        .filter_map(|p| p.split_whitespace().last())
        .filter_map(|w| w.strip_prefix('%'))
}

/// Fingerprints every function definition of an input text in one pass
/// (text order), without building keyed lines: equal fingerprints mean
/// equal functions up to the names of their locals. `None` if the text is
/// not laid out as LLVM prints modules.
pub(crate) fn fingerprints(text: &str, types: &[String]) -> Option<Vec<Fingerprint>> {
    let lines: Vec<&str> = text.lines().collect();
    let scan = ModuleScan::read(&lines)?;
    if scan.spans.len() != types.len() {
        return None;
    }
    let mut keys = RefKeys {
        tables: comparison_tables(&scan.shell.meta, &scan.shell.attrs),
        numbering: Numbering::default(),
        memo: HashMap::default(),
    };
    let content_id = private_content_ids(&scan.privates, &mut keys);
    let mut hasher = FunctionHasher {
        scan: &scan,
        keys,
        content_id,
        own: "",
        serial: HashMap::default(),
        attributes: BTreeSet::new(),
        h: rustc_hash::FxHasher::default(),
    };
    let fingerprints = scan
        .spans
        .iter()
        .zip(types)
        .map(|(&(start, end), ty)| hasher.function(&lines[start..end.min(lines.len())], ty))
        .collect();
    Some(fingerprints)
}

/// What [`fingerprints`] reads at module level, in one pass.
struct ModuleScan<'t> {
    /// Metadata and attribute groups.
    shell: ModuleText,
    named_types: HashSet<&'t str>,
    /// `(@name, right-hand side)` of private globals.
    privates: Vec<(&'t str, &'t str)>,
    /// Line ranges of function definitions (`define` to `}`).
    spans: Vec<(usize, usize)>,
}

impl<'t> ModuleScan<'t> {
    /// `None` if a metadata or attribute-group line is not as LLVM prints it.
    fn read(lines: &[&'t str]) -> Option<Self> {
        let mut scan = ModuleScan {
            shell: ModuleText::default(),
            named_types: HashSet::default(),
            privates: Vec::new(),
            spans: Vec::new(),
        };
        let mut i = 0;
        while i < lines.len() {
            let l = lines[i];
            if l.starts_with("define ") {
                let start = i;
                while i < lines.len() && lines[i] != "}" {
                    i += 1;
                }
                scan.spans.push((start, i));
            } else if let Some(rest) = l.strip_prefix("attributes #") {
                let (n, rhs) = rest.split_once(" = ")?;
                scan.shell.attrs.insert(n.parse().ok()?, rhs.to_string());
            } else if l.starts_with('!') && l[1..].starts_with(|c: char| c.is_ascii_digit()) {
                let (n, rhs) = l[1..].split_once(" = ")?;
                scan.shell.meta.insert(n.parse().ok()?, rhs.to_string());
            } else if let Some((name, _)) =
                l.strip_prefix('%').and_then(|t| t.split_once(" = type "))
            {
                scan.named_types.insert(name);
            } else if let Some((name, rhs)) = l.split_once(" = ").filter(|_| l.starts_with('@')) {
                if rhs.starts_with("private ") {
                    scan.privates.push((name, rhs));
                }
            }
            i += 1;
        }
        Some(scan)
    }
}

/// Content keys of `!N` / `#N` references, computed once each.
struct RefKeys {
    tables: SideTables,
    numbering: Numbering,
    memo: HashMap<String, String>,
}

impl RefKeys {
    fn key(&mut self, r: &str) -> &str {
        let (tables, numbering) = (&self.tables, &mut self.numbering);
        self.memo
            .entry(r.to_string())
            .or_insert_with(|| numbering.line(tables, r, &|_| None).key.into_owned())
    }
}

/// Private globals by content (`@.str.3` and `@.str.7` with the same bytes
/// are one string); a content two globals share keeps their names.
fn private_content_ids<'t>(
    privates: &[(&'t str, &str)],
    keys: &mut RefKeys,
) -> HashMap<&'t str, u64> {
    let mut by_content: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (name, rhs) in privates {
        let rhs = strip_debug_location(rhs);
        let content = crate::text::rewrite_with(&rhs, |r, out| match r {
            crate::text::Ref::Meta(n) => {
                out.push_str(keys.key(&format!("!{n}")));
                true
            }
            _ => false,
        });
        let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
        let stem = stem.strip_suffix('.').unwrap_or(stem);
        by_content
            .entry(format!("{stem}\u{1}{content}"))
            .or_default()
            .push(name);
    }
    by_content
        .iter()
        .filter(|(_, v)| v.len() == 1)
        .map(|(k, v)| (v[0], crate::hash::hash_str(k)))
        .collect()
}

/// Hashes one function's lines: locals by first appearance, `!N`/`#N` by
/// content, its own name as `@SELF`, private globals by content.
struct FunctionHasher<'s, 't> {
    scan: &'s ModuleScan<'t>,
    keys: RefKeys,
    content_id: HashMap<&'t str, u64>,
    /// The function's own name (`@f`).
    own: &'s str,
    /// Hash of a local's name -> its number in order of appearance.
    serial: HashMap<u64, u64>,
    attributes: BTreeSet<String>,
    h: rustc_hash::FxHasher,
}

impl<'s, 't> FunctionHasher<'s, 't> {
    fn function(&mut self, lines: &[&'s str], ty: &str) -> Fingerprint {
        use std::hash::Hasher;
        self.own = lines
            .first()
            .and_then(|l| crate::text::function_name(l))
            .unwrap_or("");
        self.h = rustc_hash::FxHasher::default();
        self.h.write(ty.as_bytes());
        self.serial.clear();
        for (k, raw) in lines.iter().enumerate() {
            let line = strip_comment(raw.trim_start());
            if line.is_empty() || is_debug_record(line) {
                continue;
            }
            self.line(&strip_debug_location(line), k == 0);
        }
        Fingerprint {
            hash: self.h.finish(),
            attributes: std::mem::take(&mut self.attributes),
        }
    }

    /// Hashes the text between references as is and each reference by
    /// [`FunctionHasher::reference`]; quoted strings are text.
    fn line(&mut self, line: &str, header: bool) {
        use std::hash::Hasher;
        let b = line.as_bytes();
        let (mut j, mut copied, mut quoted) = (0, 0, false);
        while j < b.len() {
            let c = b[j];
            if c == b'"' {
                quoted = !quoted;
            }
            if quoted || !matches!(c, b'%' | b'!' | b'#' | b'@') || j + 1 >= b.len() {
                j += 1;
                continue;
            }
            let end = token_end(b, j + 1);
            if end == j + 1 {
                j += 1;
                continue;
            }
            self.h.write(&b[copied..j]);
            self.reference(&line[j..end], header);
            copied = end;
            j = end;
        }
        self.h.write(&b[copied..]);
        self.h.write_u8(b'\n');
    }

    fn reference(&mut self, tok: &str, header: bool) {
        use std::hash::Hasher;
        let (sigil, name) = (tok.as_bytes()[0], &tok[1..]);
        let numbered = name.as_bytes()[0].is_ascii_digit();
        match sigil {
            b'%' if !self.scan.named_types.contains(name) => {
                let next = self.serial.len() as u64;
                let mut th = rustc_hash::FxHasher::default();
                th.write(tok.as_bytes());
                let id = *self.serial.entry(th.finish()).or_insert(next);
                self.h.write_u64(id ^ 0x5eed);
            }
            b'!' | b'#' if numbered => {
                if sigil == b'#' && !header {
                    let group = name.parse::<u32>().ok();
                    if let Some(text) = group.and_then(|n| self.scan.shell.attrs.get(&n)) {
                        self.attributes.insert(text.clone());
                    }
                }
                self.h.write(self.keys.key(tok).as_bytes());
            }
            b'@' if tok == self.own => self.h.write(b"@SELF"),
            b'@' => match self.content_id.get(tok) {
                Some(id) => self.h.write_u64(*id),
                None => self.h.write(tok.as_bytes()),
            },
            _ => self.h.write(tok.as_bytes()),
        }
    }
}

/// The end of the name starting at `start` (after its sigil): a quoted
/// name up to its closing quote, else the run of name bytes.
fn token_end(b: &[u8], start: usize) -> usize {
    if b[start] != b'"' {
        let len = b[start..]
            .iter()
            .take_while(|&&c| crate::text::is_id_byte(c))
            .count();
        return start + len;
    }
    let close = b[start + 1..].iter().position(|&c| c == b'"');
    close.map_or(b.len(), |p| start + 1 + p + 1)
}

impl Side {
    /// A side with nothing in it (git's `/dev/null`).
    pub fn empty(label: &str) -> Side {
        let module = ModuleText::default();
        let tables = SideTables::by_content(crate::three::Side::Base, &module);
        Side {
            label: label.to_string(),
            text: String::new(),
            module,
            funcs: Vec::new(),
            index: HashMap::default(),
            unchanged: Vec::new(),
            unchanged_input: None,
            unchanged_attributes: BTreeSet::new(),
            written: None,
            tables,
        }
    }

    /// Builds a side from canonical text and the types of its definitions
    /// (in text order).
    pub(crate) fn from_canonical(
        text: String,
        types: Vec<String>,
        label: &str,
    ) -> Result<Side, SummaryError> {
        let k = key_text(&text, label, types).map_err(SummaryError::Internal)?;
        let index = k
            .funcs
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.clone(), i))
            .collect();
        Ok(Side {
            label: label.to_string(),
            text,
            module: k.module,
            funcs: k.funcs,
            index,
            unchanged: Vec::new(),
            unchanged_input: None,
            unchanged_attributes: BTreeSet::new(),
            written: None,
            tables: k.tables,
        })
    }

    /// The key of any line of this side (module-level lines, or raw lines of
    /// function `own` for `-p`).
    pub fn key(&self, line: &str, own: Option<&str>) -> String {
        let own = own.map(own_name_map).unwrap_or_default();
        line_key(line, &self.tables, &mut Numbering::default(), &own)
    }

    /// The functions left out of the canonicalization, canonicalized now
    /// (the input parsed again, every other function stripped): where
    /// moved code may have been copied from. Empty if that fails.
    pub(crate) fn unchanged_sources(&self) -> Vec<FuncKeys> {
        let Some((text, names)) = &self.unchanged_input else {
            return Vec::new();
        };
        let session = crate::ir::Session::new();
        let Ok(module) = session.parse(text.as_bytes(), &self.label) else {
            return Vec::new();
        };
        let defs = crate::ir::summary::definitions(&module);
        let strip: Vec<bool> = defs
            .iter()
            .map(|d| d.strippable && !names.contains(&d.name))
            .collect();
        crate::ir::summary::strip_bodies(&module, &strip);
        let opts = crate::config::CanonOptions::default();
        let Ok(canonical) = crate::canon::canonical_text(&module, &[], &self.label, &opts) else {
            return Vec::new();
        };
        let types = crate::ir::summary::definition_types(&module);
        key_text(&canonical, &self.label, types)
            .map(|k| {
                k.funcs
                    .into_iter()
                    .filter(|f| names.contains(&f.name))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether a global name is declared (not defined) here.
    pub fn declares(&self, name: &str) -> bool {
        self.module
            .entities
            .iter()
            .any(|(k, l)| k == name && l.starts_with("declare "))
    }

    /// The text of attribute group `#n` (`{ nounwind }`).
    pub(crate) fn attribute_group(&self, n: u32) -> Option<&str> {
        self.module.attrs.get(&n).map(|s| s.as_str())
    }
}

fn own_name_map(name: &str) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    m.insert(name.to_string(), "@SELF".to_string());
    m
}

/// An instruction line without the `%name = ` it defines.
pub(crate) fn instruction_body(line: &str) -> &str {
    def_name(line).map_or(line, |d| &line[d.len() + 4..])
}

/// `#dbg_value(...)`, `#dbg_declare(...)`: debug records, not instructions.
pub(crate) fn is_debug_record(line: &str) -> bool {
    line.starts_with("#dbg_")
}

/// The comparison key of one line.
fn line_key(
    line: &str,
    tables: &SideTables,
    numbering: &mut Numbering,
    globals: &BTreeMap<String, String>,
) -> String {
    let line = strip_comment(line);
    let line = strip_debug_location(line);
    let key = numbering.line(tables, &line, &|_| None).key.into_owned();
    if key.contains('@') && !globals.is_empty() {
        replace_globals(&key, globals)
    } else {
        key
    }
}

/// The line without a trailing `; comment` (outside quoted strings).
pub(crate) fn strip_comment(line: &str) -> &str {
    crate::comments::layout::comment_start(line).map_or(line, |at| line[..at].trim_end())
}

/// The line without its `!dbg !N` attachment (and the `, ` before it).
fn strip_debug_location(line: &str) -> std::borrow::Cow<'_, str> {
    const TAG: &str = "!dbg !";
    let Some(at) = line.find(TAG) else {
        return line.into();
    };
    let end = at
        + TAG.len()
        + line[at + TAG.len()..]
            .bytes()
            .take_while(|b| b.is_ascii_digit())
            .count();
    let start = if line[..at].ends_with(", ") {
        at - 2
    } else if line[..at].ends_with(' ') {
        at - 1
    } else {
        at
    };
    let mut out = String::with_capacity(line.len());
    out.push_str(&line[..start]);
    out.push_str(&line[end..]);
    out.into()
}

/// Where each function sits in a text: (line of `define`, line of `}`),
/// 1-based, in text order.
fn function_spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open = None;
    for (i, l) in text.lines().enumerate() {
        if l.starts_with("define ") {
            open = Some(i + 1);
        } else if l.trim_end() == "}" {
            if let Some(first) = open.take() {
                out.push((first, i + 1));
            }
        }
    }
    out
}

/// The line each instruction of `f` starts on, counting `define` as 1,
/// found by walking the raw lines of its span alongside the model's lines
/// (which join a `switch` and its case lines into one).
fn instruction_lines(raw: &[&str], f: &FuncText) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = f
        .blocks
        .iter()
        .map(|b| Vec::with_capacity(b.lines.len()))
        .collect();
    let mut r = 1; // raw[0] is the `define` line
    let is_code = |l: &str| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with(';') && l.starts_with(' ')
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        for line in &b.lines {
            while r < raw.len() && !is_code(raw[r]) {
                r += 1;
            }
            if r >= raw.len() {
                return out;
            }
            out[bi].push(r + 1);
            let mut len = raw[r].trim().len();
            r += 1;
            while len < line.len() && r < raw.len() {
                len += 1 + raw[r].trim().len();
                r += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_locations_and_comments_are_not_content() {
        assert_eq!(
            strip_debug_location("%a = add i32 %b, 1, !dbg !12"),
            "%a = add i32 %b, 1"
        );
        assert_eq!(
            strip_debug_location("define i32 @f(i32 %arg0) #0 !dbg !7"),
            "define i32 @f(i32 %arg0) #0"
        );
        assert_eq!(strip_comment("br label %x ; go"), "br label %x");
        assert_eq!(
            strip_comment("call void @p(ptr @\";\")"),
            "call void @p(ptr @\";\")"
        );
    }

    #[test]
    fn debug_info_operands_leave_tuples() {
        let debug: HashSet<u32> = [8, 9].into_iter().collect();
        assert_eq!(
            without_debug_operands("distinct !{!7, !8, !9, !10}", &debug),
            "distinct !{!7, !10}"
        );
        assert_eq!(
            without_debug_operands("!{!\"a, !8\", i32 1}", &debug),
            "!{!\"a, !8\", i32 1}"
        );
        assert!(is_debug_info("distinct !DISubprogram(name: \"f\")"));
        assert!(!is_debug_info("!{!\"llvm.loop.mustprogress\"}"));
    }

    #[test]
    fn parameters_of_any_name() {
        let h = "define i32 @f(ptr noundef byval(%struct.S) %0, { i32, i64 } %x, i32 %arg2) #0";
        assert_eq!(
            parameter_names(h).collect::<Vec<_>>(),
            vec!["0", "x", "arg2"]
        );
        assert_eq!(parameter_names("define void @g()").count(), 0);
        assert_eq!(parameter_names("define void @h(i32, ...)").count(), 0);
    }

    #[test]
    fn switch_cases_are_one_instruction() {
        let text = "define void @f(i32 %arg0) {\nentry:\n  switch i32 %arg0, label %a [\n    i32 1, label %b\n  ]\n\na:  ; preds = %entry\n  ; note\n  ret void\n\nb:\n  ret void\n}\n";
        assert_eq!(function_spans(text), vec![(1, 13)]);
        let m = model::parse(text, "t").unwrap();
        let raw: Vec<&str> = text.lines().collect();
        assert_eq!(
            instruction_lines(&raw, &m.funcs[0]),
            vec![vec![3], vec![9], vec![12]]
        );
    }
}
