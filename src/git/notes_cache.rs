//! git's own textconv cache, for `irgit install --git-cache`: what it holds
//! and which of its entries are stale.
//!
//! git keeps each textconv output as a note on the input blob in
//! `refs/notes/textconv/<driver>`, and trusts the whole ref only while its
//! commit subject equals the driver's command string. `--git-cache` puts
//! the form's id into that string, so a new form version or other `canon:`
//! settings start a new cache once installed again. What git cannot know:
//!
//! ```text
//! note on blob 5e1c:  %3 = add i32 %1, %2        (a fallback: textconv timed out)
//! irgit now shows:    %add.5e1c = add i32 ...    ─► stale: `irgit doctor --fix` drops the ref
//! ```

use std::path::Path;

use super::cmd;
use super::drivers;
use crate::config::Config;

/// The notes ref of git's textconv cache for diff driver `driver`.
pub(crate) fn notes_ref(driver: &str) -> String {
    format!("refs/notes/textconv/{driver}")
}

/// What is wrong with one driver's cache: why its entries are stale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StaleCache {
    pub notes_ref: String,
    pub entries: usize,
    pub why: String,
}

/// The caches of irgit's diff drivers whose entries git shows although
/// they are not what irgit shows now (or that git no longer uses).
pub(crate) fn stale_caches(cwd: &Path, config: &Config) -> Vec<StaleCache> {
    [drivers::DIFF_TEXT, drivers::DIFF_BITCODE]
        .iter()
        .filter_map(|driver| stale_cache(cwd, driver, config))
        .collect()
}

fn stale_cache(cwd: &Path, driver: &str, config: &Config) -> Option<StaleCache> {
    let notes_ref = notes_ref(driver);
    let written_by = cmd::git(cwd, &["log", "-1", "--format=%s", &notes_ref]).ok()?;
    let entries = notes(cwd, &notes_ref);
    let stale = |why: String| {
        Some(StaleCache {
            notes_ref: notes_ref.clone(),
            entries: entries.len(),
            why,
        })
    };
    let caching =
        cmd::config_get(cwd, &format!("diff.{driver}.cachetextconv")).as_deref() == Some("true");
    if !caching {
        return stale("git's textconv cache is off: nothing reads them".into());
    }
    let command = cmd::config_get(cwd, &format!("diff.{driver}.textconv")).unwrap_or_default();
    if written_by.trim_end() != command {
        return stale("they were written by another textconv command (an older form)".into());
    }
    let outdated = entries
        .iter()
        .filter(|(note, blob)| !shows_as_irgit_does(cwd, note, blob, config))
        .count();
    (outdated > 0).then(|| StaleCache {
        notes_ref: notes_ref.clone(),
        entries: entries.len(),
        why: format!(
            "{outdated} of them differ from what irgit shows now (a fallback kept by git)"
        ),
    })
}

/// `(note blob, annotated blob)` of every note under `notes_ref`.
fn notes(cwd: &Path, notes_ref: &str) -> Vec<(String, String)> {
    let list = cmd::git(cwd, &["notes", "--ref", notes_ref, "list"]).unwrap_or_default();
    list.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(note, blob)| (note.to_string(), blob.to_string()))
        .collect()
}

/// Whether the cached text `note` of input `blob` is what textconv prints
/// for it now (an input irgit cannot read is shown as written either way).
fn shows_as_irgit_does(cwd: &Path, note: &str, blob: &str, config: &Config) -> bool {
    let (Ok(cached), Ok(input)) = (blob_bytes(cwd, note), blob_bytes(cwd, blob)) else {
        return true;
    };
    if input.iter().all(u8::is_ascii_whitespace) {
        return cached == input;
    }
    let cleanup = crate::canon::Cleanup::Free;
    match crate::canon::view::view_bytes(
        &input,
        "cached.ll",
        &config.canon,
        (cleanup, crate::canon::InputCheck::First),
    ) {
        Ok(text) => cached == crate::canon::encode_like_input(text, &input),
        Err(_) => cached == input,
    }
}

fn blob_bytes(cwd: &Path, id: &str) -> Result<Vec<u8>, String> {
    let out = std::process::Command::new("git")
        .args(["cat-file", "blob", id])
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!("{id}: not a blob"))
    }
}

/// Drops a cache whole (git writes it again as it shows files): removing
/// single notes would make a new notes commit, whose subject git would not
/// trust anyway.
pub(crate) fn drop_cache(cwd: &Path, notes_ref: &str) -> Result<(), String> {
    cmd::git(cwd, &["update-ref", "-d", notes_ref]).map(|_| ())
}
