//! The writers of a result in ours' text: every line of ours that theirs did
//! not change stays byte for byte, and theirs' changes come in with ours'
//! names.
//!
//! - [`faithful`] translates base and theirs into ours' names, value by
//!   value, through the matching the structured merge computed;
//! - [`lines`] merges the three texts line by line once they share names;
//! - [`placed`] places theirs' change in ours' layout when ours was
//!   reprinted (blocks or functions reordered);
//! - [`llvm_comments`] writes LLVM's own `; preds = ...` comments again
//!   where the merged branches changed them.
//!
//! ```text
//! base:    %5 = add i32 %4, 1        ours:  %5 = add i32 %4, 1   ; ours' note
//! theirs:  %x = add i32 %w, 7        (theirs renamed %4 → %w, %5 → %x, changed 1 → 7)
//! theirs': %5 = add i32 %4, 7        (in ours' names)
//! merged:  %5 = add i32 %4, 7   ; ours' note
//! ```

pub(crate) mod faithful;
pub(crate) mod lines;
pub(crate) mod llvm_comments;
pub(crate) mod placed;

use super::matching;
use super::model::Side;
use super::outcome::MergeError;
use super::render::Markers;
use super::structured::Structured;

/// Base and theirs in ours' names, and their line merge with ours.
pub(crate) struct OursText {
    /// Base, translated into ours' names.
    pub(crate) base: String,
    /// Theirs, translated into ours' names.
    pub(crate) theirs: String,
    /// Values both sides renamed differently: (theirs' name, function).
    pub(crate) rename_clashes: Vec<(String, String)>,
    /// The line merge of base, ours and theirs, all in ours' names.
    pub(crate) merged: lines::LineMerge,
}

impl OursText {
    /// Translates base and theirs (`texts`, as written) into ours' names
    /// and merges the three line by line. `inputs` are the same sides as
    /// bytes, for the source names a load skipped.
    pub(crate) fn write(
        structured: &mut Structured,
        inputs: [&[u8]; 3],
        texts: [&str; 3],
        path: &str,
        markers: &Markers,
    ) -> Result<OursText, MergeError> {
        let mut timer = crate::canon::PhaseTimer::new();
        let [base, ours, theirs] = inputs;
        let names = structured.take_source_names(base, ours, theirs, path, markers)?;
        timer.lap("merge: source names");
        let side = |side, text, names, model, undo| faithful::SideText {
            side,
            text,
            names,
            model,
            undo,
        };
        let none = std::collections::BTreeMap::new();
        let s = &*structured;
        let sb = side(Side::Base, texts[0], &names[0], &s.mo, &none);
        let so = side(Side::Ours, texts[1], &names[1], &s.ma, &s.plan.undo_ours);
        let st = side(
            Side::Theirs,
            texts[2],
            &names[2],
            &s.mb,
            &s.plan.undo_theirs,
        );
        let translated = in_ours_names(&sb, &so, &st, &s.matched);
        timer.lap("merge: base and theirs in ours' names");
        let merged = {
            let order = faithful::free_order(&translated.base);
            lines::merge3(
                &translated.base,
                texts[1],
                &translated.theirs,
                markers,
                &order,
            )
        };
        timer.lap("merge: line merge in ours' names");
        Ok(OursText {
            base: translated.base,
            theirs: translated.theirs,
            rename_clashes: translated.rename_clashes,
            merged,
        })
    }

    /// Base, ours and theirs, all in ours' names.
    pub(crate) fn sides<'a>(&'a self, ours: &'a str) -> [&'a str; 3] {
        [&self.base, ours, &self.theirs]
    }
}

/// Base and theirs translated into ours' names, without the items theirs
/// added that ours added too (elsewhere, with the same text).
fn in_ours_names(
    base: &faithful::SideText<'_>,
    ours: &faithful::SideText<'_>,
    theirs: &faithful::SideText<'_>,
    matched: &[matching::Matchings; 2],
) -> faithful::Translated {
    let mut translated = faithful::translate_matched(base, ours, theirs, matched);
    if let Some(without) =
        faithful::without_items_ours_added(base.text, ours.text, theirs.text, &translated.theirs)
    {
        translated.theirs = without;
    }
    translated
}
