//! Settings from `.irgit.yaml` (at the repository root, or given with
//! `--config`), validated strictly: an unknown key or a bad value is an error
//! that names the file, never silently ignored.
//!
//! ```yaml
//! # .irgit.yaml — every key is optional; shown with its default.
//! canon:
//!   reorder_instructions: true   # def-use walk from the outputs
//!   rename_values: true          # content-derived names for values and arguments
//!   rename_blocks: true          # bb0, bb1, ... in canonical block order
//!   reorder_blocks: true         # reverse post-order from the entry block
//!   sort_phis: true              # PHI incoming pairs by block order
//!   order_operands: true         # commutative operands, mirrored compares
//!   reorder_globals: true        # functions, globals, aliases by name
//!   rename_private_constants: true  # @.str.N -> @.str.<content hash>
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
    /// Name blocks `bb0`, `bb1`, ... in canonical block order.
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
        }
    }
}

/// The whole `.irgit.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub canon: CanonOptions,
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
pub const CONFIG_FILE_NAME: &str = ".irgit.yaml";

impl Config {
    /// Parses YAML text; `path` is only used in error messages.
    pub fn from_yaml(text: &str, path: &Path) -> Result<Config, ConfigError> {
        if text.trim().is_empty() {
            return Ok(Config::default());
        }
        serde_yaml::from_str(text).map_err(|e| ConfigError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
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
    fn bad_values_are_errors() {
        assert!(Config::from_yaml("canon:\n  sort_phis: maybe\n", Path::new("x")).is_err());
    }
}
