//! LLVM's own comments in a merge result written in ours' text. A label's
//! `; preds = ...` lists the blocks that branch to it; after a merge that
//! renumbered blocks or changed branches, the comment a side printed can
//! name blocks that are not its predecessors any more (or not blocks at
//! all). Each one that disagrees with the result's branches is written
//! again; one that agrees stays byte for byte.
//!
//! ```text
//! 58:                       ; preds = %60, %54     (from a side: %60, %54 are values here)
//! 58:                       ; preds = %55, %61     (the blocks whose terminators name %58)
//! ```
//!
//! A user's note after the list (`; preds = %3 ; loop head`) is kept.

use std::collections::{HashMap, HashSet};

use crate::comments::label_comment_user_part;
use crate::comments::layout::{lex, Layout, StmtKind};

/// `text` with every label's `; preds = ...` / `; No predecessors!` that
/// disagrees with the branches of its function written again; `None` when
/// all agree.
pub(crate) fn refresh_preds(text: &str) -> Option<String> {
    let layout = lex(text);
    let mut fixes: HashMap<usize, String> = HashMap::new();
    let mut i = 0;
    while i < layout.stmts.len() {
        if !matches!(layout.stmts[i].kind, StmtKind::Define(_)) {
            i += 1;
            continue;
        }
        let end = (i + 1..layout.stmts.len())
            .find(|&j| layout.stmts[j].kind == StmtKind::FuncEnd)
            .unwrap_or(layout.stmts.len() - 1);
        fix_function(&layout, i, end, &mut fixes);
        i = end + 1;
    }
    if fixes.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 64);
    for (n, line) in text.split_inclusive('\n').enumerate() {
        match fixes.get(&n) {
            Some(new) => {
                out.push_str(new);
                out.push_str(&line[line.trim_end_matches(['\n', '\r']).len()..]);
            }
            None => out.push_str(line),
        }
    }
    Some(out)
}

/// Records, for the function whose statements are `define..=end`, each
/// label line whose predecessor comment disagrees with its branches.
fn fix_function(
    layout: &Layout<'_>,
    define: usize,
    end: usize,
    fixes: &mut HashMap<usize, String>,
) {
    let stmts = &layout.stmts[define..=end];
    let header: String = (stmts[0].first..=stmts[0].last)
        .map(|l| layout.lines[l].code())
        .collect::<Vec<_>>()
        .join(" ");
    // The entry block's name when it has no label: the next number after
    // the unnamed arguments.
    let mut block = unnamed_arguments(&header).to_string();
    let mut preds: HashMap<String, Vec<String>> = HashMap::new();
    for s in &stmts[1..] {
        match &s.kind {
            StmtKind::Label(l) => block = l.clone(),
            StmtKind::Inst { .. } => {
                for l in s.first..=s.last {
                    for target in branch_targets(layout.lines[l].code()) {
                        let list = preds.entry(target).or_default();
                        if !list.contains(&block) {
                            list.push(block.clone());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    for s in &stmts[1..] {
        let StmtKind::Label(l) = &s.kind else {
            continue;
        };
        let line = layout.lines[s.first];
        let (Some(at), Some(comment)) = (line.comment_at, line.comment()) else {
            continue;
        };
        let written = match listed_preds(comment) {
            Some(w) => w,
            None => continue,
        };
        let want = preds.get(l).cloned().unwrap_or_default();
        let same = written.iter().collect::<HashSet<_>>() == want.iter().collect::<HashSet<_>>();
        if same {
            continue;
        }
        // Keep the order the side wrote, then the new ones in block order.
        let mut order: Vec<&String> = written.iter().filter(|w| want.contains(w)).collect();
        order.extend(want.iter().filter(|w| !written.contains(w)));
        let mut new = line.text[..at].to_string();
        if order.is_empty() {
            new.push_str("; No predecessors!");
        } else {
            let names: Vec<String> = order.iter().map(|n| format!("%{n}")).collect();
            new.push_str("; preds = ");
            new.push_str(&names.join(", "));
        }
        let user = label_comment_user_part(comment);
        if !user.is_empty() {
            new.push(' ');
            new.push_str(user);
        }
        fixes.insert(s.first, new);
    }
}

/// The blocks a label's LLVM comment lists (names without `%`); `None`
/// when the comment is not LLVM's predecessor comment.
fn listed_preds(comment: &str) -> Option<Vec<String>> {
    let c = comment.trim();
    if c.starts_with("; No predecessors!") {
        return Some(Vec::new());
    }
    let rest = c.strip_prefix("; preds = ")?;
    let user = label_comment_user_part(c);
    let list = rest[..rest.len() - user.len()].trim();
    Some(
        list.split(',')
            .map(|t| t.trim().trim_start_matches('%').to_string())
            .filter(|t| !t.is_empty())
            .collect(),
    )
}

/// The blocks a line of code branches to: each `label %name`.
fn branch_targets(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("label %") {
        let name = &rest[at + "label %".len()..];
        let len = if let Some(quoted) = name.strip_prefix('"') {
            quoted.find('"').map_or(name.len(), |e| e + 2)
        } else {
            name.find(|c: char| !(c.is_ascii_alphanumeric() || "$._-".contains(c)))
                .unwrap_or(name.len())
        };
        out.push(name[..len].to_string());
        rest = &name[len..];
    }
    out
}

/// How many arguments of a `define` header are unnamed (`%0`, `%1`...):
/// numbered tokens right before `,` or `)`.
fn unnamed_arguments(header: &str) -> usize {
    let Some(open) = header.find('(') else {
        return 0;
    };
    header[open..]
        .split(['(', ',', ')'])
        .filter(|param| {
            param
                .trim()
                .rsplit(' ')
                .next()
                .and_then(|t| t.strip_prefix('%'))
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_list_is_written_again_and_a_right_one_stays() {
        let text = "define i32 @f(i32 %0) {\n  br label %3\n\n\
                    3:                                                ; preds = %9, %1\n  \
                    br label %4\n\n4:                                                ; preds = %3 ; note\n  \
                    ret i32 0\n}\n";
        let fixed = refresh_preds(text).expect("a stale comment");
        assert!(
            fixed.contains("3:                                                ; preds = %1\n"),
            "{fixed}"
        );
        assert!(fixed.contains("; preds = %3 ; note\n"), "{fixed}");
        assert_eq!(refresh_preds(&fixed), None);
    }

    #[test]
    fn branch_targets_read_every_label_operand() {
        assert_eq!(
            branch_targets("br i1 %c, label %5, label %\"a b\""),
            vec!["5".to_string(), "\"a b\"".to_string()]
        );
        assert_eq!(
            unnamed_arguments("define i32 @f(i32 noundef %0, ptr %1)"),
            2
        );
        assert_eq!(unnamed_arguments("define i32 @f(i32 %x)"), 0);
    }
}
