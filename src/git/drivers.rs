//! The git configuration and attribute lines that make git call irgit, in
//! one place so `install`, `uninstall` and `doctor` agree on them.
//!
//! ```text
//! [diff "llvm-ir"]                                  *.ll diff=llvm-ir merge=llvm-ir
//!     textconv = irgit-textconv                     *.bc -text diff=llvm-bc -merge
//!     cachetextconv = false
//! [diff "llvm-bc"]          (same, plus binary = true: `binary` is per driver)
//! [merge "llvm-ir"]
//!     driver = irgit merge %O %A %B %L %P --base-label %S --ours-label %X --theirs-label %Y
//! [filter "llvm-ir"]         (with --hook)          *.ll filter=llvm-ir   (with --hook)
//!     process = irgit filter-process
//! ```
//!
//! git's textconv cache stays off: it keeps whatever textconv printed (a
//! fallback too) under the command string alone, so a changed `.irgit.yaml`
//! or a fixed input would never show. irgit keeps its own cache instead,
//! keyed by the input's blob and the form's id ([`canon_form_id`]; see
//! `textconv_cache`). Bitcode gets `-merge` (git's binary merge: keep ours,
//! report a conflict) because the structured merge writes text, which must
//! not replace a `.bc`.

use crate::canon::CANON_VERSION;
use crate::config::{CanonOptions, FileOptions};

/// Diff driver for textual IR.
pub const DIFF_TEXT: &str = "llvm-ir";
/// Diff driver for bitcode (`binary = true`, same textconv).
pub const DIFF_BITCODE: &str = "llvm-bc";
/// Merge driver for textual IR.
pub const MERGE: &str = "llvm-ir";
/// Clean filter for textual IR (`irgit install --hook`).
pub const FILTER: &str = "llvm-ir";
/// The program name written into every command; git finds it on `PATH`.
pub const PROGRAM: &str = "irgit";
/// The diff driver's program: irgit's textconv without LLVM, quick to start.
pub const TEXTCONV_PROGRAM: &str = "irgit-textconv";

/// Names the canonical form printed with `opts`: the version, plus a hash
/// of the settings when they are not the defaults.
pub fn canon_form_id(opts: &CanonOptions) -> String {
    if *opts == CanonOptions::default() {
        return CANON_VERSION.to_string();
    }
    let settings = serde_yaml::to_string(opts).unwrap_or_default();
    format!(
        "{CANON_VERSION}+{:08x}",
        crate::hash::hash_str(&settings) as u32
    )
}

/// The textconv command string.
pub fn textconv_command() -> String {
    TEXTCONV_PROGRAM.to_string()
}

/// The merge driver command string. `%S %X %Y` are git's conflict labels
/// (git >= 2.44; older git leaves them empty and irgit falls back to base/ours/theirs).
pub fn merge_command() -> String {
    format!("{PROGRAM} merge %O %A %B %L %P --base-label %S --ours-label %X --theirs-label %Y")
}

/// Every `(key, value)` install writes, in the order it writes them.
pub fn config_entries() -> Vec<(String, String)> {
    let tc = textconv_command();
    vec![
        (format!("diff.{DIFF_TEXT}.textconv"), tc.clone()),
        (format!("diff.{DIFF_TEXT}.cachetextconv"), "false".into()),
        (format!("diff.{DIFF_BITCODE}.textconv"), tc),
        (format!("diff.{DIFF_BITCODE}.cachetextconv"), "false".into()),
        (format!("diff.{DIFF_BITCODE}.binary"), "true".into()),
        (
            format!("merge.{MERGE}.name"),
            "irgit structured LLVM IR merge".into(),
        ),
        (format!("merge.{MERGE}.driver"), merge_command()),
        // Virtual merge bases (criss-cross merges) use the same structured merge.
        (format!("merge.{MERGE}.recursive"), MERGE.into()),
    ]
}

