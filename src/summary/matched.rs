//! `irgit diff --matched`: a line diff of the two files as written, with
//! the new file in the old file's own names wherever the merge's matching
//! pairs its values, blocks, globals, attribute groups and metadata (the
//! merge writes theirs in ours' names the same way:
//! [`crate::compare::faithful::translate`], with the old file as base and as
//! ours). Unchanged lines are then equal, and only real changes show.
//!
//! ```text
//! old.ll                         new.ll (a statement inserted above)    shown
//!   %5 = load i32, ptr %3          %5 = load i32, ptr %2               + %new.5 = load i32, ptr %2
//!   %6 = add nsw i32 %5, 1         %6 = load i32, ptr %3                 %5 = load i32, ptr %3
//!                                  %7 = add nsw i32 %6, 1                %6 = add nsw i32 %5, 1
//! ```
//!
//! A value the old file does not have is written `%new.N` when the new
//! file numbers it `%N` (a number would read as another value of the old
//! file); named ones keep their names (`x.1` where the old file has `x`).
//! Debug info is not compared (a line inserted in the C source moves every
//! location below it): `!dbg` attachments, the metadata numbers of debug
//! records, `!llvm.loop` and metadata lines, and `!DI...` nodes.

use std::collections::BTreeMap;

use super::render::{write_hunks, Paint, BOLD};
use super::SummaryError;
use crate::canon::source_map::SourceNames;
use crate::compare::faithful::{self, SideText, PLACEHOLDER};
use crate::compare::model;
use crate::three::Side;

use crate::text::Ref;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// One input, loaded as the merge's translation and `-p`'s matching need it.
struct Loaded {
    /// The file as written (bitcode: as LLVM prints it).
    text: String,
    names: SourceNames,
    /// The canonical form, keyed (its model is what the translation reads).
    keys: super::side::Side,
}

fn load(bytes: &[u8], label: &str) -> Result<Loaded, SummaryError> {
    let session = crate::ir::Session::new();
    let module = crate::canon::parse_verified(&session, bytes, label)?;
    let text = if crate::canon::is_bitcode(bytes) {
        module.print()
    } else {
        String::from_utf8_lossy(bytes).into_owned()
    };
    let opts = crate::config::CanonOptions {
        keep_comments: false,
        ..crate::config::CanonOptions::default()
    };
    let extras = crate::canon::Extras {
        source_names: true,
        verify_after: false,
    };
    // Both sides under one name: a module without `source_filename` takes
    // its name from it.
    let (canonical, names) =
        crate::canon::canonical_text_for(&module, &[], "irgit-diff", &opts, extras)?;
    let types = crate::ir::summary::definition_types(&module);
    let keys = super::side::Side::from_canonical(canonical, types, label)?;
    let mut names = names.unwrap_or_default();
    with_written_numbers(&mut names, &text);
    Ok(Loaded { text, names, keys })
}

/// `names` with each function's unnamed values under the numbers its text
/// wrote: LLVM reads numbers with a gap as its next slots, and the source
/// map records slots.
///
/// ```text
/// define i32 @f(i32 %0) {   %2 = add ...   %5 = mul ...     slots 2, 3 -> tokens 2, 5
/// ```
fn with_written_numbers(names: &mut SourceNames, text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let mut start = None;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("define ") {
            start = Some(i);
        } else if *line == "}" {
            if let Some(s) = start.take() {
                renumber_as_written(names, &lines[s..=i]);
            }
        }
    }
}

/// [`with_written_numbers`] for one function, its `define` line to its `}`.
fn renumber_as_written(names: &mut SourceNames, function: &[&str]) {
    let written: Vec<Option<&str>> = model::local_definitions(function)
        .into_iter()
        .filter_map(|(_, name)| match name {
            None => Some(None),
            Some(n) if n.bytes().all(|b| b.is_ascii_digit()) => Some(Some(n)),
            Some(_) => None,
        })
        .collect();
    let as_slots = written
        .iter()
        .enumerate()
        .all(|(slot, token)| token.is_none_or(|t| t.parse() == Ok(slot)));
    let func = crate::text::function_name(function[0]).map(|f| f.strip_prefix('@').unwrap_or(f));
    let Some(locals) = func
        .and_then(|f| names.locals.get_mut(f))
        .filter(|_| !as_slots)
    else {
        return;
    };
    for token in locals.values_mut() {
        let slot = token.parse::<usize>().ok();
        if let Some(Some(written)) = slot.and_then(|s| written.get(s)) {
            *token = written.to_string();
        }
    }
}

