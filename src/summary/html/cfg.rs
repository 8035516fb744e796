//! The control-flow graphs of one function's two versions as one union
//! graph: a node per block pair the matched diff pairs ([`names_in_old`]),
//! per removed block and per added block, each with its status, and each
//! side's edges between those nodes (read from the terminators).
//!
//! ```text
//! old                          new                           nodes (status)
//! entry: br %c, %a, %b         entry: br %c, %a, %b          entry (unchanged)
//! a: ret 1                     a: ret 2                      a (changed)
//! b: ret 0                     b: br %x                      b (changed)
//!                              x: ret 0                      x (added)
//! edges old: entry->a entry->b     edges new: entry->a entry->b b->x
//! ```
//!
//! A pair is *unchanged* when the new block's lines, written in the old
//! names through the matching, equal the old block's lines.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::compare::model::local_refs_str;

use crate::text::{rewrite, Ref};

use crate::summary::compare::{block_index, names_in_old};
use crate::summary::side::FuncKeys;

/// What happened to a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockStatus {
    Added,
    Removed,
    Changed,
    Unchanged,
}

impl BlockStatus {
    pub(crate) fn label(self) -> &'static str {
        match self {
            BlockStatus::Added => "added",
            BlockStatus::Removed => "removed",
            BlockStatus::Changed => "changed",
            BlockStatus::Unchanged => "unchanged",
        }
    }
}

/// One node of the union graph: a block of either side, or a pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    /// Index of the old block, if the old version has it.
    pub old: Option<usize>,
    /// Index of the new block, if the new version has it.
    pub new: Option<usize>,
    pub status: BlockStatus,
}

/// Both versions' graphs over one set of nodes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cfg {
    pub nodes: Vec<Node>,
    /// Edges of the old version, as node indices.
    pub old_edges: Vec<(usize, usize)>,
    /// Edges of the new version, as node indices.
    pub new_edges: Vec<(usize, usize)>,
    /// The node of the entry block.
    pub entry: usize,
    /// New canonical local -> old canonical local (the matched diff's pairs;
    /// an unpaired local reads as itself or `<name>.new`).
    pub pairs: HashMap<String, String>,
}

/// The union graph of `old` and `new` (either may be absent: an added or
/// removed function).
pub(crate) fn build(old: Option<&FuncKeys>, new: Option<&FuncKeys>) -> Cfg {
    let pairs = match (old, new) {
        (Some(o), Some(n)) => names_in_old(o, n),
        _ => HashMap::default(),
    };
    let old_label: HashMap<&str, usize> = old.map(|o| block_index(o)).unwrap_or_default();
    let mut nodes = Vec::new();
    let mut node_of_old: Vec<usize> = Vec::new();
    if let Some(o) = old {
        for ob in 0..o.blocks.len() {
            node_of_old.push(nodes.len());
            nodes.push(Node {
                old: Some(ob),
                new: None,
                status: BlockStatus::Removed,
            });
        }
    }
    let mut node_of_new: Vec<usize> = Vec::new();
    if let Some(n) = new {
        for (nb, block) in n.blocks.iter().enumerate() {
            let partner = pairs
                .get(&block.label)
                .and_then(|l| old_label.get(l.as_str()))
                .copied();
            match (partner, old) {
                (Some(ob), Some(o)) => {
                    let node = &mut nodes[node_of_old[ob]];
                    node.new = Some(nb);
                    node.status = pair_status(&o.blocks[ob].insts, &block.insts, &pairs);
                    node_of_new.push(node_of_old[ob]);
                }
                _ => {
                    node_of_new.push(nodes.len());
                    nodes.push(Node {
                        old: None,
                        new: Some(nb),
                        status: BlockStatus::Added,
                    });
                }
            }
        }
    }
    let entry = node_of_old.first().or(node_of_new.first()).copied();
    Cfg {
        old_edges: old.map(|o| edges(o, &node_of_old)).unwrap_or_default(),
        new_edges: new.map(|n| edges(n, &node_of_new)).unwrap_or_default(),
        nodes,
        entry: entry.unwrap_or(0),
        pairs,
    }
}

