//! Debug values both sides changed differently, written as unknown.
//!
//! At -O2 -g clang describes a variable whose value it folded with a
//! `#dbg_value` of the constant. Two edits that change one function's
//! constants (one inlined into the other) each change such a record, and
//! differently: the merged source would give a third value, which no merge
//! can know. The code merges (the records are no code), so the records are
//! written as what they can truthfully say: the variable's value is not
//! known there (`poison`, as LLVM writes a value it dropped). Valid IR and no
//! false claim, like a `DIFile` checksum left out; the merge says so on
//! stderr. Only where every line of the conflict is such a record, and each
//! variable (and fragment) that base or theirs describe there ours describes
//! too: ours' records then cover all of them, each saying what the side
//! that changed it says, or unknown where both did.
//!
//! ```text
//! base:   #dbg_value(i32 1, !31, !DIExpression(DW_OP_LLVM_fragment, 192, 32), !53)
//! ours:   #dbg_value(i32 2, !31, !DIExpression(DW_OP_LLVM_fragment, 192, 32), !53)
//! theirs: #dbg_value(i32 0, !31, !DIExpression(DW_OP_LLVM_fragment, 192, 32), !53)
//! merged: #dbg_value(i32 poison, !31, !DIExpression(DW_OP_LLVM_fragment, 192, 32), !53)
//! ```

use super::render::{regions, Markers, Region};

/// What a record says, and about which variable (and fragment of it).
struct Record<'a> {
    indent: &'a str,
    ty: &'a str,
    /// `<type> <value>` and the expression's operations: what it says.
    says: (&'a str, &'a str),
    variable: &'a str,
    fragment: &'a str,
    location: &'a str,
}

impl Record<'_> {
    /// The record with its value unknown.
    fn unknown(&self) -> String {
        format!(
            "{}#dbg_value({} poison, {}, !DIExpression({}), {})",
            self.indent, self.ty, self.variable, self.fragment, self.location
        )
    }

    /// The record with what `other` says about its variable.
    fn saying(&self, other: &Record) -> String {
        format!(
            "{}#dbg_value({}, {}, !DIExpression({}), {})",
            self.indent, other.says.0, self.variable, other.says.1, self.location
        )
    }

    fn describes(&self) -> (&str, &str) {
        (self.variable, self.fragment)
    }
}

/// The types a value can be made unknown in without reading the value.
fn is_plain_type(ty: &str) -> bool {
    matches!(
        ty,
        "ptr" | "half" | "bfloat" | "float" | "double" | "fp128" | "x86_fp80"
    ) || ty
        .strip_prefix('i')
        .is_some_and(|bits| !bits.is_empty() && bits.bytes().all(|b| b.is_ascii_digit()))
}

/// `line` read as `#dbg_value(<type> <value>, !var, !DIExpression(...), loc)`.
fn record(line: &str) -> Option<Record<'_>> {
    let line = line.trim_end_matches(['\n', '\r']);
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    let inner = body.strip_prefix("#dbg_value(")?.strip_suffix(')')?;
    let at = inner.find(", !DIExpression(")?;
    let (value, variable) = inner[..at].rsplit_once(", ")?;
    let (ty, _) = value.split_once(' ')?;
    if !variable.starts_with('!') || !is_plain_type(ty) {
        return None;
    }
    let expression = &inner[at + ", !DIExpression(".len()..];
    let close = expression.find(')')?;
    let ops = &expression[..close];
    let location = expression[close + 1..].strip_prefix(", ")?;
    let fragment = ops.find("DW_OP_LLVM_fragment").map_or("", |f| &ops[f..]);
    Some(Record {
        indent,
        ty,
        says: (value, ops),
        variable,
        fragment,
        location,
    })
}

/// Every line of `lines` as a record, if they all are.
fn records<'a>(lines: &[&'a str]) -> Option<Vec<Record<'a>>> {
    lines.iter().map(|l| record(l)).collect()
}

