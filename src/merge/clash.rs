//! Calls that clash with a signature the other side changed. LLVM accepts
//! a call whose type is not its callee's, so a merge that takes ours'
//! new signature and theirs' new call verifies, and is wrong:
//!
//! ```text
//! base:   define i32 @helper(i32 %x)
//! ours:   define i32 @helper(i32 %x, i32 %k)      (and its callers updated)
//! theirs: %h = call i32 @helper(i32 %y)  in @g    (a new call, old signature)
//! merged: both, and LLVM verifies it        ->  a conflict on @g:
//!         "theirs calls @helper with the old signature in @g"
//! ```
//!
//! Only functions whose signature (the header up to its parameter list,
//! argument names aside) differs between the base and a side are checked,
//! so a merge where no signature changed parses nothing more. A call that
//! already disagreed with its callee in ours or theirs is no clash.
//!
//! A function one side removed while the other side's code calls it is the
//! extreme of a changed signature: the merge keeps the function
//! ([`super::apply`]) and each caller is a clash ("theirs removed
//! `@helper`, which ours calls in `@f`"), written as a conflict on the
//! callers and on the removal.

use crate::three::Three;
use std::collections::BTreeMap;

use crate::compare::model::ModuleText;

use crate::three::Side;

use crate::ir::Session;

/// A function of the merged module that calls `callee` with another type
/// than `callee` has, or calls a function the other side removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Clash {
    /// The calling function (`@g`).
    pub caller: String,
    /// The function called (`@helper`).
    pub callee: String,
    /// The side that changed the callee's signature (`None`: both did).
    pub changed_by: Option<Side>,
    /// The callee's change is its removal (the merge kept it for the call).
    pub removed: bool,
}

impl Clash {
    /// What the user reads on stderr.
    pub(crate) fn describe(&self) -> String {
        let (caller, callee) = (&self.caller, &self.callee);
        if self.removed {
            let (remover, caller_side) = match self.changed_by {
                Some(Side::Ours) => ("ours", "theirs"),
                _ => ("theirs", "ours"),
            };
            return format!("{remover} removed {callee}, which {caller_side} calls in {caller}");
        }
        match self.changed_by {
            Some(Side::Ours) => {
                format!("theirs calls {callee} with the old signature in {caller}")
            }
            Some(_) => format!("ours calls {callee} with the old signature in {caller}"),
            None => format!("{caller} calls {callee} with another signature than its own"),
        }
    }
}

/// The merged module's calls that clash with a changed signature.
/// `merged` is the clean result's canonical text; `ours` and `theirs` the
/// inputs (their own clashes are not the merge's).
pub(crate) fn stale_calls(
    models: Three<&ModuleText>,
    merged: &str,
    [ours, theirs]: [&[u8]; 2],
    path: &str,
) -> Vec<Clash> {
    let mut clashes = calls_to_removed(models, merged);
    clashes.extend(signature_clashes(models, merged, [ours, theirs], path));
    clashes
}

/// Functions one side removed and the merge kept, because the other
/// side's code calls them ([`super::apply`]): each function of the merge
/// that calls one is a clash. (Removing an unused function is no clash.)
///
/// ```text
/// base: define @helper ...   theirs: @helper removed   ours: @f calls @helper
/// merged: @helper kept, @f calls it  ->  "theirs removed @helper, which ours calls in @f"
/// ```
fn calls_to_removed(Three { base, ours, theirs }: Three<&ModuleText>, merged: &str) -> Vec<Clash> {
    let defines = |m: &ModuleText, name: &str| m.funcs.iter().any(|f| f.name == name);
    let removed: Vec<(&str, Side)> = base
        .funcs
        .iter()
        .filter_map(
            |f| match (defines(ours, &f.name), defines(theirs, &f.name)) {
                (true, false) => Some((f.name.as_str(), Side::Theirs)),
                (false, true) => Some((f.name.as_str(), Side::Ours)),
                _ => None,
            },
        )
        .collect();
    if removed.is_empty() {
        return Vec::new();
    }
    let mut clashes = Vec::new();
    let mut caller: Option<&str> = None;
    for line in merged.lines() {
        if line.starts_with("define ") {
            caller = crate::text::function_name(line);
            continue;
        }
        let Some(here) = caller else { continue };
        for &(callee, side) in &removed {
            let known = clashes
                .iter()
                .any(|c: &Clash| c.caller == here && c.callee == callee);
            if here != callee && !known && super::kept_declarations::names(line, callee) {
                clashes.push(Clash {
                    caller: here.to_string(),
                    callee: callee.to_string(),
                    changed_by: Some(side),
                    removed: true,
                });
            }
        }
        if line == "}" {
            caller = None;
        }
    }
    clashes
}

