//! The git configuration and attribute lines that make git call irgit, in
//! one place so `install`, `uninstall` and `doctor` agree on them.
//!
//! ```text
//! [diff "llvm-ir"]                                  *.ll diff=llvm-ir merge=llvm-ir
//!     textconv = irgit textconv --canon-version=1   *.bc -text diff=llvm-bc -merge
//!     cachetextconv = true
//! [diff "llvm-bc"]          (same, plus binary = true: `binary` is per driver)
//! [merge "llvm-ir"]
//!     driver = irgit merge %O %A %B %L %P
//! ```
//!
//! The canonical-form version is part of the textconv command because git
//! keys its textconv cache (`refs/notes/textconv/<driver>`) on the command
//! string: a new canonical form invalidates the cache, and nothing else does.
//! Stages switched off in `.irgit.yaml` change the form too, so they add a
//! hash of the settings: `--canon-version=1+9c41d2e0` (plain `1` for the
//! defaults); `irgit doctor` reports a command that no longer matches.
//! Bitcode gets `-merge` (git's binary merge: keep ours, report a conflict)
//! because the structured merge writes text, which must not replace a `.bc`.

use crate::canon::CANON_VERSION;
use crate::config::{CanonOptions, FileOptions};

/// Diff driver for textual IR.
pub const DIFF_TEXT: &str = "llvm-ir";
/// Diff driver for bitcode (`binary = true`, same textconv).
pub const DIFF_BITCODE: &str = "llvm-bc";
/// Merge driver for textual IR.
pub const MERGE: &str = "llvm-ir";
/// The program name written into every command; git finds it on `PATH`.
pub const PROGRAM: &str = "irgit";

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

/// The textconv command string for this build's canonical form.
pub fn textconv_command(opts: &CanonOptions) -> String {
    format!("{PROGRAM} textconv --canon-version={}", canon_form_id(opts))
}

/// The merge driver command string.
pub fn merge_command() -> String {
    format!("{PROGRAM} merge %O %A %B %L %P")
}

/// Every `(key, value)` install writes, in the order it writes them.
pub fn config_entries(opts: &CanonOptions) -> Vec<(String, String)> {
    let tc = textconv_command(opts);
    vec![
        (format!("diff.{DIFF_TEXT}.textconv"), tc.clone()),
        (format!("diff.{DIFF_TEXT}.cachetextconv"), "true".into()),
        (format!("diff.{DIFF_BITCODE}.textconv"), tc),
        (format!("diff.{DIFF_BITCODE}.cachetextconv"), "true".into()),
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

/// The config sections install may create (removed again when left empty).
pub fn config_sections() -> [String; 3] {
    [
        format!("diff.{DIFF_TEXT}"),
        format!("diff.{DIFF_BITCODE}"),
        format!("merge.{MERGE}"),
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

/// The `--canon-version=N` a configured textconv command carries, if any.
pub fn canon_version_of(command: &str) -> Option<&str> {
    command
        .split_whitespace()
        .find_map(|w| w.strip_prefix("--canon-version="))
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
    fn textconv_carries_the_canon_version() {
        let tc = textconv_command(&CanonOptions::default());
        assert_eq!(
            canon_version_of(&tc),
            Some(CANON_VERSION.to_string().as_str())
        );
        let off = CanonOptions {
            reorder_blocks: false,
            ..CanonOptions::default()
        };
        let tc_off = textconv_command(&off);
        assert!(
            canon_version_of(&tc_off)
                .unwrap()
                .starts_with(&format!("{CANON_VERSION}+")),
            "{tc_off}"
        );
        assert_eq!(tc_off, textconv_command(&off.clone()));
        assert_eq!(program_of(&tc), Some("irgit"));
        assert_eq!(canon_version_of("irgit textconv"), None);
    }

    #[test]
    fn bitcode_has_its_own_binary_driver() {
        let e = config_entries(&CanonOptions::default());
        assert!(e.contains(&("diff.llvm-bc.binary".into(), "true".into())));
        assert!(!e.iter().any(|(k, _)| k == "diff.llvm-ir.binary"));
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
