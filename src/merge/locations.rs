//! Debug locations merged apart from the code they are attached to.
//!
//! At -O2 -g one side's edit changes the `!dbg` of instructions it did not
//! otherwise touch (a helper inlined into the edited function: its atom
//! groups renumbered), next to the other side's change of code. Merged as
//! whole lines, that is a conflict. Here a block's code merges first (its
//! lines without their `!dbg`, under the usual rules), then each merged
//! instruction's location: an instruction is paired with the base's (equal
//! code, or the same value or kind of instruction at the same place in a
//! stretch both versions replaced line for line); the side that changed the
//! location wins, and two sides that changed it differently conflict on that
//! instruction.
//!
//! ```text
//! base:   %t = trunc i32 %x to i16, !dbg !5
//! ours:   %t = trunc nuw i32 %x to i16, !dbg !5     (the code)
//! theirs: %t = trunc i32 %x to i16, !dbg !9         (the location)
//! merged: %t = trunc nuw i32 %x to i16, !dbg !9
//! ```
//!
//! A debug record's variable and location operands are where it came from
//! in the same way; its variable is known in the code by the source
//! variable it is (name, argument, line, function), so a variable that
//! became another node (its type changed: a function's debug info is then
//! all other nodes) is still the same record:
//!
//! ```text
//! base:   #dbg_value(i32 1, !14, !DIExpression(), !15)     !14 = !DILocalVariable(name: "rs", ...)
//! ours:   #dbg_value(i32 1, !23, !DIExpression(), !24)     !23 = !DILocalVariable(name: "rs", ..., type: !30)
//! theirs: #dbg_value(i32 -1, !14, !DIExpression(), !15)
//! merged: #dbg_value(i32 -1, !23, !DIExpression(), !24)
//! ```

use crate::three::Three;
use std::borrow::Cow;

use rustc_hash::FxHashMap as HashMap;

use super::conflict::{merge3, Chunk};
use crate::canon::debug_lines::field;
use crate::compare::diff;
use crate::compare::model::{KeyedLine, ModuleText, SideTables};
use crate::text::def_name;

use crate::hash::StableHasher;

/// How a `!dbg` attachment starts.
const DBG: &str = ", !dbg !";

/// How a debug record starts.
const RECORD: &str = "#dbg_";

/// Marks the end of a line's code and the start of where it came from.
const ORIGIN: char = '\u{0}';

/// The source variable each `DILocalVariable` is, by the key
/// ([`SideTables`]) lines refer to it with, in all three versions.
#[derive(Default)]
pub(crate) struct Variables(HashMap<u64, u64>);

impl Variables {
    /// The variables of base, ours and theirs.
    pub(crate) fn new(versions: Three<(&ModuleText, &SideTables)>) -> Variables {
        let mut out = HashMap::default();
        for (m, t) in versions {
            for (&n, rhs) in &m.meta {
                if !rhs.starts_with("!DILocalVariable(") {
                    continue;
                }
                if let (Some((key, _)), Some(v)) = (t.meta_key(n), source_variable(m, rhs)) {
                    out.insert(key, v);
                }
            }
        }
        Variables(out)
    }
}

/// A variable's name, argument number, line and function (its scopes'
/// subprogram's name). A line the rebasing could not place counts as the
/// line its version had: the variable of a declaration one side edited.
fn source_variable(m: &ModuleText, rhs: &str) -> Option<u64> {
    let text = |r: &str, f: &str| field(r, f).map_or("", |(_, v)| v).to_string();
    let line = text(rhs, "line")
        .parse::<u32>()
        .ok()
        .map(super::rebase_lines::own_line);
    let mut scope = rhs.to_string();
    for _ in 0..64 {
        let n: u32 = text(&scope, "scope").strip_prefix('!')?.parse().ok()?;
        scope = m.meta.get(&n)?.clone();
        if scope
            .trim_start_matches("distinct ")
            .starts_with("!DISubprogram(")
        {
            let h = StableHasher::new()
                .str(&text(rhs, "name"))
                .str(&text(rhs, "arg"));
            let h = h.u64(line? as u64).str(&text(&scope, "name"));
            return Some(h.finish());
        }
    }
    None
}

