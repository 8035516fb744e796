//! Settings from `.irgit.yaml` (at the repository root, or given with
//! `--config`), validated strictly: an unknown key or a bad value is an error
//! that names the file, never silently ignored.
//!
//! ```yaml
//! # .irgit.yaml — every key is optional; shown with its default.
//! canon:
//!   reorder_instructions: true   # def-use walk from the outputs
//!   rename_values: true          # content-derived names for values and arguments
//!   rename_blocks: true          # entry, bb.<hash> from the CFG and fixed instructions
//!   reorder_blocks: true         # reverse post-order from the entry block
//!   sort_phis: true              # PHI incoming pairs by block order
//!   order_operands: true         # commutative operands, mirrored compares
//!   reorder_globals: true        # functions, globals, aliases by name
//!   rename_private_constants: true  # @.str.N -> @.str.<content hash>
//!   keep_comments: true          # user comments travel with what they annotate
//!   view_source_checksums: false # the diff view leaves out DIFile checksums
//! files:                         # patterns `irgit install` writes to the attributes
//!   text: ["*.ll"]               # diff=llvm-ir merge=llvm-ir
//!   bitcode: ["*.bc"]            # diff=llvm-bc (binary), never rewritten by the hook
//! hook:
//!   mode: rewrite                # rewrite | check | previous-names | off (check: refuse
//!                                # non-canonical files; previous-names: the new text in HEAD's names)
//!   invalid_ir: refuse           # refuse | allow: staged IR that does not parse or verify
//!   lit_tests: keep              # keep | canonicalize: files with a `RUN:` line
//!   dialect: keep                # keep | upgrade: files LLVM 22 prints in another syntax
//! merge:
//!   style: diff3                 # diff3 | merge | zdiff3 (unset: git's merge.conflictStyle, else merge)
//!   timeout_seconds: 120         # then fall back to a line merge (reported as a conflict)
//! textconv:
//!   timeout_seconds: 10          # then `git diff` shows the file as written (one line on stderr)
//!   server_idle_seconds: 60      # the resident server exits after this idle time; 0: no server
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Which canonicalization stages run. Every stage is on by default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CanonOptions {
    /// Reorder instructions inside blocks by the def-use walk from the outputs.
    pub reorder_instructions: bool,
    /// Give every local value and argument a content-derived name.
    pub rename_values: bool,
    /// Name blocks `entry`, `bb.<hash>` (from the CFG and fixed instructions).
    pub rename_blocks: bool,
    /// Put blocks in reverse post-order from the entry block.
    pub reorder_blocks: bool,
    /// Sort PHI incoming pairs by the canonical order of their blocks.
    pub sort_phis: bool,
    /// Order operands of commutative instructions; mirror compare predicates.
    pub order_operands: bool,
    /// Order functions, declarations, globals and aliases by name.
    pub reorder_globals: bool,
    /// Name private unnamed constants (`@.str.N`) by their content.
    pub rename_private_constants: bool,
    /// Carry the user's comments into the canonical form, each at its
    /// anchor's place (`false`, or `irgit canon --strip-comments`, prints
    /// the form without them).
    pub keep_comments: bool,
    /// Show a `DIFile`'s `checksum:` in the diff view. Off by default: it
    /// is a hash of the source file, so it changes with every edit of the
    /// source (which git shows in the source's own diff) and says nothing
    /// about the IR. The canonical form always keeps it.
    pub view_source_checksums: bool,
    /// Which diff view this is, if any (not a setting: `canon::view`
    /// decides it from the file).
    #[serde(skip)]
    pub view: ViewKind,
}

impl Default for CanonOptions {
    fn default() -> Self {
        CanonOptions {
            reorder_instructions: true,
            rename_values: true,
            rename_blocks: true,
            reorder_blocks: true,
            sort_phis: true,
            order_operands: true,
            reorder_globals: true,
            rename_private_constants: true,
            keep_comments: true,
            view_source_checksums: false,
            view: ViewKind::Canonical,
        }
    }
}

/// What a canonicalization prints: the canonical form, or one of the three
/// diff views (`canon::view`), which differ from it in how they name and
/// what they keep of the file's own text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ViewKind {
    /// The canonical form: what the hook stores and the merge decides in.
    /// It names everything by content.
    #[default]
    Canonical,
    /// The view of compiler output: canonical order, the file's own names
    /// kept, what numbers named by role and place (`canon::roles`).
    CompilerOutput,
    /// The view of a lit test: the file's own text, its numbered values
    /// named by content, which does not move when an unrelated use is
    /// deleted (`canon::as_written`).
    Test,
    /// The view of IR a person wrote, with no `RUN:` line: its own text,
    /// its numbered values named by role and place.
    WrittenByHand,
}

impl ViewKind {
    /// Keep every name the input gives (values, arguments, blocks) and
    /// name only the unnamed ones (`%5`, `6:`).
    pub fn names_as_written(self) -> bool {
        matches!(self, ViewKind::Test | ViewKind::WrittenByHand)
    }