/// Ours' records, each merged with the base's and theirs' of the same
/// variable (and fragment): what the side that changed it says, unknown
/// where both changed it differently. Only when every line of the three
/// sections is a `#dbg_value` and ours' records describe every variable
/// the base's and theirs' do; `None` otherwise (the conflict stays).
pub(crate) fn unknown_values(ours: &[&str], base: &[&str], theirs: &[&str]) -> Option<Vec<String>> {
    let (o, b, t) = (records(ours)?, records(base)?, records(theirs)?);
    if o.is_empty() {
        return None;
    }
    let covered = |r: &Record| o.iter().any(|x| x.describes() == r.describes());
    if !b.iter().chain(&t).all(covered) {
        return None;
    }
    let one = |v: &[Record], r: &Record| -> Option<usize> {
        let mut at = v
            .iter()
            .enumerate()
            .filter(|(_, x)| x.describes() == r.describes());
        match (at.next(), at.next()) {
            (Some((i, _)), None) => Some(i),
            _ => None,
        }
    };
    let merged = |r: &Record| -> String {
        let (Some(bi), Some(ti)) = (one(&b, r), one(&t, r)) else {
            return r.unknown();
        };
        let (bs, ts) = (b[bi].says, t[ti].says);
        if one(&o, r).is_none() || (r.says != bs && ts != bs && r.says != ts) {
            r.unknown()
        } else if r.says == bs {
            r.saying(&t[ti])
        } else {
            r.saying(r)
        }
    };
    Some(o.iter().map(merged).collect())
}

/// A text with conflict markers (base sections shown) with every conflict
/// resolved by [`unknown_values`]; `None` when one of them cannot be, or
/// the text has none.
pub(crate) fn resolved(text: &str, markers: &Markers) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut resolved_any = false;
    for region in regions(text, markers) {
        match region {
            Region::Outside(line) => out.push_str(line),
            Region::Conflict {
                ours,
                base: Some(base),
                theirs,
                closed: true,
            } => {
                for l in unknown_values(&ours, &base, &theirs)? {
                    out.push_str(&l);
                    out.push('\n');
                }
                resolved_any = true;
            }
            Region::Conflict { .. } => return None,
        }
    }
    resolved_any.then_some(out)
}

/// How many `#dbg_value` records of `text` say a value is unknown.
pub(crate) fn unknown_count(text: &str) -> usize {
    text.lines()
        .filter(|l| l.contains("#dbg_value(") && l.contains(" poison, "))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAGMENT: &str = "!DIExpression(DW_OP_LLVM_fragment, 192, 32), !53)";

    fn value(v: &str) -> String {
        format!("    #dbg_value(i32 {v}, !31, {FRAGMENT}")
    }

    #[test]
    fn records_both_sides_changed_become_unknown() {
        let (o, b, t) = (value("2"), value("1"), value("0"));
        let got = unknown_values(&[&o], &[&b], &[&t]).unwrap();
        assert_eq!(got, [value("poison")]);
        // One side's change of another fragment is taken as it is.
        let other = |v: &str| {
            format!("#dbg_value(i32 {v}, !31, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !53)")
        };
        let got =
            unknown_values(&[&o, &other("7")], &[&b, &other("7")], &[&t, &other("8")]).unwrap();
        assert_eq!(got, [value("poison"), other("8")]);
    }

    #[test]
    fn a_variable_ours_does_not_describe_keeps_the_conflict() {
        let (o, b) = (value("2"), value("1"));
        let t = "#dbg_value(i32 0, !32, !DIExpression(), !53)";
        assert!(unknown_values(&[&o], &[&b], &[t]).is_none());
        let code = "%x = add i32 1, 2";
        assert!(unknown_values(&[&o], &[&b], &[code]).is_none());
    }

    #[test]
    fn every_conflict_of_a_text_is_resolved_or_none() {
        let m = Markers::default();
        let hunk = |t: &str| {
            format!(
                "<<<<<<< ours\n{}\n||||||| base\n{}\n=======\n{t}\n>>>>>>> theirs\n",
                value("2"),
                value("1")
            )
        };
        let text = format!("a\n{}b\n", hunk(&value("0")));
        assert_eq!(
            resolved(&text, &m).unwrap(),
            format!("a\n{}\nb\n", value("poison"))
        );
        let code = format!("a\n{}b\n", hunk("  ret void"));
        assert!(resolved(&code, &m).is_none());
        assert!(resolved("a\nb\n", &m).is_none());
    }
}
