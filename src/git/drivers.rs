//! The git configuration and attribute lines that make git call irgit, in
//! one place so `install`, `uninstall` and `doctor` agree on them.
//!
//! ```text
//! [diff "llvm-ir"]                                  *.ll diff=llvm-ir merge=llvm-ir
//!     textconv = p='/home/me/.cargo/bin/irgit-textconv'; [ -x "$p" ] || ...; exec "$p"
//!     cachetextconv = false                         *.bc -text diff=llvm-bc -merge
//!     xfuncname = ^(define[^@]*@(...))             (hunk headers name the function)
//! [diff "llvm-bc"]          (same, plus binary = true: `binary` is per driver)
//! [merge "llvm-ir"]
//!     driver = p='/home/me/.cargo/bin/irgit'; ...; exec "$p" merge %O %A %B %L %P --base-label %S ...
//! [filter "llvm-ir"]         (with --hook)          *.ll filter=llvm-ir   (with --hook)
//!     process = p='/home/me/.cargo/bin/irgit'; ...; exec "$p" filter-process
//! ```
//!
//! Every command runs irgit by the full path of the `irgit` that installed
//! it, so git finds it without `PATH`; when that file is gone, the command
//! says so and degrades (`cat`, `git merge-file`, a filter that filters
//! nothing) instead of breaking git.
//!
//! git's textconv cache stays off: it keeps whatever textconv printed (a
//! fallback too) under the command string alone, so a changed `.irgit.yaml`
//! or a fixed input would never show. irgit keeps its own cache instead,
//! keyed by the input's blob and the form's id ([`canon_form_id`]; see
//! `textconv_cache`). Bitcode gets `-merge` (git's binary merge: keep ours,
//! report a conflict) because the structured merge writes text, which must
//! not replace a `.bc`.

use std::path::{Path, PathBuf};

use crate::canon::CANON_VERSION;
use crate::config::{CanonOptions, FileOptions};

/// Diff driver for textual IR.
pub(crate) const DIFF_TEXT: &str = "llvm-ir";
/// Diff driver for bitcode (`binary = true`, same textconv).
pub(crate) const DIFF_BITCODE: &str = "llvm-bc";
/// Merge driver for textual IR.
pub(crate) const MERGE: &str = "llvm-ir";
/// Clean filter for textual IR (`irgit install --hook`).
pub(crate) const FILTER: &str = "llvm-ir";
/// The program's name: what an older install wrote into every command (git
/// then finds it on `PATH`), and what `irgit install --diff-summary` writes.
pub(crate) const PROGRAM: &str = "irgit";
/// The diff driver's program: irgit's textconv without LLVM, quick to start.
pub(crate) const TEXTCONV_PROGRAM: &str = "irgit-textconv";

/// The `irgit` the drivers run: this executable's full path, so that git
/// finds it without `PATH` (an IDE, cron, another shell); the bare name when
/// the path is unknown.
pub(crate) fn irgit_path() -> PathBuf {
    std::env::current_exe()
        .ok()
        .filter(|exe| exe.file_name().is_some_and(|n| n == PROGRAM))
        .unwrap_or_else(|| PathBuf::from(PROGRAM))
}

/// The textconv program: `irgit-textconv` beside [`irgit_path`], else that
/// `irgit` itself (`irgit textconv`).
fn textconv_path(irgit: &Path) -> (PathBuf, &'static str) {
    let lean = irgit.with_file_name(TEXTCONV_PROGRAM);
    if irgit.is_absolute() && lean.is_file() {
        (lean, "")
    } else {
        (irgit.to_path_buf(), " textconv")
    }
}

/// `text` as one shell word: in single quotes, a quote written `'\''`.
pub(crate) fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A driver command that runs `program` with `args` when it is there, and
/// otherwise says so on stderr (naming `instead`) and runs `fallback`, so a
/// deleted or moved binary degrades instead of breaking git:
///
/// ```text
/// p='/home/me/.cargo/bin/irgit'; [ -x "$p" ] || { echo "irgit: $p is missing: ..." >&2; FALLBACK; }; exec "$p" ARGS
/// ```
fn guarded(program: &Path, args: &str, instead: &str, fallback: &str) -> String {
    format!(
        "p={}; [ -x \"$p\" ] || {{ echo \"irgit: $p is missing: {instead} (run irgit install)\" >&2; {fallback}; }}; exec \"$p\"{args}",
        shell_quote(&program.to_string_lossy())
    )
}

/// The program a command written by [`guarded`] runs, or the first word of
/// any other command (git runs it through the shell, so that is what
/// `PATH` lookup sees).
pub(crate) fn program_of(command: &str) -> Option<String> {
    if let Some(quoted) = command.strip_prefix("p='") {
        let mut program = String::new();
        let mut rest = quoted;
        loop {
            let end = rest.find('\'')?;
            program.push_str(&rest[..end]);
            match rest[end..].strip_prefix("'\\''") {
                Some(after) => {
                    program.push('\'');
                    rest = after;
                }
                None => return Some(program),
            }
        }
    }
    command.split_whitespace().next().map(str::to_string)
}