    /// Debug lines relative to their subprogram (`line: sp+3`): a view,
    /// not IR (`canon::debug_lines`).
    pub fn relative_debug_lines(self) -> bool {
        self != ViewKind::Canonical
    }

    /// The views' naming, not the canonical form's, whose names the merge
    /// pairs values by: where values alike are told apart, one of them
    /// keeps the name they shared; no flag, alignment or struct layout
    /// enters a name (`canon::signature`); attribute groups are numbered by
    /// the kinds of attributes they hold (`canon::attribute_kinds`).
    pub fn names_for_diffs(self) -> bool {
        self != ViewKind::Canonical
    }

    /// Keep the names a file has (`%new`, `loop.body`) and name only what
    /// numbers (`%5`, `%add5`, `@.str.3`) (`canon::own_names`).
    pub fn keeps_own_names(self) -> bool {
        self != ViewKind::Canonical
    }

    /// Name the values the view must name by their role and place
    /// (`canon::roles`) rather than by their content.
    pub fn names_by_role(self) -> bool {
        matches!(self, ViewKind::CompilerOutput | ViewKind::WrittenByHand)
    }
}

/// The whole `.irgit.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub canon: CanonOptions,
    pub files: FileOptions,
    pub hook: HookOptions,
    pub merge: MergeOptions,
    pub textconv: TextconvOptions,
}

/// Settings of the diff driver (`irgit textconv`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TextconvOptions {
    /// Seconds canonicalization may take; past them `git diff` shows the
    /// file as written (fractions allowed).
    pub timeout_seconds: f64,
    /// Seconds the resident server (`git::resident`), which keeps LLVM
    /// loaded between textconv calls, stays up without a request; 0 runs
    /// every canonicalization in a process of its own instead.
    pub server_idle_seconds: u64,
}

impl Default for TextconvOptions {
    fn default() -> Self {
        TextconvOptions {
            timeout_seconds: 10.0,
            server_idle_seconds: 60,
        }
    }
}

impl TextconvOptions {
    /// The time limit, or why the value cannot be one.
    pub(crate) fn time_limit(&self) -> Result<std::time::Duration, String> {
        let s = self.timeout_seconds;
        if s.is_finite() && s > 0.0 && s < 1e9 {
            Ok(std::time::Duration::from_secs_f64(s))
        } else {
            Err(format!(
                "textconv.timeout_seconds: {s} is not a positive number of seconds"
            ))
        }
    }
}

/// Settings of the merge driver (`irgit merge`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MergeOptions {
    /// Conflict presentation: `diff3` (with the base section), `merge` or
    /// `zdiff3`; unset: git's `merge.conflictStyle`, else merge (git's default).
    pub style: Option<crate::merge::render::Style>,
    /// Seconds before the structured merge gives up and a line merge runs.
    pub timeout_seconds: u64,
}

impl Default for MergeOptions {
    fn default() -> Self {
        MergeOptions {
            style: None,
            timeout_seconds: 120,
        }
    }
}

/// Which files are LLVM IR (gitattributes patterns, one per line written).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FileOptions {
    /// Textual IR patterns; default `["*.ll"]`.
    pub text: Vec<String>,
    /// Bitcode patterns; default `["*.bc"]`.
    pub bitcode: Vec<String>,
}

impl Default for FileOptions {
    fn default() -> Self {
        FileOptions {
            text: vec!["*.ll".to_string()],
            bitcode: vec!["*.bc".to_string()],
        }
    }
}

/// What the pre-commit hook does with staged IR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HookMode {
    /// Store the canonical form in the index (default).
    #[default]
    Rewrite,
    /// Leave the index alone; refuse the commit if a staged file is not canonical.
    Check,
    /// Store the file as the compiler wrote it, in the names the version at
    /// `HEAD` used wherever values match (`irgit diff --matched`'s writer),
    /// when that is provably the same module; else exactly as written.
    PreviousNames,
    /// Do nothing.
    Off,
}

/// What the pre-commit hook does with staged IR that LLVM refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InvalidIrPolicy {
    /// Refuse the commit, naming the file (default).
    #[default]
    Refuse,
    /// Commit the file unchanged, with a warning.
    Allow,
}

/// Pre-commit hook policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HookOptions {
    pub mode: HookMode,
    pub invalid_ir: InvalidIrPolicy,
    pub lit_tests: LitTests,
    pub dialect: Dialect,
}

/// What the pre-commit hook does with a file LLVM 22 prints in another
/// syntax than it was written in (typed pointers, `nocapture`, `readonly`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// Commit it as written, with one line saying why (default).
    #[default]
    Keep,
    /// Store LLVM 22's canonical form like any other file.
    Upgrade,
}

/// What the pre-commit hook does with lit tests (files with a `RUN:` line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LitTests {
    /// Commit them as they are (default): `opt` keeps value names, so the
    /// test's CHECK lines may depend on the exact text.
    #[default]
    Keep,
    /// Store their canonical form, comments included, like any other file.
    Canonicalize,
}