/// Three-way merge of a block's lines, code first, then locations.
pub(crate) fn merge_block<'a>(
    o: &[KeyedLine<'a>],
    a: &[KeyedLine<'a>],
    b: &[KeyedLine<'a>],
    vars: &Variables,
) -> Vec<Chunk<'a>> {
    let sides = [o, a, b];
    let placed = |l: &KeyedLine| l.key.contains(DBG) || l.key.starts_with(RECORD);
    if !sides.iter().any(|s| s.iter().any(placed)) {
        return merge3(o, a, b);
    }
    let code: [Vec<KeyedLine<'a>>; 3] = std::array::from_fn(|s| {
        let lines = sides[s].iter().enumerate();
        lines.map(|(i, l)| code_of(l, s, i, vars)).collect()
    });
    let to_base = [partners(&code[0], &code[1]), partners(&code[0], &code[2])];
    let from_base = to_base
        .clone()
        .map(|m| m.into_iter().map(|(s, o)| (o, s)).collect());
    let located = Located {
        sides,
        to_base,
        from_base,
    };
    let mut out: Vec<Chunk<'a>> = Vec::new();
    for chunk in merge3(&code[0], &code[1], &code[2]) {
        let pieces = match chunk {
            Chunk::Clean(v) => located.clean(&v),
            Chunk::Conflict { ours, base, theirs } => {
                let [ours, base, theirs] = [ours, base, theirs].map(|v| located.originals(&v));
                vec![
                    unknown_values_of(&ours, &base, &theirs).unwrap_or(Chunk::Conflict {
                        ours,
                        base,
                        theirs,
                    }),
                ]
            }
        };
        for p in pieces {
            match (out.last_mut(), p) {
                (Some(Chunk::Clean(v)), Chunk::Clean(w)) => v.extend(w),
                (_, p) => out.push(p),
            }
        }
    }
    out
}

/// A conflict of debug values only, resolved as unknown values
/// ([`super::debug_values`]).
fn unknown_values_of<'a>(
    ours: &[KeyedLine],
    base: &[KeyedLine],
    theirs: &[KeyedLine],
) -> Option<Chunk<'a>> {
    fn texts<'l>(v: &'l [KeyedLine]) -> Vec<&'l str> {
        v.iter().map(|l| &*l.out).collect()
    }
    let unknown = super::debug_values::unknown_values(&texts(ours), &texts(base), &texts(theirs))?;
    let lines = unknown
        .into_iter()
        .map(|u| KeyedLine {
            key: Cow::Owned(u.clone()),
            out: Cow::Owned(u),
        })
        .collect();
    Some(Chunk::Clean(lines))
}

/// The byte range of `s`'s `!dbg` attachment (`, !dbg !N`).
fn attachment(s: &str) -> Option<std::ops::Range<usize>> {
    let at = s.find(DBG)?;
    let token = at + DBG.len();
    let end = s[token..]
        .find(|c: char| c == ',' || c.is_whitespace())
        .map_or(s.len(), |e| token + e);
    Some(at..end)
}

/// Where line `s` came from: its `!dbg` attachment; a debug record's
/// variable and location operands.
fn places(s: &str) -> Vec<std::ops::Range<usize>> {
    if !s.starts_with(RECORD) {
        return attachment(s).into_iter().collect();
    }
    let args = operands(s);
    match args.len() {
        n if n >= 4 => vec![args[1].clone(), args[n - 1].clone()],
        _ => Vec::new(),
    }
}

