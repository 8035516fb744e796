//! Conflict markers: the merged text with each conflicting region between
//! markers of git's length `%L`, labelled with the side names, in git's
//! three styles (`merge.conflictStyle`).
//!
//! ```text
//! <<<<<<< ours                 (diff3 style; `merge` style drops the base part;
//!   %x = add i32 %arg0, 2       zdiff3 moves lines both sides share out of the
//! ||||||| base                  markers, as git's zdiff3 does)
//!   %x = add i32 %arg0, 1
//! =======
//!   %x = add i32 %arg0, 3
//! >>>>>>> theirs
//! ```

use crate::three::{Side, Three};

/// A stretch of the merged text: lines all agree on, or a conflict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    Text(String),
    Conflict {
        ours: Vec<String>,
        base: Vec<String>,
        theirs: Vec<String>,
    },
}

/// Conflict presentation.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// ours, base and theirs sections
    #[default]
    Diff3,
    /// ours and theirs sections only
    Merge,
    /// diff3, with the lines that open or close both sides' sections alike
    /// written outside the markers
    Zdiff3,
}

impl Style {
    /// The style git names `name` (`merge.conflictStyle`, `--conflict=`).
    pub(crate) fn from_git(name: &str) -> Option<Style> {
        match name.trim().to_ascii_lowercase().as_str() {
            "merge" => Some(Style::Merge),
            "diff3" => Some(Style::Diff3),
            "zdiff3" => Some(Style::Zdiff3),
            _ => None,
        }
    }

    /// Whether the base section is written.
    pub(crate) fn shows_base(self) -> bool {
        self != Style::Merge
    }
}

/// Marker labels and size.
#[derive(Debug, Clone)]
pub struct Markers {
    pub size: usize,
    pub style: Style,
    pub ours: String,
    pub base: String,
    pub theirs: String,
}

impl Default for Markers {
    fn default() -> Self {
        Markers {
            size: 7,
            style: Style::Diff3,
            ours: "ours".into(),
            base: "base".into(),
            theirs: "theirs".into(),
        }
    }
}

/// Prints pieces, with markers around conflicts.
pub(crate) fn render(pieces: &[Piece], m: &Markers) -> String {
    let mut s = String::new();
    let joined = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    for p in pieces {
        match p {
            Piece::Text(t) => {
                s.push_str(t);
                s.push('\n');
            }
            Piece::Conflict { ours, base, theirs } => {
                s.push_str(&conflict_hunk(
                    &joined(ours),
                    &joined(base),
                    &joined(theirs),
                    m,
                ));
            }
        }
    }
    s
}

/// Which side's lines a conflicting region keeps in [`resolved`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    Ours,
    Theirs,
}

/// Prints pieces with every conflict resolved to one side's lines (no
/// markers).
pub(crate) fn resolved(pieces: &[Piece], keep: Keep) -> String {
    let mut text = String::new();
    for piece in pieces {
        let lines = match (piece, keep) {
            (Piece::Text(t), _) => std::slice::from_ref(t),
            (Piece::Conflict { ours, .. }, Keep::Ours) => ours.as_slice(),
            (Piece::Conflict { theirs, .. }, Keep::Theirs) => theirs.as_slice(),
        };
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    text
}

/// A stretch of a text with conflict markers: a line outside every
/// conflict, or one conflict (lines with their line ends).
pub(crate) enum Region<'a> {
    Outside(&'a str),
    Conflict {
        ours: Vec<&'a str>,
        /// `None` in `merge` style.
        base: Option<Vec<&'a str>>,
        theirs: Vec<&'a str>,
        /// Whether its closing marker came (an unclosed conflict runs to
        /// the end of the text).
        closed: bool,
    },
}

/// The regions of a text with conflict markers of `m.size`, any style.
pub(crate) fn regions<'a>(text: &'a str, m: &Markers) -> Vec<Region<'a>> {
    let mark = |c: char| c.to_string().repeat(m.size.max(1));
    let (open, base, middle, close) = (mark('<'), mark('|'), mark('='), mark('>'));
    let is = |line: &str, marker: &str| {
        let line = line.trim_end_matches(['\n', '\r']);
        line.strip_prefix(marker)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
    };
    let mut out = Vec::new();
    // The section a line is in; `None` outside conflicts.
    let mut at: Option<Side> = None;
    let mut sections: Three<Vec<&str>> = Three::default();
    let mut has_base = false;
    let conflict = |sections: &mut Three<Vec<&'a str>>, has_base: bool, closed: bool| {
        let Three { base, ours, theirs } = std::mem::take(sections);
        Region::Conflict {
            ours,
            base: has_base.then_some(base),
            theirs,
            closed,
        }
    };
    for line in text.split_inclusive('\n') {
        at = match at {
            None if is(line, &open) => {
                has_base = false;
                Some(Side::Ours)
            }
            Some(Side::Ours) if is(line, &base) => {
                has_base = true;
                Some(Side::Base)
            }
            Some(Side::Ours | Side::Base) if is(line, &middle) => Some(Side::Theirs),
            Some(Side::Theirs) if is(line, &close) => {
                out.push(conflict(&mut sections, has_base, true));
                None
            }
            None => {
                out.push(Region::Outside(line));
                None
            }
            Some(side) => {
                sections[side].push(line);
                Some(side)
            }
        };
    }
    if at.is_some() {
        out.push(conflict(&mut sections, has_base, false));
    }
    out
}

/// Whether `text` has a conflict marked with markers of `m.size`.
pub(crate) fn has_conflicts(text: &str, m: &Markers) -> bool {
    regions(text, m)
        .iter()
        .any(|r| matches!(r, Region::Conflict { .. }))
}