impl FileOptions {
    /// Checks that every pattern can be written as one gitattributes line.
    pub(crate) fn validate(&self) -> Result<(), String> {
        for (key, list) in [("files.text", &self.text), ("files.bitcode", &self.bitcode)] {
            for p in list {
                if p.is_empty() || p.starts_with('#') || p.starts_with('!') {
                    return Err(format!(
                        "{key}: {p:?} is not a usable gitattributes pattern"
                    ));
                }
                if p.chars().any(|c| c.is_whitespace() || c == '"') {
                    return Err(format!(
                        "{key}: pattern {p:?} contains whitespace or quotes, which gitattributes cannot hold unquoted"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A configuration file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid configuration in {path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

/// The file name irgit looks for.
pub(crate) const CONFIG_FILE_NAME: &str = ".irgit.yaml";

impl Config {
    /// Parses YAML text; `path` is only used in error messages.
    pub fn from_yaml(text: &str, path: &Path) -> Result<Config, ConfigError> {
        if text.trim().is_empty() {
            return Ok(Config::default());
        }
        let config: Config = serde_yaml::from_str(text).map_err(|e| ConfigError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        config
            .files
            .validate()
            .and(config.textconv.time_limit().map(|_| ()))
            .map_err(|message| ConfigError::Invalid {
                path: path.to_path_buf(),
                message,
            })?;
        Ok(config)
    }

    /// Reads a configuration file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_yaml(&text, path)
    }

    /// Finds `.irgit.yaml` in `start` or the nearest parent directory that
    /// has one, stopping at a repository root (a directory holding `.git`).
    pub fn discover(start: &Path) -> Result<Config, ConfigError> {
        let mut dir = Some(start);
        while let Some(d) = dir {
            let candidate = d.join(CONFIG_FILE_NAME);
            if candidate.is_file() {
                return Self::load(&candidate);
            }
            if d.join(".git").exists() {
                break;
            }
            dir = d.parent();
        }
        Ok(Config::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_turn_everything_on() {
        let c = Config::from_yaml("", Path::new("x")).unwrap();
        assert!(c.canon.reorder_instructions && c.canon.rename_values);
    }

    #[test]
    fn a_stage_can_be_switched_off() {
        let c = Config::from_yaml("canon:\n  reorder_blocks: false\n", Path::new("x")).unwrap();
        assert!(!c.canon.reorder_blocks);
        assert!(c.canon.rename_values);
    }

    #[test]
    fn unknown_keys_are_errors_naming_the_file() {
        let e = Config::from_yaml(
            "canon:\n  reorder_blokcs: false\n",
            Path::new("a/.irgit.yaml"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("a/.irgit.yaml"), "{e}");
        assert!(e.contains("reorder_blokcs"), "{e}");
    }

    #[test]
    fn file_and_hook_sections_are_validated() {
        let c = Config::from_yaml(
            "files:\n  text: [\"*.ll\", \"ir/*.mir\"]\nhook:\n  mode: check\n",
            Path::new("x"),
        )
        .unwrap();
        assert_eq!(c.files.text, vec!["*.ll", "ir/*.mir"]);
        assert_eq!(c.files.bitcode, vec!["*.bc"]);
        assert_eq!(c.hook.mode, HookMode::Check);
        let e = Config::from_yaml("hook:\n  mode: sometimes\n", Path::new("c.yaml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("c.yaml") && e.contains("sometimes"), "{e}");
        let e = Config::from_yaml("files:\n  text: [\"a b.ll\"]\n", Path::new("c.yaml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("files.text") && e.contains("a b.ll"), "{e}");
        assert!(Config::from_yaml("hook:\n  colour: red\n", Path::new("x")).is_err());
    }

    #[test]
    fn previous_names_is_a_hook_mode() {
        let c = Config::from_yaml("hook:\n  mode: previous-names\n", Path::new("x")).unwrap();
        assert_eq!(c.hook.mode, HookMode::PreviousNames);
        assert_eq!(Config::default().hook.mode, HookMode::Rewrite);
        let e = Config::from_yaml("hook:\n  mode: previous_names\n", Path::new("c.yaml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("previous_names"), "{e}");
    }

    #[test]
    fn bad_values_are_errors() {
        assert!(Config::from_yaml("canon:\n  sort_phis: maybe\n", Path::new("x")).is_err());
        let e = Config::from_yaml("textconv:\n  timeout_seconds: 0\n", Path::new("x"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("textconv.timeout_seconds"), "{e}");
    }

    #[test]
    fn the_textconv_time_limit_takes_fractions() {
        let c = Config::from_yaml("textconv:\n  timeout_seconds: 0.25\n", Path::new("x")).unwrap();
        assert_eq!(
            c.textconv.time_limit(),
            Ok(std::time::Duration::from_millis(250))
        );
        assert_eq!(
            Config::default().textconv.time_limit(),
            Ok(std::time::Duration::from_secs(10))
        );
    }
}