/// The operands of a debug record `#dbg_kind(x, y, ...)`.
fn operands(s: &str) -> Vec<std::ops::Range<usize>> {
    let Some(open) = s.find('(') else {
        return Vec::new();
    };
    let (mut out, mut depth, mut quoted, mut start) = (Vec::new(), 0, false, open + 1);
    for (i, c) in s.bytes().enumerate().skip(open + 1) {
        match c {
            b'"' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted && depth == 0 => {
                out.push(start..i);
                return out;
            }
            b')' if !quoted => depth -= 1,
            b',' if !quoted && depth == 0 => {
                out.push(start..i);
                start = i + 2;
            }
            _ => {}
        }
    }
    Vec::new()
}

/// `s` with each of its [`places`] replaced by `f(place)`.
fn with_places(s: &str, mut f: impl FnMut(usize, &str) -> String) -> String {
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    for (k, r) in places(s).into_iter().enumerate() {
        out.push_str(&s[copied..r.start]);
        out.push_str(&f(k, &s[r.clone()]));
        copied = r.end;
    }
    out.push_str(&s[copied..]);
    out
}

/// `s` without its `!dbg` attachment, a record without its variable and
/// location operands.
fn without_location(s: &str) -> Cow<'_, str> {
    match places(s).is_empty() {
        true => Cow::Borrowed(s),
        false => Cow::Owned(with_places(s, |_, _| String::new())),
    }
}

/// Line `i` of version `side` without its location, its origin appended
/// to its output; a record's variable is in its key as the source variable.
fn code_of<'a>(l: &KeyedLine<'a>, side: usize, i: usize, vars: &Variables) -> KeyedLine<'a> {
    let key = with_places(&l.key, |k, p| {
        let var = p
            .strip_prefix("!k")
            .and_then(|h| u64::from_str_radix(h, 16).ok());
        match (
            k,
            l.key.starts_with(RECORD),
            var.and_then(|v| vars.0.get(&v)),
        ) {
            (0, true, Some(v)) => format!("!v{v:x}"),
            (0, true, None) => p.to_string(),
            _ => String::new(),
        }
    });
    KeyedLine {
        key: Cow::Owned(key),
        out: Cow::Owned(format!("{}{ORIGIN}{side}:{i}", without_location(&l.out))),
    }
}

/// (version, index) of a line made by [`code_of`].
fn origin(l: &KeyedLine) -> (usize, usize) {
    let (_, tag) = l.out.rsplit_once(ORIGIN).expect("a line of the code merge");
    let (s, i) = tag.split_once(':').expect("an origin");
    (s.parse().expect("a version"), i.parse().expect("an index"))
}

/// What kind of instruction a line is: the value it defines, else its
/// first word.
fn shape(l: &KeyedLine) -> String {
    let text = l.out.split(ORIGIN).next().unwrap_or("");
    match def_name(text) {
        Some(d) => format!("%{d}"),
        None => text.split_whitespace().next().unwrap_or("").to_string(),
    }
}

/// Each side line's base line: equal code (the diff's common lines), or in
/// a stretch both replaced with as many lines, the line at the same place
/// when it is the same value or kind of instruction.
fn partners(o: &[KeyedLine], s: &[KeyedLine]) -> HashMap<usize, usize> {
    let ok: Vec<&str> = o.iter().map(|l| &*l.key).collect();
    let sk: Vec<&str> = s.iter().map(|l| &*l.key).collect();
    let mut out = HashMap::default();
    let (mut pi, mut pj) = (0, 0);
    let ends = std::iter::once((o.len(), s.len()));
    for (i, j) in diff::common(&ok, &sk).into_iter().chain(ends) {
        if i - pi == j - pj {
            let gap = (pi..i).zip(pj..j);
            out.extend(
                gap.filter(|&(x, y)| shape(&o[x]) == shape(&s[y]))
                    .map(|(x, y)| (y, x)),
            );
        }
        if i < o.len() {
            out.insert(j, i);
        }
        (pi, pj) = (i + 1, j + 1);
    }
    out
}