/// A rendered text with every conflict resolved to one side's section
/// (markers of `m.size`, any style).
pub(crate) fn take_side(text: &str, keep: Keep, m: &Markers) -> String {
    let mut out = String::with_capacity(text.len());
    for region in regions(text, m) {
        match region {
            Region::Outside(line) => out.push_str(line),
            Region::Conflict { ours, theirs, .. } => {
                let side = match keep {
                    Keep::Ours => ours,
                    Keep::Theirs => theirs,
                };
                side.iter().for_each(|l| out.push_str(l));
            }
        }
    }
    out
}

/// One conflict region over three texts (each a run of whole lines): ours,
/// base (not in `merge` style) and theirs, between markers of `m.size`.
/// In zdiff3 style the lines that begin (end) both ours and theirs come
/// before (after) the markers.
pub(crate) fn conflict_hunk(ours: &str, base: &str, theirs: &str, m: &Markers) -> String {
    let mark = |c: char| c.to_string().repeat(m.size.max(1));
    let section = |t: &str| {
        let mut t = t.to_string();
        if !t.is_empty() && !t.ends_with('\n') {
            t.push('\n');
        }
        t
    };
    let (ours, theirs) = (section(ours), section(theirs));
    let (before, after) = match m.style {
        Style::Zdiff3 => shared_ends(&[&ours, &theirs]),
        _ => (0, 0),
    };
    let mut out = ours[..before].to_string();
    let inner = |t: &str| t[before..t.len() - after].to_string();
    out.push_str(&format!("{} {}\n{}", mark('<'), m.ours, inner(&ours)));
    if m.style.shows_base() {
        out.push_str(&format!("{} {}\n{}", mark('|'), m.base, section(base)));
    }
    out.push_str(&format!(
        "{}\n{}{} {}\n",
        mark('='),
        inner(&theirs),
        mark('>'),
        m.theirs
    ));
    out.push_str(&ours[ours.len() - after..]);
    out
}

/// Byte lengths of the whole lines that begin all `texts` and of those
/// that end them all (not overlapping: equal lines have equal lengths, so
/// the two counts hold for every text).
fn shared_ends(texts: &[&str]) -> (usize, usize) {
    let lines: Vec<Vec<&str>> = texts
        .iter()
        .map(|t| t.split_inclusive('\n').collect())
        .collect();
    let shortest = lines.iter().map(Vec::len).min().unwrap_or(0);
    let alike = |at: &dyn Fn(usize) -> usize| {
        lines
            .iter()
            .all(|l| l[at(l.len())] == lines[0][at(lines[0].len())])
    };
    let head = (0..shortest).take_while(|&i| alike(&|_| i)).count();
    let tail = (0..shortest - head)
        .take_while(|&i| alike(&|n| n - 1 - i))
        .count();
    let first = &lines[0];
    let bytes = |part: &[&str]| part.iter().map(|l| l.len()).sum::<usize>();
    (bytes(&first[..head]), bytes(&first[first.len() - tail..]))
}

/// [`conflict_hunk`] around the lines where the three texts differ: the
/// whole lines all three begin (end) with are written before (after) the
/// markers, as git's diff3 does. Each side's section, with what surrounds
/// it, is still that side's text.
pub(crate) fn narrowed_hunk(ours: &str, base: &str, theirs: &str, m: &Markers) -> String {
    let with_newline = |t: &str| {
        let mut t = t.to_string();
        if !t.is_empty() && !t.ends_with('\n') {
            t.push('\n');
        }
        t
    };
    let (o, b, t) = (with_newline(ours), with_newline(base), with_newline(theirs));
    let (head, tail) = shared_ends(&[&o, &b, &t]);
    let inner = |x: &str| x[head..x.len() - tail].to_string();
    let mut out = o[..head].to_string();
    out.push_str(&conflict_hunk(&inner(&o), &inner(&b), &inner(&t), m));
    out.push_str(&o[o.len() - tail..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn markers(style: Style) -> Markers {
        Markers {
            style,
            ..Markers::default()
        }
    }

    #[test]
    fn zdiff3_writes_shared_lines_outside_the_markers() {
        let hunk = conflict_hunk(
            "a\nx\nz\n",
            "a\nb\nz\n",
            "a\ny\nz\n",
            &markers(Style::Zdiff3),
        );
        assert_eq!(
            hunk,
            "a\n<<<<<<< ours\nx\n||||||| base\na\nb\nz\n=======\ny\n>>>>>>> theirs\nz\n"
        );
    }

    #[test]
    fn a_narrowed_hunk_leaves_the_lines_all_three_share_outside() {
        let hunk = narrowed_hunk(
            "f {\nx\n}\n",
            "f {\n}\n",
            "f {\ny\n}\n",
            &markers(Style::Diff3),
        );
        assert_eq!(
            hunk,
            "f {\n<<<<<<< ours\nx\n||||||| base\n=======\ny\n>>>>>>> theirs\n}\n"
        );
        let gone = narrowed_hunk("f {\n}\n", "f {\n}\n", "", &markers(Style::Merge));
        assert_eq!(gone, "<<<<<<< ours\nf {\n}\n=======\n>>>>>>> theirs\n");
    }

    #[test]
    fn merge_style_has_no_base_and_diff3_keeps_shared_lines_inside() {
        let merge = conflict_hunk("a\nx\n", "a\n", "a\ny\n", &markers(Style::Merge));
        assert_eq!(merge, "<<<<<<< ours\na\nx\n=======\na\ny\n>>>>>>> theirs\n");
        let diff3 = conflict_hunk("a\nx\n", "a\n", "a\ny\n", &markers(Style::Diff3));
        assert!(
            diff3.starts_with("<<<<<<< ours\na\nx\n||||||| base\na\n"),
            "{diff3}"
        );
    }
}
