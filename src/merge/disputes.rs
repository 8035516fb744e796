//! Where two derivations of one merge disagree, and the conflicts written
//! there: the functions (and module-level entities) whose canonical lines
//! differ, their byte ranges in a text as written, and a conflict over
//! exactly those functions in ours' text.
//!
//! ```text
//! structured: close_state and luaE_freethread share loop node !26
//! git:        clean, verifies, but gives close_state a loop node of its own
//! disputed:   ["close_state"]  ->  one conflict over @close_state, the rest ours' text
//! ```

use super::render::{self, Markers, Region};
use crate::compare::model::{self, ModuleText, Numbering, SideTables};
use crate::three::Side;
use crate::three::Three;

/// The functions (by name) and module-level entities whose lines differ
/// between two canonical forms, metadata and attribute groups compared by
/// identity. Empty when only their numbering differs.
pub(crate) fn disputed(a: &str, b: &str) -> Vec<String> {
    let (Ok(ma), Ok(mb)) = (model::parse(a, "a"), model::parse(b, "b")) else {
        return vec!["the module".into()];
    };
    let keys = |m: &ModuleText, side| {
        let t = SideTables::new(side, m);
        let mut n = Numbering::default();
        let none = |_: &str| -> Option<String> { None };
        let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        for f in &m.funcs {
            let v = out.entry(f.name.clone()).or_default();
            v.push(n.line(&t, &f.header, &none).key.into_owned());
            for b in &f.blocks {
                v.push(format!("{}:", b.label));
                v.extend(
                    b.lines
                        .iter()
                        .map(|l| n.line(&t, l, &none).key.into_owned()),
                );
            }
        }
        for (k, l) in &m.entities {
            out.entry(k.clone())
                .or_default()
                .push(n.line(&t, l, &none).key.into_owned());
        }
        out
    };
    let (ka, kb) = (keys(&ma, Side::Ours), keys(&mb, Side::Theirs));
    let mut names: Vec<String> = ka
        .iter()
        .filter(|(k, v)| kb.get(*k) != Some(v))
        .map(|(k, _)| k.clone())
        .chain(kb.keys().filter(|k| !ka.contains_key(*k)).cloned())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Byte ranges of each function definition in a text as written: from its
/// `define` line to its closing `}` line (inclusive of the newline).
pub(crate) fn function_ranges(text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize)> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_end();
        if t.starts_with("define ") {
            if let Some(name) = crate::text::function_name(t) {
                open = Some((name.to_string(), at));
            }
        } else if t == "}" {
            if let Some((name, start)) = open.take() {
                out.push((name, start..at + line.len()));
            }
        }
        at += line.len();
    }
    out
}

/// `host` with the function `name` as `source` writes it, when `host`
/// lacks it: before the first function that follows it in `source` and is
/// in `host`, else at the end. `None` when `source` does not define it.
///
/// ```text
/// source: define @a  define @helper  define @b      host: define @a  define @b
/// ->      define @a  define @helper  define @b
/// ```
pub(crate) fn with_function_of(host: &str, source: &str, name: &str) -> Option<String> {
    let host_fns = function_ranges(host);
    if host_fns.iter().any(|(n, _)| n == name) {
        return Some(host.to_string());
    }
    let source_fns = function_ranges(source);
    let at = source_fns.iter().position(|(n, _)| n == name)?;
    let text = &source[source_fns[at].1.clone()];
    let next = source_fns[at + 1..]
        .iter()
        .find_map(|(n, _)| host_fns.iter().find(|(h, _)| h == n));
    let mut out = String::with_capacity(host.len() + text.len() + 2);
    match next {
        Some((_, range)) => {
            out.push_str(&host[..range.start]);
            out.push_str(text);
            out.push('\n');
            out.push_str(&host[range.start..]);
        }
        None => {
            out.push_str(host);
            if !host.ends_with('\n') {
                out.push('\n');
            }
            out.push('\n');
            out.push_str(text);
        }
    }
    Some(out)
}

