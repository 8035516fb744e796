//! How two optimization passes interact on a module (`docs/merge-theory.md`,
//! *Passes, diffs and merges*), computed with the merge's own machinery.
//!
//! For a module `m` and pass pipelines `p`, `q`, with `δ(p,-) = diff(m, p(m))`
//! and `δ(p,q) = diff(q(m), p(q(m)))`, all diffs taken between canonical
//! forms over base identities by the merge engine ([`crate::merge`]):
//!
//! - **conflict**: `δ(p,-)` and `δ(q,-)` conflict under the merge's rules
//!   (a block removed on one side and changed on the other, rules i–iii
//!   inside a block): the three-way merge of `m`, `p(m)`, `q(m)` has
//!   conflicting regions;
//! - **contribution of `q` to `p`**: rebase `δ(p,-)` over `q`'s edits onto
//!   `q(m)` (the merge of `m`, ours = `q(m)`, theirs = `p(m)`) and compare
//!   with `p(q(m))`: what differs is what `p` does only because `q` ran first;
//! - **commutation**: `canon(p(q(m))) == canon(q(p(m)))`.
//!
//! No conflict and no contribution either way implies commutation (the
//! union of two non-conflicting diffs is unique); every pair analysed is
//! checked for it, and a violation is an irgit bug, never a property of
//! the passes.
//!
//! A contribution is defined only without a conflict. Where the
//! diffs conflict, irgit still rebases the part of `δ(p,-)` that does not
//! conflict, keeping `q(m)`'s lines in the conflicting regions (`q` ran
//! first: its edit is the one `p` sees), and says so. A contribution found
//! that way can include `p` redoing, on `q`'s lines, an edit that
//! conflicted: an over-estimate, which is the sound direction.
//!
//! ```text
//! m (clang -O1)                       licm(m): loop-closed SSA          instcombine(licm(m))
//! loop:                               exit:                             exit:
//!   %i.next = add i32 %i, 1             %lcssa = phi i32 [ %i.next, %loop ]  store i32 %i.next, ptr %p
//!   br i1 %c, label %loop, label %exit  store i32 %lcssa, ptr %p
//! exit:
//!   store i32 %i.next, ptr %p
//! ```
//!
//! `instcombine` changes nothing on `m` but folds the one-entry PHI `licm`
//! left: no conflict, `licm` contributes to `instcombine`, and the two do
//! not commute (`licm(instcombine(m))` keeps the PHI).
//!
//! Stages: [`run`] (passes in process, canonical forms), [`relations`] (the
//! three relations of one pair), [`textdiff`] (small canonical diffs as
//! evidence), [`matrix`] (many pipelines over many modules), [`cli`].

pub mod cli;
pub mod matrix;
pub(crate) mod relations;
pub mod run;
pub mod textdiff;

pub use relations::{analyse, Contribution, PairReport, Region};
pub use run::{ModuleOutputs, Optnone, PassesError};

/// Six common function passes: the benchmark's matrix and the tests'.
pub const COMMON_PASSES: [&str; 6] = [
    "sroa",
    "instcombine",
    "simplifycfg",
    "gvn",
    "licm",
    "early-cse",
];

/// Splits a list of pipelines at the commas that are not inside
/// parentheses: `sroa,function(mem2reg,instcombine),gvn` is three
/// pipelines. Empty entries are an error.
pub(crate) fn split_pipelines(list: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in list.chars() {
        match c {
            '(' | '<' => depth += 1,
            ')' | '>' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    let out: Vec<String> = out.into_iter().map(|s| s.trim().to_string()).collect();
    if depth != 0 {
        return Err(format!("unbalanced parentheses in pipeline list '{list}'"));
    }
    if out.iter().any(|s| s.is_empty()) {
        return Err(format!("empty pipeline in list '{list}'"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipelines_split_at_top_level_commas_only() {
        assert_eq!(
            split_pipelines("sroa, function(mem2reg,instcombine),default<O2>").unwrap(),
            ["sroa", "function(mem2reg,instcombine)", "default<O2>"]
        );
        assert!(split_pipelines("sroa,,gvn").is_err());
        assert!(split_pipelines("function(sroa").is_err());
    }
}