/// Calls in the merged module whose type is not their callee's, where a
/// side changed the callee's signature.
fn signature_clashes(
    Three {
        base,
        ours: ours_model,
        theirs: theirs_model,
    }: Three<&ModuleText>,
    merged: &str,
    [ours, theirs]: [&[u8]; 2],
    path: &str,
) -> Vec<Clash> {
    let changed = changed_signatures(base, ours_model, theirs_model);
    if changed.is_empty() {
        return Vec::new();
    }
    let in_merged = mismatched_calls(merged.as_bytes(), path, &changed);
    if in_merged.is_empty() {
        return Vec::new();
    }
    let (in_ours, in_theirs) = (
        mismatched_calls(ours, path, &changed),
        mismatched_calls(theirs, path, &changed),
    );
    in_merged
        .into_iter()
        .filter(|(key, n)| {
            let before = |m: &BTreeMap<(String, String), usize>| m.get(key).copied().unwrap_or(0);
            *n > before(&in_ours).max(before(&in_theirs))
        })
        .map(|((caller, callee), _)| Clash {
            changed_by: changed[&callee],
            caller,
            callee,
            removed: false,
        })
        .collect()
}

/// Functions (defined or declared) whose signature differs between the
/// base and a side: which side changed it (`None`: both).
fn changed_signatures(
    base: &ModuleText,
    ours: &ModuleText,
    theirs: &ModuleText,
) -> BTreeMap<String, Option<Side>> {
    let (o, a, b) = (signatures(base), signatures(ours), signatures(theirs));
    let mut changed = BTreeMap::new();
    for (name, sig) in &o {
        let differs = |side: &BTreeMap<String, String>| side.get(name).is_some_and(|s| s != sig);
        let by = match (differs(&a), differs(&b)) {
            (true, true) => None,
            (true, false) => Some(Side::Ours),
            (false, true) => Some(Side::Theirs),
            (false, false) => continue,
        };
        changed.insert(name.clone(), by);
    }
    changed
}

/// Each function's signature, by name (`@f`).
fn signatures(m: &ModuleText) -> BTreeMap<String, String> {
    let defined = m
        .funcs
        .iter()
        .map(|f| (f.name.clone(), signature(&f.header)));
    let declared = m
        .entities
        .iter()
        .filter(|(_, line)| line.starts_with("declare "))
        .map(|(key, line)| (key.clone(), signature(line)));
    defined.chain(declared).collect()
}

/// A header up to the end of its parameter list, the canonical argument
/// names (`%arg0`) left out: what a call must agree with.
fn signature(header: &str) -> String {
    let Some(open) = header.find('(') else {
        return header.to_string();
    };
    let mut depth = 0usize;
    let mut end = header.len();
    for (i, c) in header[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    end = open + i + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    header[..end]
        .split_inclusive([' ', ',', ')'])
        .filter(|w| !is_argument_name(w.trim_end_matches([' ', ',', ')'])))
        .collect()
}

fn is_argument_name(word: &str) -> bool {
    word.strip_prefix("%arg")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Direct calls of the `changed` functions whose type is not the callee's,
/// counted by (caller, callee). Nothing when `bytes` does not parse.
fn mismatched_calls(
    bytes: &[u8],
    path: &str,
    changed: &BTreeMap<String, Option<Side>>,
) -> BTreeMap<(String, String), usize> {
    let mut found = BTreeMap::new();
    let session = Session::new();
    let Ok(module) = session.parse(bytes, path) else {
        return found;
    };
    for f in module.functions() {
        for block in f.blocks() {
            for inst in block.iter_instructions() {
                let Some(callee) = inst.callee_name().map(|n| format!("@{n}")) else {
                    continue;
                };
                if changed.contains_key(&callee) && inst.calls_with_another_type() {
                    *found.entry((format!("@{}", f.name()), callee)).or_insert(0) += 1;
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_leave_argument_names_out() {
        assert_eq!(
            signature("define i32 @f(i32 noundef %arg0, ptr %arg1) #0"),
            signature("define i32 @f(i32 noundef %arg1, ptr %arg0) #1"),
        );
        assert_ne!(
            signature("define i32 @f(i32 %arg0)"),
            signature("define i32 @f(i32 %arg0, i32 %arg1)")
        );
        assert_eq!(signature("declare void @g(...)"), "declare void @g(...)");
    }
}