/// The clean filter `irgit install --hook` sets up beside the hook: git's
/// long-running filter protocol, one `irgit filter-process` per git command.
pub fn filter_config_entries() -> Vec<(String, String)> {
    vec![(
        format!("filter.{FILTER}.process"),
        format!("{PROGRAM} filter-process"),
    )]
}

/// The attribute lines naming the clean filter for the textual patterns.
pub fn filter_attribute_lines(files: &FileOptions) -> Vec<String> {
    files
        .text
        .iter()
        .map(|p| format!("{p} filter={FILTER}"))
        .collect()
}

/// The config sections install may create (removed again when left empty).
pub fn config_sections() -> [String; 4] {
    [
        format!("diff.{DIFF_TEXT}"),
        format!("diff.{DIFF_BITCODE}"),
        format!("merge.{MERGE}"),
        format!("filter.{FILTER}"),
    ]
}

/// The attribute line for a textual-IR pattern.
pub fn text_attribute_line(pattern: &str) -> String {
    format!("{pattern} diff={DIFF_TEXT} merge={MERGE}")
}

/// The attribute line for a bitcode pattern.
pub fn bitcode_attribute_line(pattern: &str) -> String {
    format!("{pattern} -text diff={DIFF_BITCODE} -merge")
}

/// All attribute lines for the configured file patterns.
pub fn attribute_lines(files: &FileOptions) -> Vec<String> {
    files
        .text
        .iter()
        .map(|p| text_attribute_line(p))
        .chain(files.bitcode.iter().map(|p| bitcode_attribute_line(p)))
        .collect()
}

/// The program a driver command runs: its first word (git runs the command
/// through the shell, so that is what `PATH` lookup sees).
pub fn program_of(command: &str) -> Option<&str> {
    command.split_whitespace().next()
}

/// The marker every irgit-installed hook carries.
pub const HOOK_MARKER: &str = "irgit hook pre-commit";

/// The name an existing hook is moved to when install chains it.
pub const CHAINED_HOOK_NAME: &str = "pre-commit.irgit-chained";

/// The pre-commit hook `irgit install --hook` writes. It runs irgit first,
/// then a hook that was there before (moved aside to [`CHAINED_HOOK_NAME`]).
pub fn hook_script() -> String {
    format!(
        "#!/bin/sh\n\
         # irgit pre-commit hook, installed by `irgit install --hook`; `irgit uninstall` removes it\n\
         # and puts back the hook it chained. Stores the canonical form of staged LLVM IR.\n\
         {HOOK_MARKER} || exit $?\n\
         chained=\"$(dirname \"$0\")/{CHAINED_HOOK_NAME}\"\n\
         if [ -e \"$chained\" ]; then\n\
         \x20   exec \"$chained\" \"$@\"\n\
         fi\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_id_names_version_and_settings() {
        assert_eq!(
            canon_form_id(&CanonOptions::default()),
            CANON_VERSION.to_string()
        );
        let off = CanonOptions {
            reorder_blocks: false,
            ..CanonOptions::default()
        };
        let id = canon_form_id(&off);
        assert!(id.starts_with(&format!("{CANON_VERSION}+")), "{id}");
        assert_eq!(id, canon_form_id(&off.clone()));
        assert_eq!(program_of(&textconv_command()), Some("irgit-textconv"));
    }

    #[test]
    fn bitcode_has_its_own_binary_driver() {
        let e = config_entries();
        assert!(e.contains(&("diff.llvm-bc.binary".into(), "true".into())));
        assert!(!e.iter().any(|(k, _)| k == "diff.llvm-ir.binary"));
        assert!(e.contains(&("diff.llvm-ir.cachetextconv".into(), "false".into())));
        let lines = attribute_lines(&FileOptions::default());
        assert_eq!(
            lines,
            vec![
                "*.ll diff=llvm-ir merge=llvm-ir".to_string(),
                "*.bc -text diff=llvm-bc -merge".to_string()
            ]
        );
    }
}