/// Unchanged when the new lines, in old names, are the old lines.
fn pair_status(
    old_lines: &[String],
    new_lines: &[String],
    pairs: &HashMap<String, String>,
) -> BlockStatus {
    let same = old_lines.len() == new_lines.len()
        && old_lines
            .iter()
            .zip(new_lines)
            .all(|(o, n)| *o == in_old_names(n, pairs));
    if same {
        BlockStatus::Unchanged
    } else {
        BlockStatus::Changed
    }
}

/// A new line with its locals written in old names.
pub(crate) fn in_old_names(line: &str, pairs: &HashMap<String, String>) -> String {
    rewrite(line, |r| match r {
        Ref::Local(x) => pairs.get(x).map(|o| format!("%{o}")),
        _ => None,
    })
}

/// The edges of `f` (successors named by each block's terminator), mapped
/// to nodes; each edge once.
fn edges(f: &FuncKeys, node_of: &[usize]) -> Vec<(usize, usize)> {
    let labels = block_index(f);
    let mut seen: HashSet<(usize, usize)> = HashSet::default();
    let mut out = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        let Some(terminator) = block.insts.last() else {
            continue;
        };
        for target in local_refs_str(terminator) {
            if let Some(&t) = labels.get(target) {
                let edge = (node_of[b], node_of[t]);
                if seen.insert(edge) {
                    out.push(edge);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summary::side::BlockKeys;

    fn func(blocks: &[(&str, &[&str])]) -> FuncKeys {
        FuncKeys {
            name: "@f".into(),
            fn_type: "i32 (i1)".into(),
            header: "define i32 @f(i1 %arg0)".into(),
            blocks: blocks
                .iter()
                .map(|(label, insts)| BlockKeys {
                    label: label.to_string(),
                    insts: insts.iter().map(|s| s.to_string()).collect(),
                    lines: vec![0; insts.len()],
                })
                .collect(),
            first_line: 0,
            last_line: 0,
        }
    }

    #[test]
    fn an_inserted_block_is_added_and_its_predecessor_changed() {
        let old = func(&[
            ("entry", &["br i1 %arg0, label %bb.a, label %bb.b"]),
            ("bb.a", &["ret i32 1"]),
            ("bb.b", &["ret i32 0"]),
        ]);
        let new = func(&[
            ("entry", &["br i1 %arg0, label %bb.a, label %bb.b"]),
            ("bb.a", &["ret i32 1"]),
            ("bb.b", &["br label %bb.x"]),
            ("bb.x", &["ret i32 0"]),
        ]);
        let cfg = build(Some(&old), Some(&new));
        let status: Vec<(Option<usize>, Option<usize>, BlockStatus)> =
            cfg.nodes.iter().map(|n| (n.old, n.new, n.status)).collect();
        assert_eq!(status[0], (Some(0), Some(0), BlockStatus::Unchanged));
        assert_eq!(status[1], (Some(1), Some(1), BlockStatus::Unchanged));
        assert_eq!(status[2].2, BlockStatus::Changed);
        assert!(status.contains(&(None, Some(3), BlockStatus::Added)));
        assert_eq!(cfg.old_edges, vec![(0, 1), (0, 2)]);
        assert_eq!(cfg.new_edges.len(), 3);
        assert_eq!(cfg.entry, 0);
    }

    #[test]
    fn a_removed_function_has_only_removed_blocks() {
        let old = func(&[("entry", &["br label %bb.a"]), ("bb.a", &["ret i32 1"])]);
        let cfg = build(Some(&old), None);
        assert!(cfg
            .nodes
            .iter()
            .all(|n| n.status == BlockStatus::Removed && n.new.is_none()));
        assert_eq!(cfg.old_edges, vec![(0, 1)]);
        assert!(cfg.new_edges.is_empty());
    }
}
