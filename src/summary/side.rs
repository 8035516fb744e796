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

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::SummaryError;
use crate::config::CanonOptions;
use crate::ir::Session;
use crate::merge::model::{self, FuncText, ModuleText, Numbering, SideTables};
use crate::merge::rename::replace_globals;

/// One side, parsed and keyed.
pub struct Side {
    /// How the input is named in messages and headers.
    pub label: String,
    /// The canonical text (empty for a missing side, e.g. an added file).
    pub text: String,
    pub module: ModuleText,
    /// One per `module.funcs`, same order.
    pub funcs: Vec<FuncKeys>,
    /// Function name (`@f`) -> index in `funcs`.
    pub index: HashMap<String, usize>,
    tables: SideTables,
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
    /// The 1-based text line each instruction starts on.
    pub lines: Vec<usize>,
}

impl FuncKeys {
    /// Number of instructions (debug records excluded).
    pub fn instruction_count(&self) -> usize {
        self.blocks.iter().map(|b| b.insts.len()).sum()
    }

    /// The merge model's view of the keys, for [`crate::merge::matching`].
    pub fn as_functext(&self) -> FuncText {
        FuncText {
            name: self.name.clone(),
            header: self.header.clone(),
            blocks: self
                .blocks
                .iter()
                .map(|b| model::BlockText {
                    label: b.label.clone(),
                    lines: b.insts.clone(),
                })
                .collect(),
        }
    }

    /// Whether two functions have equal keys everywhere.
    pub fn same_as(&self, other: &FuncKeys) -> bool {
        self.header == other.header
            && self.blocks.len() == other.blocks.len()
            && self
                .blocks
                .iter()
                .zip(&other.blocks)
                .all(|(a, b)| a.label == b.label && a.insts == b.insts)
    }

    /// The names the function defines: block labels, values, arguments.
    pub fn locals(&self) -> HashSet<String> {
        self.as_functext().locals()
    }
}

impl Side {
    /// A side with nothing in it (git's `/dev/null`).
    pub fn empty(label: &str) -> Side {
        let module = ModuleText::default();
        let tables = SideTables::new(model::Side::Base, &module);
        Side {
            label: label.to_string(),
            text: String::new(),
            module,
            funcs: Vec::new(),
            index: HashMap::default(),
            tables,
        }
    }

    /// Parses, verifies and canonicalizes `bytes` (text or bitcode), then
    /// keys every function.
    pub fn load(bytes: &[u8], label: &str) -> Result<Side, SummaryError> {
        let session = Session::new();
        let module = crate::canon::parse_verified(&session, bytes, label)?;
        let text = crate::canon::canonical_text(&module, label, &CanonOptions::default())?;
        let types = crate::ir::summary::definition_types(&module);
        drop(module);
        drop(session);
        Side::from_canonical(text, types, label)
    }

    /// Builds a side from canonical text and the types of its definitions
    /// (in text order).
    pub fn from_canonical(
        text: String,
        types: Vec<String>,
        label: &str,
    ) -> Result<Side, SummaryError> {
        let module = model::parse(&text, label).map_err(SummaryError::Internal)?;
        if types.len() != module.funcs.len() {
            return Err(SummaryError::Internal(format!(
                "{label}: {} function types for {} definitions",
                types.len(),
                module.funcs.len()
            )));
        }
        let tables = SideTables::new(model::Side::Base, &module);
        let places = locate(&text);
        let mut numbering = Numbering::default();
        let mut funcs = Vec::with_capacity(module.funcs.len());
        for (k, (f, ty)) in module.funcs.iter().zip(types).enumerate() {
            let place = places.get(k);
            let own = own_name_map(&f.name);
            let mut key = |l: &str| line_key(l, &tables, &mut numbering, &own);
            let header = key(&f.header);
            let mut blocks = Vec::with_capacity(f.blocks.len());
            for (bi, b) in f.blocks.iter().enumerate() {
                let line_of = place.and_then(|p| p.lines.get(bi));
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
                first_line: place.map_or(0, |p| p.first),
                last_line: place.map_or(0, |p| p.last),
            });
        }
        let index = funcs
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.clone(), i))
            .collect();
        Ok(Side {
            label: label.to_string(),
            text,
            module,
            funcs,
            index,
            tables,
        })
    }

    /// The key of any line of this side (module-level lines, or raw lines of
    /// function `own` for `-p`).
    pub fn key(&self, line: &str, own: Option<&str>) -> String {
        let own = own.map(own_name_map).unwrap_or_default();
        line_key(line, &self.tables, &mut Numbering::default(), &own)
    }

    /// Whether a global name is declared (not defined) here.
    pub fn declares(&self, name: &str) -> bool {
        self.module
            .entities
            .iter()
            .any(|(k, l)| k == name && l.starts_with("declare "))
    }

    /// The text of attribute group `#n` (`{ nounwind }`).
    pub fn attribute_group(&self, n: u32) -> Option<&str> {
        self.module.attrs.get(&n).map(|s| s.as_str())
    }
}