/// `command` with the program it runs written as `PROGRAM`: two commands
/// of one shape differ only in where they find irgit.
pub(crate) fn command_shape(command: &str) -> String {
    let Some(program) = program_of(command) else {
        return command.to_string();
    };
    let quoted = shell_quote(&program);
    if command.starts_with(&format!("p={quoted}")) {
        return command.replacen(&quoted, "PROGRAM", 1);
    }
    command.replacen(&program, "PROGRAM", 1)
}

/// Names the canonical form printed with `opts`: the version, plus a hash
/// of the settings when they are not the defaults.
pub(crate) fn canon_form_id(opts: &CanonOptions) -> String {
    if *opts == CanonOptions::default() {
        return CANON_VERSION.to_string();
    }
    let settings = serde_yaml::to_string(opts).unwrap_or_default();
    format!(
        "{CANON_VERSION}+{:08x}",
        crate::hash::hash_str(&settings) as u32
    )
}

/// The textconv command string: `irgit-textconv` by its full path; when
/// it is gone, git shows the file as written (`cat`) with one line saying so.
/// git appends the file (`"$@"`) to the command.
pub(crate) fn textconv_command() -> String {
    let (program, args) = textconv_path(&irgit_path());
    guarded(&program, args, "showing IR as written", "exec cat \"$@\"")
}

/// The textconv command of `irgit install --git-cache`: the form's id
/// (`canon_form_id`) in the command string, which git's cache is trusted
/// under, so a new form version or other settings start a new cache.
pub(crate) fn caching_textconv_command(form: &str) -> String {
    let (program, args) = textconv_path(&irgit_path());
    guarded(
        &program,
        &format!("{args} --canon-version={form}"),
        "showing IR as written",
        "exec cat \"$@\"",
    )
}

/// What `irgit install --git-cache` writes: git's textconv cache on, the
/// textconv command naming form `form`.
pub(crate) fn git_cache_entries(form: &str) -> Vec<(String, String)> {
    config_entries()
        .into_iter()
        .map(|(key, value)| {
            if key.ends_with(".textconv") {
                (key, caching_textconv_command(form))
            } else if key.ends_with(".cachetextconv") {
                (key, "true".into())
            } else {
                (key, value)
            }
        })
        .collect()
}

/// The merge driver command string. `%S %X %Y` are git's conflict labels
/// (git >= 2.44; older git leaves them empty and irgit falls back to
/// base/ours/theirs). When irgit is gone, git's own line merge runs.
pub(crate) fn merge_command() -> String {
    guarded(
        &irgit_path(),
        " merge %O %A %B %L %P --base-label %S --ours-label %X --theirs-label %Y",
        "merging line by line",
        "exec git merge-file -L %X -L %S -L %Y --marker-size=%L %A %O %B",
    )
}

/// The clean filter's command: `irgit filter-process`; when irgit is gone,
/// a filter that answers git's handshake with no capability, so git stores
/// and compares files as written instead of failing.
pub(crate) fn filter_command() -> String {
    guarded(
        &irgit_path(),
        " filter-process",
        "IR files are compared as written",
        "printf '0016git-filter-server\\n000eversion=2\\n00000000'; exec cat >/dev/null",
    )
}

/// The regular expression git's hunk headers use (`diff.<driver>.xfuncname`):
/// the function a hunk is in, `define ... @name`, instead of its block label.
pub(crate) const FUNCTION_HEADER: &str = r#"^(define[^@]*@("[^"]*"|[-a-zA-Z$._0-9]+))"#;

/// The external diff `irgit install` sets up for textual IR: the smaller
/// of git's own diff and the views' diff ([`super::two_sided`]); when
/// irgit is gone, git's own diff of the two files.
pub(crate) fn smallest_diff_command() -> String {
    // The lean program when it is there (it starts without LLVM).
    let (program, _) = textconv_path(&irgit_path());
    guarded(
        &program,
        " diff --smallest",
        "showing git's own diff",
        "[ -z \"$GIT_EXTERNAL_DIFF\" ] || exec sh -c \"$GIT_EXTERNAL_DIFF \\\"\\$@\\\"\" \"$GIT_EXTERNAL_DIFF\" \"$@\"; \
         git --no-pager diff --no-index --no-ext-diff --no-textconv -- \"$2\" \"$5\"; exit 0",
    )
}