/// The three versions of each disputed function as a conflict, in the
/// text of `host` (a merge in ours' text): ours' function, base's and
/// theirs' (both in ours' names), the lines all three share outside the
/// markers. `None` when a disputed entity is not a
/// function found in `host` (the caller then writes one conflict over the
/// whole file).
pub(crate) fn conflict_on_functions(
    host: &str,
    disputed: &[String],
    Three { base, ours, theirs }: Three<&str>,
    markers: &Markers,
) -> Option<(String, usize)> {
    let host_fns = function_ranges(host);
    let of = |text: &str, name: &str| -> String {
        function_ranges(text)
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| text[r].to_string())
            .unwrap_or_default()
    };
    let mut spans: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for name in disputed {
        let (_, range) = host_fns.iter().find(|(n, _)| n == name)?;
        let hunk =
            render::narrowed_hunk(&of(ours, name), &of(base, name), &of(theirs, name), markers);
        spans.push((range.clone(), hunk));
    }
    spans.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(host.len() + 256);
    let mut copied = 0;
    for (r, hunk) in &spans {
        out.push_str(&host[copied..r.start]);
        out.push_str(hunk);
        copied = r.end;
    }
    out.push_str(&host[copied..]);
    Some((out, spans.len()))
}

/// The functions a text with conflict markers has its conflicts in: the
/// function around each conflict, or the functions a conflict between
/// functions defines in its sections. `None` when a conflict is in neither
/// (a global, a declaration, metadata).
pub(crate) fn functions_in_conflict(text: &str, markers: &Markers) -> Option<Vec<String>> {
    let (functions, outside) = conflict_functions(text, markers);
    (!outside).then_some(functions)
}

/// Where the conflicts of a text with markers are, for the user: the
/// functions they are in (or define), and whether one is outside functions
/// (globals, declarations, metadata). Empty when it has no conflicts.
///
/// ```text
/// define i32 @f() { <<<<<<< ... >>>>>>> }   @g = <<<<<<< ... >>>>>>>   ->  "in @f and outside functions"
/// ```
pub(crate) fn conflict_places(text: &str, markers: &Markers) -> String {
    let (functions, outside) = conflict_functions(text, markers);
    match (functions.is_empty(), outside) {
        (true, false) => String::new(),
        (true, true) => "outside functions".into(),
        (false, false) => format!("in {}", functions.join(", ")),
        (false, true) => format!("in {} and outside functions", functions.join(", ")),
    }
}

/// The functions the conflicts of a text are in or define (sorted, once
/// each), and whether a conflict is in no function and defines none.
fn conflict_functions(text: &str, markers: &Markers) -> (Vec<String>, bool) {
    let mut functions = Vec::new();
    let mut outside = false;
    let mut current: Option<&str> = None;
    for region in render::regions(text, markers) {
        match region {
            Region::Outside(line) => current = enclosing_after(current, line),
            Region::Conflict {
                ours, base, theirs, ..
            } => {
                if let Some(name) = current {
                    functions.push(name.to_string());
                    continue;
                }
                let sections = ours.iter().chain(base.iter().flatten()).chain(&theirs);
                let before = functions.len();
                functions.extend(
                    sections
                        .filter(|line| line.starts_with("define "))
                        .filter_map(|line| crate::text::function_name(line.trim_end()))
                        .map(str::to_string),
                );
                outside |= functions.len() == before;
            }
        }
    }
    functions.sort();
    functions.dedup();
    (functions, outside)
}

/// The function a line outside conflicts leaves open: the one its
/// `define` opens, none after its closing `}`.
fn enclosing_after<'t>(current: Option<&'t str>, line: &'t str) -> Option<&'t str> {
    let line = line.trim_end();
    if line.starts_with("define ") {
        crate::text::function_name(line)
    } else if line == "}" {
        None
    } else {
        current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflict_places_name_functions_and_module_level() {
        let markers = Markers::default();
        let text = "@g = global i32 0\n<<<<<<< ours\n@h = global i32 1\n=======\n\
                    @h = global i32 2\n>>>>>>> theirs\n\ndefine i32 @f() {\n<<<<<<< ours\n  \
                    ret i32 1\n=======\n  ret i32 2\n>>>>>>> theirs\n}\n";
        assert_eq!(
            conflict_places(text, &markers),
            "in @f and outside functions"
        );
        let only_f = text
            .split_once("\ndefine")
            .map(|(_, f)| format!("define{f}"));
        assert_eq!(conflict_places(&only_f.unwrap(), &markers), "in @f");
        assert_eq!(conflict_places("@g = global i32 0\n", &markers), "");
    }
}
