//! `irgit diff --html`: one self-contained page that draws the old and the
//! new control-flow graph of every function `irgit diff` reports changed,
//! added, removed or renamed, side by side, blocks coloured by what the
//! matched diff says happened to them.
//!
//! ```text
//! old.ll                                 new.ll
//! define i32 @f(i1 %c) {                 define i32 @f(i1 %c) {
//!   br i1 %c, label %a, label %b           br i1 %c, label %a, label %b
//! a: ret i32 1                           a: ret i32 2                 a: changed (yellow)
//! b: ret i32 0                           b: br label %x               b: changed
//!                                        x: ret i32 0                 x: added (green)
//!
//! $ irgit diff --html old.ll new.ll > page.html
//!   page: list of changed functions; per function two SVGs with the same
//!   layout where blocks match; a click on a block shows its lines, its
//!   change in the old file's names and the comments written there
//! ```
//!
//! Stages: [`cfg`] (the union graph of both versions and each block's
//! status), [`written`] (the blocks as the user wrote them, their change in
//! the user's names, their comments), [`layout`] (the layered drawing,
//! computed once for the union graph so both sides agree), [`page`] (HTML,
//! SVG, the inline CSS and JS).

pub(crate) mod cfg;
pub(crate) mod layout;
pub(crate) mod page;
pub(crate) mod written;

use rustc_hash::FxHashMap as HashMap;

use super::side::{FuncKeys, Side, Written};
use super::{FunctionReport, Report, Status};
use cfg::{BlockStatus, Cfg};
use written::{ChangeLine, Definitions, Translation, WrittenBlock};

/// Height of a drawn block, and the width of one character of its label.
pub(crate) const BLOCK_HEIGHT: f64 = 22.0;
pub(crate) const CHAR_WIDTH: f64 = 7.2;

/// What the page shows of one block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BlockView {
    pub status: BlockStatus,
    /// The label each side writes (`%7`, `%for.body`).
    pub old_label: Option<String>,
    pub new_label: Option<String>,
    pub old_lines: Vec<String>,
    pub new_lines: Vec<String>,
    /// The change, the new lines in the old file's names.
    pub change: Vec<ChangeLine>,
    pub comments: Vec<String>,
}

/// One drawn function.
pub(crate) struct Picture<'r> {
    pub report: &'r FunctionReport,
    pub blocks: Vec<BlockView>,
    /// The edges of both sides once each: (from, to, in old, in new).
    pub edges: Vec<(usize, usize, bool, bool)>,
    pub layout: layout::Layout,
}

/// The page of a comparison (`old` and `new` loaded with
/// [`super::Options::keep_written`]; without it, blocks show canonical text).
pub(crate) fn page(report: &Report, old: &Side, new: &Side) -> String {
    let drawn: Vec<&FunctionReport> = report
        .functions
        .iter()
        .filter(|f| f.status != Status::Unchanged)
        .collect();
    let old_defs = old.written.as_ref().map(|w| Definitions::new(&w.text));
    let new_defs = new.written.as_ref().map(|w| Definitions::new(&w.text));
    let pictures: Vec<Picture> = drawn
        .into_iter()
        .map(|f| {
            let sides = FunctionSides {
                old: f
                    .old_index
                    .map(|i| (&old.funcs[i], old.written.as_ref(), old_defs.as_ref())),
                new: f
                    .new_index
                    .map(|i| (&new.funcs[i], new.written.as_ref(), new_defs.as_ref())),
            };
            picture(f, &sides)
        })
        .collect();
    page::write(report, &pictures)
}

/// One function's two versions: keys, the input and its definitions.
struct FunctionSides<'a> {
    old: Option<OneSide<'a>>,
    new: Option<OneSide<'a>>,
}

type OneSide<'a> = (
    &'a FuncKeys,
    Option<&'a Written>,
    Option<&'a Definitions<'a>>,
);

fn picture<'r>(report: &'r FunctionReport, sides: &FunctionSides) -> Picture<'r> {
    let cfg = cfg::build(sides.old.map(|s| s.0), sides.new.map(|s| s.0));
    let old_blocks = sides.old.map(written_blocks).unwrap_or_default();
    let new_blocks = sides.new.map(written_blocks).unwrap_or_default();
    let translation = sides.new.and_then(|(keys, written, _)| {
        let old = sides
            .old
            .and_then(|(k, w, _)| w.map(|w| (w, k.name.as_str())));
        Some(Translation::new(old, (written?, &keys.name), &cfg.pairs))
    });
    let blocks: Vec<BlockView> = cfg
        .nodes
        .iter()
        .map(|node| {
            let old = node.old.and_then(|b| old_blocks.get(b));
            let new = node.new.and_then(|b| new_blocks.get(b));
            block_view(node.status, old, new, translation.as_ref())
        })
        .collect();
    let edges = union_edges(&cfg);
    let graph = layout::Graph {
        sizes: blocks.iter().map(block_size).collect(),
        edges: edges.iter().map(|&(a, b, _, _)| (a, b)).collect(),
        entry: cfg.entry,
    };
    Picture {
        report,
        layout: layout::layout(&graph),
        blocks,
        edges,
    }
}