/// The new text in the old text's names, line for line.
fn new_in_old_names(old: &Loaded, new: &Loaded) -> String {
    let none = BTreeMap::new();
    fn side<'a>(side: Side, l: &'a Loaded, undo: &'a BTreeMap<String, String>) -> SideText<'a> {
        SideText {
            side,
            text: &l.text,
            names: &l.names,
            model: &l.keys.module,
            undo,
        }
    }
    faithful::translate(
        &side(Side::Base, old, &none),
        &side(Side::Ours, old, &none),
        &side(Side::Theirs, new, &none),
    )
    .theirs
}

/// How one function's tokens of the new file are written: the new token ->
/// the old file's token of the value `-p`'s matching pairs it with
/// ([`super::compare::names_in_old`]), and the old file's tokens.
struct LocalNames {
    old_token: HashMap<String, String>,
    old_tokens: HashSet<String>,
    /// The new file's own tokens in the function: a `new.N` must not be one.
    new_tokens: HashSet<String>,
}

fn local_names(old: &Loaded, new: &Loaded, func: &str) -> Option<LocalNames> {
    let (o, n) = (&old.keys, &new.keys);
    let of = &o.funcs[*o.index.get(func)?];
    let nf = &n.funcs[*n.index.get(func)?];
    let bare = func.strip_prefix('@').unwrap_or(func);
    let (ot, nt) = (old.names.locals.get(bare)?, new.names.locals.get(bare)?);
    let pairs = super::compare::names_in_old(of, nf);
    let old_token = nt
        .iter()
        .filter_map(|(canonical, token)| {
            let target = pairs.get(canonical)?;
            Some((token.clone(), ot.get(target)?.clone()))
        })
        .collect();
    Some(LocalNames {
        old_token,
        old_tokens: ot.values().cloned().collect(),
        new_tokens: nt.values().cloned().collect(),
    })
}

