//! The structured merge over canonical forms and base identities: each side
//! canonicalized and parsed into a model, functions a side renamed undone,
//! ours and theirs matched to the base and their edit scripts united
//! ([`super::apply`]); a clean result is then checked by LLVM
//! ([`Structured::finish`]).
//!
//! ```text
//! base:   %1 = add i32 %x, 1      ours:   %1 = add i32 %x, 1      theirs: %1 = add i32 %x, 5
//!         ret i32 %1                      %2 = mul i32 %1, 2              ret i32 %1
//!                                         ret i32 %2
//! merged: %add = add i32 %arg0, 5 / %mul = mul i32 %add, 2 / ret i32 %mul
//! ```

use crate::canon::source_map::SourceNames;
use crate::ir::Session;
use crate::three::Three;

use super::loading::{comment_free, debug_info_dropped, load, version_name};
use super::outcome::{debug_dump, MadeBy, MergeError, Outcome};
use super::render::{self, Markers};
use super::{apply, clash, isomorphic};
use crate::compare::{matching, model, rename};

/// What the structured merge decided, with what the writers need.
pub(crate) struct Structured {
    pub(crate) outcome: Outcome,
    /// The canonical form of a clean result (before header tidying), once
    /// [`Structured::finish`] has checked it.
    pub(crate) canonical: Option<String>,
    /// A clean result's text, before that check.
    pub(crate) rendered: Option<String>,
    /// Whether `canonical` was verified after canonicalization (not so when
    /// it is git's result's canonical form).
    pub(crate) canonical_verified: bool,
    /// Whether the result keeps `source_filename` (see [`tidy`]).
    pub(crate) keep_header: bool,
    pub(crate) mo: model::ModuleText,
    pub(crate) ma: model::ModuleText,
    pub(crate) mb: model::ModuleText,
    pub(crate) plan: rename::Plan,
    /// Ours' and theirs' functions matched to the base's.
    pub(crate) matched: [matching::Matchings; 2],
    /// Where the canonical names of base, ours, theirs came from, where the
    /// loads recorded them (see [`Structured::take_source_names`]).
    pub(crate) names: Three<Option<SourceNames>>,
    /// Ours' canonical form (none when ours renamed functions).
    pub(crate) ours_canonical: Option<String>,
}