fn own_name_map(name: &str) -> std::collections::BTreeMap<String, String> {
    let mut m = std::collections::BTreeMap::new();
    m.insert(name.to_string(), "@SELF".to_string());
    m
}

/// `#dbg_value(...)`, `#dbg_declare(...)`: debug records, not instructions.
pub fn is_debug_record(line: &str) -> bool {
    line.starts_with("#dbg_")
}

/// The comparison key of one line.
fn line_key(
    line: &str,
    tables: &SideTables,
    numbering: &mut Numbering,
    own: &std::collections::BTreeMap<String, String>,
) -> String {
    let line = strip_comment(line);
    let line = strip_debug_location(line);
    let key = numbering.line(tables, &line, &|_| None).key;
    match own.keys().next() {
        Some(name) if key.contains(name.as_str()) => replace_globals(&key, own),
        _ => key,
    }
}

/// The line without a trailing `; comment` (outside quoted strings).
pub fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => return line[..i].trim_end(),
            _ => {}
        }
    }
    line
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

/// Where a function sits in the canonical text.
struct Place {
    first: usize,
    last: usize,
    /// Per block, the line each instruction (as the merge model joins them)
    /// starts on.
    lines: Vec<Vec<usize>>,
}

/// Unclosed `[` in a line, outside quoted text.
fn open_brackets(line: &str) -> i32 {
    let mut depth = 0;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            '[' if !quoted => depth += 1,
            ']' if !quoted => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// Line numbers of every function definition and instruction, grouped as
/// [`model::parse`] groups them (a `switch` and its case lines are one
/// instruction; blank and comment lines are skipped).
fn locate(text: &str) -> Vec<Place> {
    let mut out = Vec::new();
    let mut cur: Option<Place> = None;
    let mut depth = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let l = raw.trim_end();
        match cur.as_mut() {
            None => {
                if l.starts_with("define ") {
                    cur = Some(Place {
                        first: n,
                        last: n,
                        lines: Vec::new(),
                    });
                    depth = 0;
                }
            }
            Some(p) => {
                if l == "}" {
                    p.last = n;
                    out.extend(cur.take());
                } else if l.is_empty() || l.trim_start().starts_with(';') {
                } else if !l.starts_with(' ') {
                    p.lines.push(Vec::new());
                } else if depth > 0 {
                    depth += open_brackets(l);
                } else if let Some(b) = p.lines.last_mut() {
                    b.push(n);
                    depth = open_brackets(l).max(0);
                }
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
    fn switch_cases_are_one_instruction() {
        let text = "define void @f(i32 %arg0) {\nentry:\n  switch i32 %arg0, label %a [\n    i32 1, label %b\n  ]\n\na:  ; preds = %entry\n  ; note\n  ret void\n\nb:\n  ret void\n}\n";
        let p = locate(text);
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].first, p[0].last), (1, 13));
        assert_eq!(p[0].lines, vec![vec![3], vec![9], vec![12]]);
    }
}