/// The translated new text with its locals as `-p` pairs them: the merge's
/// translation pairs values for a three-way merge (and gives the globals,
/// attribute groups and metadata), `-p`'s matching also pairs look-alike
/// lines by their place. A value `-p` leaves unpaired is written in the
/// translation's name unless that is an old value's, then `new.<token>`.
fn with_matched_locals(old: &Loaded, new: &Loaded, translated: &str) -> String {
    let mut out = Vec::new();
    let mut names: Option<LocalNames> = None;
    for (raw, line) in new.text.lines().zip(translated.lines()) {
        if raw.starts_with("define ") {
            names = crate::text::function_name(raw).and_then(|f| local_names(old, new, f));
        }
        out.push(match &names {
            Some(m) => relabel(raw, line, m),
            None => line.to_string(),
        });
        if raw == "}" {
            names = None;
        }
    }
    let mut text = out.join("\n");
    if translated.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// One translated line with its locals renamed through `m`, token by token
/// against the new file's line (kept as translated when they do not line up).
fn relabel(raw: &str, translated: &str, m: &LocalNames) -> String {
    let (from, to) = (locals(raw), locals(translated));
    if from.len() != to.len() {
        return translated.to_string();
    }
    let name = |k: usize| -> String {
        match m.old_token.get(from[k]) {
            Some(t) => t.clone(),
            // A name this writer gave (a text already written in the old
            // file's names, written so again) is fresh already.
            None if is_fresh(from[k]) && !m.old_tokens.contains(from[k]) => from[k].to_string(),
            None if m.old_tokens.contains(to[k]) => fresh_name(from[k], |n| {
                m.new_tokens.contains(n) || m.old_tokens.contains(n)
            }),
            None => to[k].to_string(),
        }
    };
    let label = locals_label_len(translated);
    let mut k = usize::from(label.is_some());
    let body = crate::text::rewrite(&translated[label.unwrap_or(0)..], |r| match r {
        Ref::Local(_) => {
            k += 1;
            Some(format!("%{}", name(k - 1)))
        }
        _ => None,
    });
    match label {
        Some(_) => format!("{}{body}", name(0)),
        None => body,
    }
}

/// The name of a new value the new file calls `token`: `new.<token>`, or
/// `new.<token>.1`, `.2`... when that is `taken` (a file already written
/// in another's names has values named `new.N` of its own).
pub(crate) fn fresh_name(token: &str, taken: impl Fn(&str) -> bool) -> String {
    let base = format!("{FRESH_PREFIX}{token}");
    std::iter::once(base.clone())
        .chain((1..).map(|k| format!("{base}.{k}")))
        .find(|n| !taken(n))
        .unwrap_or(base)
}

/// What every name [`fresh_name`] gives starts with.
pub(crate) const FRESH_PREFIX: &str = "new.";

/// Whether `token` is a name [`fresh_name`] gives (`new.7`, `new.x.1`).
fn is_fresh(token: &str) -> bool {
    token.starts_with(FRESH_PREFIX)
}

/// The length of a line's own label (`7:`, `bb.3:`), if it is a label line.
fn locals_label_len(line: &str) -> Option<usize> {
    model::own_label(line).map(str::len)
}

/// A line's local tokens in order (a label's own name first).
fn locals(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    if let Some(e) = locals_label_len(line) {
        out.push(&line[..e]);
    }
    out.extend(model::local_refs_str(line));
    out
}

/// Writes each new unnamed value (the translation's placeholder) as
/// `new.N`, N its number in the new file: the tokens of a translated line
/// stand where the new line's stand.
fn name_new_values(new: &str, translated: &str) -> Vec<String> {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let taken: HashSet<&str> = new
        .lines()
        .chain(translated.lines())
        .flat_map(locals)
        .collect();
    for (a, b) in new.lines().zip(translated.lines()) {
        if !b.contains(PLACEHOLDER) {
            continue;
        }
        let (ta, tb) = (locals(a), locals(b));
        if ta.len() == tb.len() {
            for (x, y) in ta.into_iter().zip(tb) {
                if y.starts_with(PLACEHOLDER) && !names.contains_key(y) {
                    names.insert(y.to_string(), fresh_name(x, |n| taken.contains(n)));
                }
            }
        }
    }
    translated
        .lines()
        .map(|l| {
            if !l.contains(PLACEHOLDER) {
                return l.to_string();
            }
            let l = crate::text::rewrite(l, |r| match r {
                Ref::Local(x) => names.get(x).map(|n| format!("%{n}")),
                _ => None,
            });
            match locals(&l)
                .first()
                .and_then(|x| names.get(*x).map(|n| (x.len(), n)))
            {
                Some((len, n)) if l[len..].starts_with(':') => format!("{n}{}", &l[len..]),
                _ => l,
            }
        })
        .collect()
}

/// A line as compared: without its `!dbg !N` attachments, and a debug
/// record (`#dbg_declare(...)`) without its metadata numbers (its variable
/// and location are debug info, renumbered by any edit above).
pub(crate) fn key(line: &str) -> String {
    const TAG: &str = "!dbg !";
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(TAG) {
        let digits = rest[at + TAG.len()..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let head = &rest[..at];
        out.push_str(
            head.strip_suffix(", ")
                .or(head.strip_suffix(' '))
                .unwrap_or(head),
        );
        rest = &rest[at + TAG.len() + digits..];
    }
    out.push_str(rest);
    let code = out.trim_start();
    if code.starts_with('!') && code.contains(" = ") {
        // A metadata node: debug info is not compared, nor node numbers.
        if code.contains(" = !DI") || code.contains(" = distinct !DI") {
            return "!DI".to_string();
        }
        return without_meta_numbers(&out);
    }
    if code.starts_with("#dbg_") {
        return without_meta_numbers(&out);
    }
    // A loop's metadata lists its source locations.
    if let Some(at) = out.find(", !llvm.loop !") {
        let head = out[..at + ", !llvm.loop !".len()].to_string();
        let rest = &out[head.len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        out = format!("{head}{}", &rest[digits..]);
    }
    out
}

fn without_meta_numbers(line: &str) -> String {
    crate::text::rewrite(line, |r| matches!(r, Ref::Meta(_)).then(|| "!".to_string()))
}

/// The `define` line old line `at` (0-based) is in.
fn enclosing_function(lines: &[String], at: usize) -> String {
    lines[..=at.min(lines.len().saturating_sub(1))]
        .iter()
        .rev()
        .take_while(|l| l.as_str() != "}")
        .find(|l| l.starts_with("define "))
        .map(|l| l.trim_end_matches('{').trim_end().to_string())
        .unwrap_or_default()
}

/// Both inputs' lines as the matched diff compares them: the old file as
/// written, the new one in the old one's names (`None`: the file is absent
/// on that side, no lines).
fn matched_lines(
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    old_label: &str,
    new_label: &str,
) -> Result<(Vec<String>, Vec<String>), SummaryError> {
    match (old, new) {
        (Some(a), Some(b)) => {
            let (a, b) = std::thread::scope(|s| {
                let hb = s.spawn(|| load(b, new_label));
                let a = load(a, old_label);
                let b = hb.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                (a, b)
            });
            let (a, b) = (a?, b?);
            let translated = with_matched_locals(&a, &b, &new_in_old_names(&a, &b));
            let ol = a.text.lines().map(str::to_string).collect();
            let written = name_new_values(&b.text, &translated);
            Ok((ol, with_preds_in_column(&b.text, written)))
        }
        (a, b) => {
            let lines = |x: Option<&[u8]>, label| -> Result<Vec<String>, SummaryError> {
                let Some(x) = x else { return Ok(Vec::new()) };
                Ok(load(x, label)?.text.lines().map(str::to_string).collect())
            };
            Ok((lines(a, old_label)?, lines(b, new_label)?))
        }
    }
}

/// The written lines with each label line they changed (its label or the
/// names in its `; preds = ...`) padded as LLVM pads it
/// ([`model::relabelled`]), so that writing them again gives the same
/// bytes.
fn with_preds_in_column(new: &str, written: Vec<String>) -> Vec<String> {
    if new.lines().count() != written.len() {
        return written;
    }
    new.lines()
        .zip(written)
        .map(|(raw, line)| match model::own_label(&line) {
            Some(label) if line != raw => model::relabelled(&line, label),
            _ => line,
        })
        .collect()
}

/// The new textual input as written, in the old input's names wherever
/// values match: the new side of the matched diff, line for line, with the
/// new text's final newline. What `hook.mode: previous-names` stores, once
/// it has proved the text the same module (`crate::git::previous_names`).
pub(crate) fn new_text_in_old_names(
    old: &[u8],
    new: &[u8],
    old_label: &str,
    new_label: &str,
) -> Result<String, SummaryError> {
    let (_, lines) = matched_lines(Some(old), Some(new), old_label, new_label)?;
    let mut text = lines.join("\n");
    if new.ends_with(b"\n") {
        text.push('\n');
    }
    Ok(text)
}

/// The matched diff of two inputs (`None`: the file is absent on that
/// side), with `--- a/OLD` and `+++ b/NEW` headers; empty when nothing
/// differs.
pub fn matched_diff(
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    old_label: &str,
    new_label: &str,
    paint: Paint,
) -> Result<String, SummaryError> {
    let (ol, nl) = matched_lines(old, new, old_label, new_label)?;
    let ok: Vec<String> = ol.iter().map(|l| key(l)).collect();
    let nk: Vec<String> = nl.iter().map(|l| key(l)).collect();
    if ok == nk {
        return Ok(String::new());
    }
    // git's external diff passes labels that already read `a/PATH`, `b/PATH`.
    let (a, b) = (
        old_label.strip_prefix("a/").unwrap_or(old_label),
        new_label.strip_prefix("b/").unwrap_or(new_label),
    );
    let mut out = String::new();
    out.push_str(&paint.paint(BOLD, &format!("--- a/{a}")));
    out.push('\n');
    out.push_str(&paint.paint(BOLD, &format!("+++ b/{b}")));
    out.push('\n');
    let header = |at: usize| enclosing_function(&ol, at);
    write_hunks(&mut out, (&ol, &ok), (&nl, &nk), &header, paint);
    Ok(out)
}

/// The matched diff cut by function: for each asked (old name, new name)
/// pair (`None`: the function is not on that side), the hunks of its lines
/// alone (numbered from its `define` line, as `-p` numbers them), and the
/// hunks of the lines outside every function (globals, declarations,
/// metadata; numbered over those lines). Uncoloured; empty where nothing
/// differs.
pub(crate) struct FunctionDiffs {
    pub(crate) functions: Vec<String>,
    pub(crate) module: String,
}

/// [`FunctionDiffs`] of two inputs.
pub(crate) fn function_diffs(
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    (old_label, new_label): (&str, &str),
    wanted: &[(Option<&str>, Option<&str>)],
) -> Result<FunctionDiffs, SummaryError> {
    let (ol, nl) = matched_lines(old, new, old_label, new_label)?;
    let (of, nf) = (function_ranges(&ol), function_ranges(&nl));
    let hunks = |o: &[String], n: &[String]| {
        let ok: Vec<String> = o.iter().map(|l| key(l)).collect();
        let nk: Vec<String> = n.iter().map(|l| key(l)).collect();
        let mut out = String::new();
        // An added function's hunks name it from the new side.
        let header = |at: usize| match o.is_empty() {
            true => enclosing_function(n, 0),
            false => enclosing_function(o, at),
        };
        write_hunks(&mut out, (o, &ok), (n, &nk), &header, Paint { on: false });
        out
    };
    let part = |lines: &[String], ranges: &BTreeMap<String, (usize, usize)>, name: Option<&str>| {
        match name.and_then(|n| ranges.get(n)) {
            Some(&(first, last)) => lines[first..=last].to_vec(),
            None => Vec::new(),
        }
    };
    let functions = wanted
        .iter()
        .map(|&(o, n)| {
            // The new text is in the old one's names where they pair.
            let new_part = match part(&nl, &nf, n) {
                p if p.is_empty() => part(&nl, &nf, o.filter(|_| n.is_some())),
                p => p,
            };
            hunks(&part(&ol, &of, o), &new_part)
        })
        .collect();
    let outside = |lines: &[String], ranges: &BTreeMap<String, (usize, usize)>| {
        let inside: HashSet<usize> = ranges.values().flat_map(|&(a, b)| a..=b).collect();
        let kept = (0..lines.len()).filter(|i| !inside.contains(i));
        kept.map(|i| lines[i].clone()).collect::<Vec<String>>()
    };
    let module = hunks(&outside(&ol, &of), &outside(&nl, &nf));
    Ok(FunctionDiffs { functions, module })
}

/// Each function's lines (first and last, 0-based: its `define` line and
/// its `}`), by name.
fn function_ranges(lines: &[String]) -> BTreeMap<String, (usize, usize)> {
    let mut out = BTreeMap::new();
    let mut open: Option<(String, usize)> = None;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("define ") {
            open = crate::text::function_name(line).map(|n| (n.to_string(), i));
        } else if line == "}" {
            if let Some((name, first)) = open.take() {
                out.insert(name, (first, i));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_locations_are_not_compared() {
        assert_eq!(
            key("  %5 = add nsw i32 %4, 1, !dbg !31, !noundef !2"),
            "  %5 = add nsw i32 %4, 1, !noundef !2"
        );
        assert_eq!(key("  ret void"), "  ret void");
        assert_eq!(key("define i32 @f() #0 !dbg !10 {"), "define i32 @f() #0 {");
        assert_eq!(key("!7 = !DILocation(line: 3, scope: !4)"), "!DI");
        assert_eq!(key("!llvm.dbg.cu = !{!0}"), "!llvm.dbg.cu = !{!}");
        assert_eq!(
            key("  br label %7, !dbg !36, !llvm.loop !37"),
            "  br label %7, !llvm.loop !"
        );
        assert_eq!(
            key("    #dbg_declare(ptr %3, !16, !DIExpression(), !17)"),
            "    #dbg_declare(ptr %3, !, !DIExpression(), !)"
        );
    }

    #[test]
    fn new_unnamed_values_read_new_n() {
        let new =
            "define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n  br label %3\n\n3:\n  ret i32 %2\n}\n";
        let translated = format!(
            "define i32 @f(i32 %0) {{\n  %{PLACEHOLDER}1 = add i32 %0, 1\n  br label %{PLACEHOLDER}2\n\n{PLACEHOLDER}2:\n  ret i32 %{PLACEHOLDER}1\n}}\n"
        );
        assert_eq!(
            name_new_values(new, &translated).join("\n"),
            "define i32 @f(i32 %0) {\n  %new.2 = add i32 %0, 1\n  br label %new.3\n\nnew.3:\n  ret i32 %new.2\n}"
        );
    }

    /// LLVM reads numbers with a gap (`%3`, then `%5`) as its slots 3 and 4;
    /// the names are the text's.
    #[test]
    fn numbers_with_a_gap_read_as_written() {
        let old = "define i32 @f(ptr %0, ptr %1) {\n  %3 = load i32, ptr %0, align 4\n  %4 = load i32, ptr %1, align 4\n  %5 = sub i32 %3, %4\n  ret i32 %5\n}\n";
        let new = "define i32 @f(ptr %0, ptr %1) {\n  %new.4 = load i32, ptr %1, align 4\n  %3 = load i32, ptr %0, align 4\n  %5 = sub i32 %3, %new.4\n  ret i32 %5\n}\n";
        let written =
            new_text_in_old_names(old.as_bytes(), new.as_bytes(), "old.ll", "new.ll").unwrap();
        assert_eq!(written.replace("%new.4", "%4"), new.replace("%new.4", "%4"));
    }

    #[test]
    fn hunks_name_their_function() {
        let lines: Vec<String> = [
            "define i32 @f() {",
            "  ret i32 0",
            "}",
            "",
            "@g = global i32 0",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(enclosing_function(&lines, 1), "define i32 @f()");
        assert_eq!(enclosing_function(&lines, 4), "");
    }
}