/// Each block of one side as written (by the index of its canonical
/// block); canonical text where the input is not at hand.
fn written_blocks((keys, written, defs): OneSide) -> Vec<WrittenBlock> {
    let canonical = || {
        keys.blocks
            .iter()
            .map(|b| WrittenBlock {
                label: b.label.clone(),
                lines: std::iter::once(format!("{}:", b.label))
                    .chain(b.insts.iter().map(|l| format!("  {l}")))
                    .collect(),
            })
            .collect()
    };
    let (Some(written), Some(defs)) = (written, defs) else {
        return canonical();
    };
    let bare = keys.name.trim_start_matches('@');
    let tokens = written.names.locals.get(bare);
    let token_of = |label: &str| tokens.and_then(|t| t.get(label)).cloned();
    let input_name = written
        .names
        .globals
        .get(bare)
        .map_or(keys.name.clone(), |n| format!("@{n}"));
    let entry = keys.blocks.first().and_then(|b| token_of(&b.label));
    let found = defs.blocks(&input_name, entry.as_deref().unwrap_or("entry"));
    if found.len() != keys.blocks.len() {
        return canonical();
    }
    let by_token: HashMap<&str, &WrittenBlock> =
        found.iter().map(|b| (b.label.as_str(), b)).collect();
    let mut out = Vec::with_capacity(keys.blocks.len());
    for (index, block) in keys.blocks.iter().enumerate() {
        let token = token_of(&block.label);
        let hit = token.as_deref().and_then(|t| by_token.get(t));
        match (hit, index) {
            (Some(b), _) => out.push((*b).clone()),
            (None, 0) => out.push(found[0].clone()),
            (None, _) => return canonical(),
        }
    }
    out
}

fn block_view(
    status: BlockStatus,
    old: Option<&WrittenBlock>,
    new: Option<&WrittenBlock>,
    translation: Option<&Translation>,
) -> BlockView {
    let new_in_old: Vec<String> = match (new, translation) {
        (Some(b), Some(t)) => b.lines.iter().map(|l| t.line(l)).collect(),
        (Some(b), None) => b.lines.clone(),
        (None, _) => Vec::new(),
    };
    let old_lines = old.map(|b| b.lines.clone()).unwrap_or_default();
    let change = if status == BlockStatus::Unchanged {
        Vec::new()
    } else {
        written::change(&old_lines, &new_in_old)
    };
    let mut comments = written::comments(&old_lines);
    for c in written::comments(new.map_or(&[][..], |b| &b.lines)) {
        if !comments.contains(&c) {
            comments.push(c);
        }
    }
    BlockView {
        status,
        old_label: old.map(|b| format!("%{}", b.label)),
        new_label: new.map(|b| format!("%{}", b.label)),
        old_lines,
        new_lines: new.map(|b| b.lines.clone()).unwrap_or_default(),
        change,
        comments,
    }
}

/// Instructions of a block's lines (no label, no comment lines).
pub(crate) fn instruction_count(lines: &[String]) -> usize {
    lines
        .iter()
        .filter(|l| {
            let t = l.trim_start();
            l.starts_with(char::is_whitespace) && !t.starts_with(';') && !t.starts_with("#dbg_")
        })
        .count()
}

/// The text drawn in a block: its label and instruction count.
pub(crate) fn block_caption(label: &str, lines: &[String]) -> String {
    format!("{label} · {}", instruction_count(lines))
}

fn block_size(b: &BlockView) -> (f64, f64) {
    let longest = [(&b.old_label, &b.old_lines), (&b.new_label, &b.new_lines)]
        .iter()
        .filter_map(|(label, lines)| label.as_ref().map(|l| block_caption(l, lines)))
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(4);
    (longest as f64 * CHAR_WIDTH + 16.0, BLOCK_HEIGHT)
}

/// Both sides' edges, each once, with the sides that have it.
fn union_edges(cfg: &Cfg) -> Vec<(usize, usize, bool, bool)> {
    let mut at: HashMap<(usize, usize), usize> = HashMap::default();
    let mut out: Vec<(usize, usize, bool, bool)> = Vec::new();
    for (edge, is_new) in cfg
        .old_edges
        .iter()
        .map(|e| (e, false))
        .chain(cfg.new_edges.iter().map(|e| (e, true)))
    {
        let index = *at.entry(*edge).or_insert_with(|| {
            out.push((edge.0, edge.1, false, false));
            out.len() - 1
        });
        if is_new {
            out[index].3 = true;
        } else {
            out[index].2 = true;
        }
    }
    out
}