/// The three versions and how ours' and theirs' lines pair with the base's.
struct Located<'s, 'a> {
    sides: [&'s [KeyedLine<'a>]; 3],
    /// Ours', theirs': side index → base index.
    to_base: [HashMap<usize, usize>; 2],
    /// Ours', theirs': base index → side index.
    from_base: [HashMap<usize, usize>; 2],
}

impl<'a> Located<'_, 'a> {
    /// The lines as the versions have them.
    fn originals(&self, lines: &[KeyedLine]) -> Vec<KeyedLine<'a>> {
        lines
            .iter()
            .map(|l| {
                let (s, i) = origin(l);
                self.sides[s][i].clone()
            })
            .collect()
    }

    /// Line `i` of version `side` and its partners: [base, ours, theirs].
    fn partners_of(&self, side: usize, i: usize) -> [Option<usize>; 3] {
        let base = match side {
            0 => Some(i),
            s => self.to_base[s - 1].get(&i).copied(),
        };
        let partner = |s: usize| match s == side {
            true => Some(i),
            false => base.and_then(|o| self.from_base[s - 1].get(&o).copied()),
        };
        [base, partner(1), partner(2)]
    }

    /// A clean stretch of merged code, each line with its location decided.
    fn clean(&self, v: &[KeyedLine]) -> Vec<Chunk<'a>> {
        v.iter().map(|l| self.located(l)).collect()
    }

    fn located(&self, l: &KeyedLine) -> Chunk<'a> {
        let (side, i) = origin(l);
        let own = &self.sides[side][i];
        let at = self.partners_of(side, i);
        let Some(o) = at[0] else {
            return Chunk::Clean(vec![own.clone()]);
        };
        let loc = |s: usize| at[s].map(|x| self.sides[s][x].key.as_ref()).map(key_loc);
        let base = key_loc(&self.sides[0][o].key);
        let (ours, theirs) = (
            loc(1).unwrap_or_else(|| base.clone()),
            loc(2).unwrap_or_else(|| base.clone()),
        );
        let winner = if ours == base {
            2
        } else if theirs == base || ours == theirs {
            1
        } else {
            let line = |s: usize| at[s].map(|x| self.sides[s][x].clone());
            return Chunk::Conflict {
                ours: line(1).into_iter().collect(),
                base: vec![self.sides[0][o].clone()],
                theirs: line(2).into_iter().collect(),
            };
        };
        let from = at[winner].map_or(&self.sides[0][o], |x| &self.sides[winner][x]);
        Chunk::Clean(vec![with_location_of(own, from)])
    }
}

/// The location part of a key (`None`: no `!dbg`): a record's variable
/// and location.
fn key_loc(key: &str) -> Option<String> {
    let p = places(key);
    (!p.is_empty()).then(|| p.into_iter().map(|r| &key[r]).collect::<Vec<_>>().join(" "))
}

/// `line` with the `!dbg` attachment `from` has (or none); a record with
/// `from`'s variable and location.
fn with_location_of<'a>(line: &KeyedLine<'a>, from: &KeyedLine) -> KeyedLine<'a> {
    if key_loc(&line.key) == key_loc(&from.key) {
        return line.clone();
    }
    if line.key.starts_with(RECORD) {
        let taken = |s: &str, f: &str| {
            let theirs: Vec<String> = places(f).into_iter().map(|r| f[r].to_string()).collect();
            with_places(s, |k, p| {
                theirs.get(k).cloned().unwrap_or_else(|| p.to_string())
            })
        };
        return KeyedLine {
            key: Cow::Owned(taken(&line.key, &from.key)),
            out: Cow::Owned(taken(&line.out, &from.out)),
        };
    }
    let moved = |s: &str, f: &str| -> String {
        let code = without_location(s);
        let Some(r) = attachment(f) else {
            return code.into_owned();
        };
        let at = attachment(s).map_or_else(|| first_attachment(&code), |r| r.start);
        format!("{}{}{}", &code[..at], &f[r], &code[at..])
    };
    KeyedLine {
        key: Cow::Owned(moved(&line.key, &from.key)),
        out: Cow::Owned(moved(&line.out, &from.out)),
    }
}

