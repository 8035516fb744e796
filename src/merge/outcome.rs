//! What a merge hands back: the text or bytes to write, the number of
//! conflicts and the notes for stderr; and why a structured merge could not
//! decide ([`MergeError`]).
//!
//! ```text
//! Outcome { bytes: Some(ours' text with theirs' line), conflicts: 0,
//!           notes: ["1 debug value record(s) ... written as unknown (poison)"] }
//! ```

/// The result of a merge.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The merged module: the bytes to write when `bytes` is `None`
    /// (canonical IR when clean, text with markers otherwise).
    pub text: String,
    /// Exactly the bytes to write, when the result is written in ours' text
    /// (or is one of the inputs, byte for byte).
    pub bytes: Option<Vec<u8>>,
    /// Number of conflicting regions (0 = clean).
    pub conflicts: usize,
    /// What the user should know about how the result was written.
    pub notes: Vec<String>,
    /// The route of the merge that made it.
    pub made_by: MadeBy,
}

/// The route of the merge that made an outcome: the one decision each
/// merge ends in, for tests to assert on (the notes say it in words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MadeBy {
    /// The structured merge's own text: bitcode, or its result before a
    /// writer is chosen.
    Structured,
    /// A clean result, written by this writer (`merge::choose`).
    Written(Writer),
    /// A test whose CHECK lines a script wrote: its IR merged, its CHECK
    /// lines written anew for the merged IR (`checks::regenerate`).
    Regenerated,
    /// A conflict, for this reason.
    Conflict(Conflict),
}

impl From<Conflict> for MadeBy {
    fn from(why: Conflict) -> MadeBy {
        MadeBy::Conflict(why)
    }
}

/// Why a merge is written as a conflict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflict {
    /// The structured merge conflicts.
    Structured,
    /// A call to a signature, or a function, the other side changed.
    CallClash,
    /// Both sides renamed one value differently.
    RenameClash,
    /// A writer's clean result means something else than the structured merge's.
    Disagreement,
    /// The structured merge is clean, but no writer could write it in ours' text.
    ForReview,
    /// Conflicts that, taken all ours' or all theirs', would not parse:
    /// widened to the lines where the files differ.
    Widened,
    /// Debug lines that cannot be placed where one side's source lines moved.
    DebugLines,
    /// A generated test's merged CHECK lines that FileCheck does not pass (`checks`).
    GeneratedChecks,
}

/// The ways of writing a clean result, in order of preference: the first
/// two are proven without the structured merge, the others are written
/// when they mean what it means (`merge::choose`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// One side changed nothing: the other side, byte for byte.
    UnchangedSide,
    /// Every hunk of both sides text-safe: git's clean result, checked by
    /// one LLVM load (`merge::text_safe`).
    TextSafe,
    /// `git merge-file`'s clean result.
    GitResult,
    /// Base and theirs translated into ours' names, merged line by line.
    OursText,
    /// [`Writer::OursText`] with each declaration theirs removed that the
    /// merge kept (ours' new code calls it) put back ([`super::kept_declarations`]).
    OursTextDeclarationsKept,
    /// [`Writer::OursText`] with the debug values both sides changed
    /// written unknown ([`super::debug_values`]).
    OursTextUnknownDebugValues,
    /// Theirs' change placed in ours' layout (ours was reprinted).
    PlacedLines,
    /// The structured result itself, written into ours' text: only the
    /// lines the merge changes are written anew, in ours' names where ours
    /// has the values ([`super::ours_text::result_in_ours_layout`]).
    ResultInOursLayout,
    /// The structured merge in canonical form (no comments).
    CanonicalForm,
}

impl Writer {
    /// Who derived a result written this way, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Writer::UnchangedSide => "the side that changed",
            Writer::TextSafe => "git merge-file, every hunk text-safe",
            Writer::GitResult => "git merge-file",
            Writer::OursText => "the line merge in ours' names",
            Writer::OursTextDeclarationsKept => {
                "the line merge in ours' names, with the declarations kept"
            }
            Writer::OursTextUnknownDebugValues => {
                "the line merge with its conflicting debug values unknown"
            }
            Writer::PlacedLines => "theirs' change placed in ours' layout",
            Writer::ResultInOursLayout => "the structured result in ours' layout",
            Writer::CanonicalForm => "the canonical form",
        }
    }
}

impl Outcome {
    /// `bytes` written as they are, with `conflicts` regions, made by `made_by`.
    pub(crate) fn exact(bytes: &[u8], conflicts: usize, made_by: MadeBy) -> Outcome {
        Outcome {
            text: String::from_utf8_lossy(bytes).into_owned(),
            bytes: Some(bytes.to_vec()),
            conflicts,
            notes: Vec::new(),
            made_by,
        }
    }

    /// `text` written as it is, clean (as [`Outcome::exact`] of its bytes).
    pub(crate) fn exact_text(text: String, made_by: MadeBy) -> Outcome {
        Outcome {
            bytes: Some(text.clone().into_bytes()),
            text,
            conflicts: 0,
            notes: Vec::new(),
            made_by,
        }
    }

    /// `bytes` written as they are, keeping this outcome's notes and route.
    pub(crate) fn replaced_by(self, bytes: &[u8], conflicts: usize) -> Outcome {
        let mut out = Outcome::exact(bytes, conflicts, self.made_by);
        out.notes = self.notes;
        out
    }

    /// The text this outcome writes.
    pub(crate) fn written_text(&self) -> String {
        match &self.bytes {
            Some(b) => String::from_utf8_lossy(b).into_owned(),
            None => self.text.clone(),
        }
    }
}

/// Why the structured merge could not decide.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// An input is not valid IR (a line merge is the right tool).
    #[error("{0}")]
    Input(String),
    /// The structured merge itself failed (never a clean result).
    #[error("{0}")]
    Internal(String),
}

/// Writes intermediate texts to the directory `IRGIT_DEBUG_MERGE` names
/// (a debugging aid; nothing is written without it).
pub(crate) fn debug_dump(files: &[(&str, &str)]) {
    let Some(dir) = std::env::var_os("IRGIT_DEBUG_MERGE") else {
        return;
    };
    for (name, text) in files {
        let _ = std::fs::write(std::path::Path::new(&dir).join(name), text);
    }
}
