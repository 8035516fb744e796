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
}

impl Outcome {
    /// `bytes` written as they are, with `conflicts` regions.
    pub(crate) fn exact(bytes: &[u8], conflicts: usize) -> Outcome {
        Outcome {
            text: String::from_utf8_lossy(bytes).into_owned(),
            bytes: Some(bytes.to_vec()),
            conflicts,
            notes: Vec::new(),
        }
    }

    /// `text` written as it is (as [`Outcome::exact`] of its bytes).
    pub(crate) fn exact_text(text: String) -> Outcome {
        Outcome {
            bytes: Some(text.clone().into_bytes()),
            text,
            conflicts: 0,
            notes: Vec::new(),
        }
    }

    /// `bytes` written as they are, keeping this outcome's notes.
    pub(crate) fn replaced_by(self, bytes: &[u8], conflicts: usize) -> Outcome {
        let mut out = Outcome::exact(bytes, conflicts);
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