/// Where LLVM prints a `!dbg` attachment in an instruction that has none:
/// before its other attachments (`, !tbaa !3`), else at the end.
fn first_attachment(code: &str) -> usize {
    code.match_indices(", !")
        .find(|(p, _)| {
            let c = code[p + 3..].chars().next();
            c.is_some_and(|c| c.is_ascii_alphabetic())
        })
        .map_or(code.len(), |(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&'static str]) -> Vec<KeyedLine<'static>> {
        v.iter().map(|s| KeyedLine::verbatim(s)).collect()
    }

    fn clean(c: &[Chunk]) -> Option<Vec<String>> {
        let mut out = Vec::new();
        for x in c {
            match x {
                Chunk::Clean(v) => out.extend(v.iter().map(|l| l.out.to_string())),
                Chunk::Conflict { .. } => return None,
            }
        }
        Some(out)
    }

    #[test]
    fn code_from_one_side_and_location_from_the_other() {
        let o = lines(&[
            "%t = trunc i32 %x to i16, !dbg !5",
            "%u = urem i16 %t, 10, !dbg !5",
        ]);
        let a = lines(&[
            "%t = trunc nuw i32 %x to i16, !dbg !5",
            "%u = urem i16 %t, 10, !dbg !5",
        ]);
        let b = lines(&[
            "%t = trunc i32 %x to i16, !dbg !9",
            "%u = urem i16 %t, 10, !dbg !9",
        ]);
        assert_eq!(
            clean(&merge_block(&o, &a, &b, &Variables::default())).unwrap(),
            [
                "%t = trunc nuw i32 %x to i16, !dbg !9",
                "%u = urem i16 %t, 10, !dbg !9"
            ]
        );
    }

    #[test]
    fn a_record_takes_the_value_from_one_side_and_the_variable_from_the_other() {
        let o = lines(&["#dbg_value(i32 1, !k1, !DIExpression(), !k5)", "ret void"]);
        let a = lines(&["#dbg_value(i32 1, !k2, !DIExpression(), !k6)", "ret void"]);
        let b = lines(&["#dbg_value(i32 -1, !k1, !DIExpression(), !k5)", "ret void"]);
        // !k1 and !k2: the same source variable.
        let same = Variables([(1, 7), (2, 7)].into_iter().collect());
        assert_eq!(
            clean(&merge_block(&o, &a, &b, &same)).unwrap(),
            ["#dbg_value(i32 -1, !k2, !DIExpression(), !k6)", "ret void"]
        );
        let other = Variables([(1, 7), (2, 8)].into_iter().collect());
        assert_eq!(
            clean(&merge_block(&o, &a, &b, &other)),
            None,
            "another variable"
        );
    }

    #[test]
    fn two_new_locations_of_one_instruction_conflict() {
        let o = lines(&["store i32 %x, ptr @g, !dbg !5", "ret void"]);
        let a = lines(&["store i32 %x, ptr @g, !dbg !6", "ret void"]);
        let b = lines(&["store i32 %x, ptr @g, !dbg !7", "ret void"]);
        assert_eq!(clean(&merge_block(&o, &a, &b, &Variables::default())), None);
    }

    #[test]
    fn a_location_given_or_taken_keeps_the_other_attachments() {
        let o = lines(&["%v = load i32, ptr @g, !tbaa !3", "ret i32 %v, !dbg !4"]);
        let a = lines(&[
            "%v = load i32, ptr @g, !dbg !8, !tbaa !3",
            "ret i32 %v, !dbg !4",
        ]);
        let b = lines(&["%v = load i32, ptr @g, !tbaa !3", "ret i32 %v"]);
        assert_eq!(
            clean(&merge_block(&o, &a, &b, &Variables::default())).unwrap(),
            ["%v = load i32, ptr @g, !dbg !8, !tbaa !3", "ret i32 %v"]
        );
    }
}
