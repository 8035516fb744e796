//! Conflict markers: the merged text with each conflicting region between
//! markers of git's length `%L`, labelled with the side names.
//!
//! ```text
//! <<<<<<< ours                 (diff3 style; `merge` style drops the base part)
//!   %x = add i32 %arg0, 2
//! ||||||| base
//!   %x = add i32 %arg0, 1
//! =======
//!   %x = add i32 %arg0, 3
//! >>>>>>> theirs
//! ```

use super::apply::Piece;

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
pub fn render(pieces: &[Piece], m: &Markers) -> String {
    let mut s = String::new();
    let mark = |c: char| c.to_string().repeat(m.size.max(1));
    for p in pieces {
        match p {
            Piece::Text(t) => {
                s.push_str(t);
                s.push('\n');
            }
            Piece::Conflict { ours, base, theirs } => {
                s.push_str(&format!("{} {}\n", mark('<'), m.ours));
                for l in ours {
                    s.push_str(l);
                    s.push('\n');
                }
                if m.style == Style::Diff3 {
                    s.push_str(&format!("{} {}\n", mark('|'), m.base));
                    for l in base {
                        s.push_str(l);
                        s.push('\n');
                    }
                }
                s.push_str(&mark('='));
                s.push('\n');
                for l in theirs {
                    s.push_str(l);
                    s.push('\n');
                }
                s.push_str(&format!("{} {}\n", mark('>'), m.theirs));
            }
        }
    }
    s
}

/// Which side's lines a conflicting region keeps in [`resolved`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    Ours,
    Theirs,
}

/// Prints pieces with every conflict resolved to one side's lines (no
/// markers).
pub fn resolved(pieces: &[Piece], keep: Keep) -> String {
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

/// One conflict region over three texts (each a run of whole lines): ours,
/// base (diff3 style only) and theirs, between markers of `m.size`.
pub fn conflict_hunk(ours: &str, base: &str, theirs: &str, m: &Markers) -> String {
    let mark = |c: char| c.to_string().repeat(m.size.max(1));
    let section = |t: &str| {
        let mut t = t.to_string();
        if !t.is_empty() && !t.ends_with('\n') {
            t.push('\n');
        }
        t
    };
    let mut out = format!("{} {}\n{}", mark('<'), m.ours, section(ours));
    if m.style == Style::Diff3 {
        out.push_str(&format!("{} {}\n{}", mark('|'), m.base, section(base)));
    }
    out.push_str(&format!(
        "{}\n{}{} {}\n",
        mark('='),
        section(theirs),
        mark('>'),
        m.theirs
    ));
    out
}