/// A module without `source_filename` gets one from its parse name; the
/// result does not add that line to files that never had it.
fn tidy(text: &str, keep_header: bool) -> String {
    if keep_header {
        text.to_string()
    } else {
        let mut out = String::with_capacity(text.len());
        for l in text.lines() {
            if !l.starts_with("source_filename = ") && !l.starts_with("; ModuleID = ") {
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }
}

impl Structured {
    /// The source names of base, ours, theirs: those the loads recorded,
    /// and for an input whose load skipped them (expecting git's result to
    /// do), from the input canonicalized again.
    pub(crate) fn take_source_names(
        &mut self,
        inputs: Three<&[u8]>,
        path: &str,
        markers: &Markers,
    ) -> Result<Three<SourceNames>, MergeError> {
        let versions = Three::new(
            version_name("base", &markers.base),
            version_name("ours", &markers.ours),
            version_name("theirs", &markers.theirs),
        );
        let names = std::mem::take(&mut self.names);
        let names = std::thread::scope(|scope| {
            let handles = names
                .zip(inputs.zip(versions))
                .map(|(recorded, (bytes, side))| {
                    scope.spawn(move || match recorded {
                        Some(n) => Ok(n),
                        None => load(&Session::new(), bytes, path, &side, &|_| true)
                            .map(|(_, n)| n.unwrap_or_default()),
                    })
                });
            handles.map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
        });
        names.try_map(|n| n)
    }

    /// The clean result's calls that clash with a signature a side
    /// changed ([`clash`]); none when the result has conflicts.
    pub(crate) fn stale_calls(&self, ours: &[u8], theirs: &[u8], path: &str) -> Vec<clash::Clash> {
        let Some(merged) = self.canonical.as_deref() else {
            return Vec::new();
        };
        clash::stale_calls(
            Three::new(&self.mo, &self.ma, &self.mb),
            merged,
            [ours, theirs],
            path,
        )
    }

    /// Checks a clean result with LLVM (parse, verify) and sets its
    /// canonical form. `hint` is a canonical text already in hand (git's
    /// clean result's): when the rendered result is the same module
    /// ([`isomorphic::same_module`]), `hint` is its canonical form.
    pub(crate) fn finish(&mut self, path: &str, hint: Option<&str>) -> Result<(), MergeError> {
        let Some(text) = self.rendered.take() else {
            return Ok(());
        };
        debug_dump(&[
            ("structured.ll", &text),
            ("git-canonical.ll", hint.unwrap_or_default()),
        ]);
        let canonical = if let Some(h) = hint.filter(|h| isomorphic::same_module(&text, h)) {
            h.to_string()
        } else {
            self.canonical_verified = true;
            let session = Session::new();
            let m = session.parse(text.as_bytes(), path).map_err(|e| {
                MergeError::Internal(format!("the merged module does not parse: {e}"))
            })?;
            m.verify_as_parsed().map_err(|e| {
                MergeError::Internal(format!("the merged module does not verify: {e}"))
            })?;
            if debug_info_dropped(&text, &m) {
                return Err(MergeError::Internal(
                    "the merged module's debug info is invalid (LLVM drops it)".into(),
                ));
            }
            // This text may be handed out (the canonical fallback): verified
            // again after canonicalization.
            crate::canon::canonical_text(&m, &[], path, &comment_free())
                .map_err(|e| MergeError::Internal(e.to_string()))?
        };
        self.outcome.text = tidy(&canonical, self.keep_header);
        self.canonical = Some(canonical);
        Ok(())
    }
}

pub(crate) fn structured(
    Three { base, ours, theirs }: Three<&[u8]>,
    path: &str,
    markers: &Markers,
    names_wanted: &(dyn Fn(usize) -> bool + Sync),
) -> Result<Structured, MergeError> {
    let ours_version = version_name("ours", &markers.ours);
    let theirs_version = version_name("theirs", &markers.theirs);
    let loaded = loaded_three(Three::new(base, ours, theirs), path, markers, names_wanted)?;
    let Three {
        base: (to, no, mo),
        ours: (ta, na, mut ma),
        theirs: (tb, nb, mut mb),
    } = loaded;
    let names = Three::new(no, na, nb);
    let mut timer = crate::canon::PhaseTimer::new();
    timer.lap("merge: inputs canonicalized");
    // A module without `source_filename` gets one from its parse name; do
    // not add that line to files that never had it.
    let keep_header = !crate::ir::detect_format(base).eq(&crate::ir::Format::Text)
        || base.windows(15).any(|w| w == b"source_filename");
    let internal = |e: String| MergeError::Internal(e);
    let (plan, text, conflicts, matched) = if ta == to || tb == to || ta == tb {
        // A side that changed nothing: the other side's canonical text,
        // which [`Structured::finish`] checks like any result (the loads do
        // not verify after canonicalizing).
        let result = if ta == to { &tb } else { &ta };
        (
            rename::Plan::default(),
            result.clone(),
            0,
            Default::default(),
        )
    } else {
        // Renamed functions: undo each rename on its side (and canonicalize
        // again, so the callers' lines equal the base's), merge, redo.
        let plan = rename::plan(&mo, &ma, &mb);
        let undone = |canonical: &str, undo, side: &str| {
            let text = rename::replace_globals(canonical, undo);
            let (text, _) = load(&Session::new(), text.as_bytes(), path, side, &|_| false)?;
            model::parse(&text, side).map_err(internal)
        };
        if !plan.undo_ours.is_empty() {
            ma = undone(&ta, &plan.undo_ours, &ours_version)?;
        }
        if !plan.undo_theirs.is_empty() {
            mb = undone(&tb, &plan.undo_theirs, &theirs_version)?;
        }
        // The models hold what the merge needs of these texts.
        drop((to, tb));
        timer.lap("merge: models and renames");
        let merged = apply::merge_with(&mo, &ma, &mb, &plan.conflicts);
        timer.lap("merge: matched and merged");
        let text = rename::replace_globals(&render::render(&merged.pieces, markers), &plan.redo);
        (plan, text, merged.conflicts, merged.matched)
    };
    let clean = conflicts == 0;
    // Ours' canonical text stands for ours' layout reprinted (see
    // [`super::ours_text::result_in_ours_layout`]), unless ours renamed functions.
    let ours_canonical = plan.undo_ours.is_empty().then_some(ta);
    Ok(Structured {
        outcome: Outcome {
            // A clean result's text is set once [`Structured::finish`] checked it.
            text: if clean {
                String::new()
            } else {
                tidy(&text, keep_header)
            },
            bytes: None,
            conflicts,
            notes: Vec::new(),
            made_by: MadeBy::Structured,
        },
        canonical: None,
        rendered: clean.then_some(text),
        canonical_verified: false,
        keep_header,
        mo,
        ma,
        mb,
        plan,
        matched,
        names,
        ours_canonical,
    })
}

/// A canonical text, its source names (when wanted) and its model.
type Loaded = (String, Option<SourceNames>, model::ModuleText);

/// The three inputs loaded, ours and theirs on threads of their own.
fn loaded_three(
    Three { base, ours, theirs }: Three<&[u8]>,
    path: &str,
    markers: &Markers,
    names_wanted: &(dyn Fn(usize) -> bool + Sync),
) -> Result<Three<Loaded>, MergeError> {
    // One LLVM context per input: named types are per context, and a second
    // module in the same context would see `%struct.rect` renamed `%struct.rect.0`.
    // The three are independent: canonicalize ours and theirs on other
    // threads (a panic there resumes here, where the caller catches it).
    // Each thread also parses its canonical text into a model.
    let modelled = |bytes: &[u8], side: &str, name: &str| {
        let (text, names) = load(&Session::new(), bytes, path, side, names_wanted)?;
        let m = model::parse(&text, name).map_err(MergeError::Internal)?;
        Ok((text, names, m))
    };
    let ours_version = version_name("ours", &markers.ours);
    let theirs_version = version_name("theirs", &markers.theirs);
    let (to, ta, tb) = std::thread::scope(|scope| {
        let ha = scope.spawn(|| modelled(ours, &ours_version, &markers.ours));
        let hb = scope.spawn(|| modelled(theirs, &theirs_version, &markers.theirs));
        let to = modelled(base, &version_name("base", &markers.base), "base");
        let join = |h: std::thread::ScopedJoinHandle<'_, Result<Loaded, MergeError>>| {
            h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
        };
        (to, join(ha), join(hb))
    });
    Ok(Three::new(to?, ta?, tb?))
}