/// Every `(key, value)` install writes, in the order it writes them.
pub(crate) fn config_entries() -> Vec<(String, String)> {
    let tc = textconv_command();
    vec![
        (format!("diff.{DIFF_TEXT}.command"), smallest_diff_command()),
        (format!("diff.{DIFF_TEXT}.textconv"), tc.clone()),
        (format!("diff.{DIFF_TEXT}.cachetextconv"), "false".into()),
        (
            format!("diff.{DIFF_TEXT}.xfuncname"),
            FUNCTION_HEADER.into(),
        ),
        (format!("diff.{DIFF_BITCODE}.textconv"), tc),
        (format!("diff.{DIFF_BITCODE}.cachetextconv"), "false".into()),
        (
            format!("diff.{DIFF_BITCODE}.xfuncname"),
            FUNCTION_HEADER.into(),
        ),
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
pub(crate) fn filter_config_entries() -> Vec<(String, String)> {
    vec![(format!("filter.{FILTER}.process"), filter_command())]
}

/// The attribute lines naming the clean filter for the textual patterns.
pub(crate) fn filter_attribute_lines(files: &FileOptions) -> Vec<String> {
    files
        .text
        .iter()
        .map(|p| format!("{p} filter={FILTER}"))
        .collect()
}

/// The config sections install may create (removed again when left empty).
pub(crate) fn config_sections() -> [String; 4] {
    [
        format!("diff.{DIFF_TEXT}"),
        format!("diff.{DIFF_BITCODE}"),
        format!("merge.{MERGE}"),
        format!("filter.{FILTER}"),
    ]
}

/// The attribute line for a textual-IR pattern.
pub(crate) fn text_attribute_line(pattern: &str) -> String {
    format!("{pattern} diff={DIFF_TEXT} merge={MERGE}")
}

/// The attribute line for a bitcode pattern.
pub(crate) fn bitcode_attribute_line(pattern: &str) -> String {
    format!("{pattern} -text diff={DIFF_BITCODE} -merge")
}

/// All attribute lines for the configured file patterns.
pub(crate) fn attribute_lines(files: &FileOptions) -> Vec<String> {
    files
        .text
        .iter()
        .map(|p| text_attribute_line(p))
        .chain(files.bitcode.iter().map(|p| bitcode_attribute_line(p)))
        .collect()
}

/// The marker every irgit-installed hook carries.
pub(crate) const HOOK_MARKER: &str = "irgit hook pre-commit";

/// The name an existing hook is moved to when install chains it.
pub(crate) const CHAINED_HOOK_NAME: &str = "pre-commit.irgit-chained";

/// The pre-commit hook `irgit install --hook` writes. It runs irgit by its
/// full path first (when irgit is gone, the commit goes on with IR as
/// written and a line saying so), then a hook that was there before (moved
/// aside to [`CHAINED_HOOK_NAME`]).
pub(crate) fn hook_script() -> String {
    hook_script_running(&irgit_path())
}

fn hook_script_running(irgit: &Path) -> String {
    format!(
        "#!/bin/sh\n\
         # irgit pre-commit hook, installed by `irgit install --hook`; `irgit uninstall` removes it\n\
         # and puts back the hook it chained. Stores the canonical form of staged LLVM IR\n\
         # (runs `{HOOK_MARKER}`).\n\
         p={}\n\
         if [ -x \"$p\" ]; then\n\
         \x20   \"$p\" hook pre-commit || exit $?\n\
         else\n\
         \x20   echo \"irgit: $p is missing: IR is committed as written (run irgit install --hook)\" >&2\n\
         fi\n\
         chained=\"$(dirname \"$0\")/{CHAINED_HOOK_NAME}\"\n\
         if [ -e \"$chained\" ]; then\n\
         \x20   exec \"$chained\" \"$@\"\n\
         fi\n",
        shell_quote(&irgit.to_string_lossy())
    )
}

/// The hook an older install wrote, which found irgit on `PATH`.
const LEGACY_HOOK_SCRIPT: &str = "#!/bin/sh\n\
# irgit pre-commit hook, installed by `irgit install --hook`; `irgit uninstall` removes it\n\
# and puts back the hook it chained. Stores the canonical form of staged LLVM IR.\n\
irgit hook pre-commit || exit $?\n\
chained=\"$(dirname \"$0\")/pre-commit.irgit-chained\"\n\
if [ -e \"$chained\" ]; then\n\
\x20   exec \"$chained\" \"$@\"\n\
fi\n";

/// Whether `script` is a hook some `irgit install --hook` wrote, unedited
/// (for any irgit path): install may update it, uninstall may remove it.
pub(crate) fn is_installed_hook(script: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(script) else {
        return false;
    };
    if text == LEGACY_HOOK_SCRIPT {
        return true;
    }
    let program = text
        .lines()
        .find_map(|l| l.strip_prefix("p="))
        .and_then(|quoted| program_of(&format!("p={quoted}")));
    program.is_some_and(|p| text == hook_script_running(Path::new(&p)))
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
        let program = program_of(&textconv_command()).unwrap();
        assert!(program.ends_with(TEXTCONV_PROGRAM) || program.ends_with(PROGRAM));
        assert_eq!(
            program_of("p='/a b/it'\\''s/irgit'; exec"),
            Some("/a b/it's/irgit".into())
        );
        let shape = command_shape(&merge_command());
        assert!(shape.starts_with("p=PROGRAM; ["), "{shape}");
        assert!(is_installed_hook(hook_script().as_bytes()));
        assert!(is_installed_hook(LEGACY_HOOK_SCRIPT.as_bytes()));
        assert!(!is_installed_hook(
            format!("{}echo more\n", hook_script()).as_bytes()
        ));
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
