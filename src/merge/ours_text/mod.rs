//! The writers of a result in ours' text: every line of ours that theirs did
//! not change stays byte for byte, and theirs' changes come in with ours'
//! names.
//!
//! - [`faithful`] translates base and theirs into ours' names, value by
//!   value, through the matching the structured merge computed;
//! - [`lines`] merges the three texts line by line once they share names;
//! - [`placed`] places theirs' change in ours' layout when ours was
//!   reprinted (blocks or functions reordered);
//! - [`entities`] writes anew only the entities the merge changes, where
//!   its change has no place line by line (ours in an older dialect);
//! - [`llvm_comments`] writes LLVM's own `; preds = ...` comments again
//!   where the merged branches changed them.
//!
//! ```text
//! base:    %5 = add i32 %4, 1        ours:  %5 = add i32 %4, 1   ; ours' note
//! theirs:  %x = add i32 %w, 7        (theirs renamed %4 → %w, %5 → %x, changed 1 → 7)
//! theirs': %5 = add i32 %4, 7        (in ours' names)
//! merged:  %5 = add i32 %4, 7   ; ours' note
//! ```

pub(crate) mod entities;
pub(crate) mod lines;
pub(crate) mod llvm_comments;
pub(crate) mod placed;

use crate::canon::source_map::SourceNames;
use crate::ir::Session;
use crate::three::Three;

use super::loading::load;
use super::outcome::{debug_dump, MergeError};
use super::render::Markers;
use super::structured::Structured;
use crate::compare::model::{self, ModuleText};
use crate::three::Side;

use crate::compare::{faithful, matching};

/// Base and theirs in ours' names, and their line merge with ours.
pub(crate) struct OursText {
    /// Base, translated into ours' names.
    pub(crate) base: String,
    /// Theirs, translated into ours' names.
    pub(crate) theirs: String,
    /// Values both sides renamed differently: (theirs' name, function).
    pub(crate) rename_clashes: Vec<(String, String)>,
    /// The line merge of base, ours and theirs, all in ours' names.
    pub(crate) merged: crate::merge::fallback::LineMerge,
    /// Ours' canonical names → ours' tokens.
    pub(crate) ours_names: SourceNames,
    /// Base and theirs as a conflict shows them: renumbered the way LLVM
    /// prints them (no placeholder for a new unnamed value left).
    shown: std::cell::OnceCell<[String; 2]>,
}

impl OursText {
    /// Translates base and theirs (`texts`, as written) into ours' names
    /// and merges the three line by line. `inputs` are the same sides as
    /// bytes, for the source names a load skipped.
    pub(crate) fn write(
        structured: &mut Structured,
        inputs: Three<&[u8]>,
        texts: Three<&str>,
        path: &str,
        markers: &Markers,
    ) -> Result<OursText, MergeError> {
        let mut timer = crate::canon::PhaseTimer::new();
        let Three {
            base: base_names,
            ours: ours_names,
            theirs: theirs_names,
        } = structured.take_source_names(inputs, path, markers)?;
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
        let sb = side(Side::Base, texts.base, &base_names, &s.mo, &none);
        let so = side(
            Side::Ours,
            texts.ours,
            &ours_names,
            &s.ma,
            &s.plan.undo_ours,
        );
        let st = side(
            Side::Theirs,
            texts.theirs,
            &theirs_names,
            &s.mb,
            &s.plan.undo_theirs,
        );
        let translated = in_ours_names(&sb, &so, &st, &s.matched);
        timer.lap("merge: base and theirs in ours' names");
        let merged = {
            let order = faithful::free_order(&translated.base);
            lines::merge3(
                &translated.base,
                texts.ours,
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
            ours_names,
            shown: std::cell::OnceCell::new(),
        })
    }

    /// Base, ours and theirs, all in ours' names, as a conflict shows
    /// them (base and theirs renumbered the way LLVM prints them).
    pub(crate) fn sides<'a>(&'a self, ours: &'a str) -> Three<&'a str> {
        let [base, theirs] = self
            .shown
            .get_or_init(|| [&self.base, &self.theirs].map(|t| faithful::renumber(t)));
        Three::new(base, ours, theirs)
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

/// The structured merge's result written in ours' layout. Ours' canonical
/// form and the result, both translated into ours' names, differ by exactly
/// what the merge changes in ours; that change is placed in ours' text
/// ([`placed`]), or merged line by line with it, or, failing both, written
/// entity by entity ([`entities`]). Only the lines (entities) the merge
/// changes are written anew, in ours' names where ours has the values.
/// The texts this gives, best first (each still to be checked).
///
/// ```text
/// ours:            %5 = add i32 %4, 1      ; note       (ours' layout and names)
/// ours canonical:  %add.1f2e = add i32 %arg0, 1  ->  in ours' names: %5 = add i32 %4, 1
/// result:          %add.77c1 = add i32 %arg0, 7  ->  in ours' names: %5 = add i32 %4, 7
/// written:         %5 = add i32 %4, 7      ; note
/// ```
pub(crate) fn result_in_ours_layout(
    result: &str,
    ours_canonical: &str,
    ours: (&str, &SourceNames, &ModuleText),
    path: &str,
    markers: &Markers,
) -> Vec<String> {
    let (ours_text, ours_names, ours_model) = ours;
    let (Some(reprinted), Some(merged)) = (
        canonical_side(ours_canonical, path),
        canonical_side(result, path),
    ) else {
        return Vec::new();
    };
    let none = std::collections::BTreeMap::new();
    let side = |side, text, names, model| faithful::SideText {
        side,
        text,
        names,
        model,
        undo: &none,
    };
    let base = side(Side::Base, ours_canonical, &reprinted.0, &reprinted.1);
    let ours = side(Side::Ours, ours_text, ours_names, ours_model);
    let theirs = side(Side::Theirs, result, &merged.0, &merged.1);
    let translated = faithful::translate(&base, &ours, &theirs);
    debug_dump(&[
        ("ours-reprinted-in-ours-names.ll", &translated.base),
        ("result-in-ours-names.ll", &translated.theirs),
    ]);
    let mut texts = Vec::new();
    if let Some(placed) = placed::place_reprinted(&translated.base, ours_text, &translated.theirs) {
        texts.push(faithful::renumber(&placed));
    }
    let order = faithful::free_order(&translated.base);
    let merged = lines::merge3(
        &translated.base,
        ours_text,
        &translated.theirs,
        markers,
        &order,
    );
    if merged.conflicts == 0 {
        texts.push(faithful::renumber(&merged.text));
    }
    if let Some(anew) = entities::written_anew(&translated.base, ours_text, &translated.theirs) {
        texts.push(faithful::renumber(&anew));
    }
    texts
}

/// A canonical text's names (each its own, since canonicalizing a
/// canonical text changes nothing) and its model.
fn canonical_side(text: &str, path: &str) -> Option<(SourceNames, ModuleText)> {
    let (again, names) = load(&Session::new(), text.as_bytes(), path, "merged", &|_| true).ok()?;
    let model = model::parse(&again, "merged").ok()?;
    Some((names.unwrap_or_default(), model))
}
