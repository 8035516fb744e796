//! `git merge -X ours` / `-X theirs` for IR: every conflict of the merge
//! resolved to the favoured side's section, the rest merged as usual, as
//! git's text merge does. The result must still parse and verify;
//! otherwise the conflict stands. (The line merge that stands in for a
//! structured merge favours a side itself: `git merge-file --theirs`.)
//!
//! ```text
//! <<<<<<< ours                        -X theirs
//!   %r = add i32 %x, 2                ─►     %r = add i32 %x, 3
//! ||||||| base
//!   %r = add i32 %x, 1
//! =======
//!   %r = add i32 %x, 3
//! >>>>>>> theirs
//! ```

use super::render::{has_conflicts, take_side, Keep, Markers};

/// The name git gives the favoured side's option.
pub(crate) fn option_name(keep: Keep) -> &'static str {
    match keep {
        Keep::Ours => "-X ours",
        Keep::Theirs => "-X theirs",
    }
}

/// The merged `text` (with conflict markers of `markers.size`) with every
/// conflict resolved to `keep`'s section: the bytes to write, bitcode when
/// `as_bitcode`, once LLVM has parsed and verified them; else why not.
pub(crate) fn resolve(
    text: &[u8],
    keep: Keep,
    markers: &Markers,
    path: &str,
    as_bitcode: bool,
) -> Result<Vec<u8>, String> {
    let text = String::from_utf8_lossy(text);
    if !has_conflicts(&text, markers) {
        return Err("the conflicts are not marked in the text".into());
    }
    let resolved = take_side(&text, keep, markers);
    let session = crate::ir::Session::new();
    let module = session
        .parse(resolved.as_bytes(), path)
        .map_err(|e| e.to_string())?;
    module.verify_as_parsed().map_err(|e| e.to_string())?;
    Ok(match as_bitcode {
        true => module.to_bitcode(),
        false => resolved.into_bytes(),
    })
}
