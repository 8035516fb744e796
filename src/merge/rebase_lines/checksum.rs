//! The source file's checksum (`DIFile ... checksum:`), merged on its own.
//!
//! Whenever both sides edited the source, its checksum differs on all three
//! sides, and no merge can know the merged source's. The result then
//! leaves it out (valid IR, and no false claim); otherwise it is the side
//! that changed it. All three inputs get the decided value before the
//! merge, so the checksum never shows as a change anywhere else.
//!
//! ```text
//! base:   !DIFile(filename: "a.c", directory: "/s", checksumkind: CSK_MD5, checksum: "0a")
//! ours:   ... checksum: "1b"        theirs: ... checksum: "2c"
//! all three become: !DIFile(filename: "a.c", directory: "/s")
//! ```

use std::collections::BTreeMap;

use super::nodes::{file_identity, kind, without_checksum};
use crate::canon::debug_lines::field;
use crate::canon::metadata::numbered_definition;

/// A file's checksum fields as written (`checksumkind: CSK_MD5, checksum:
/// "0a"`), `None` when it has none.
type Checksum = Option<String>;

fn checksum_of(rhs: &str) -> Checksum {
    let (kind_at, _) = field(rhs, "checksumkind")?;
    let (value_at, value) = field(rhs, "checksum")?;
    let from = kind_at - "checksumkind: ".len();
    Some(rhs[from.min(value_at)..value_at + value.len()].to_string())
}

/// Each file's checksum in one module; a file with two different ones is
/// left alone (`None`).
fn checksums(text: &str) -> BTreeMap<String, Option<Checksum>> {
    let mut out: BTreeMap<String, Option<Checksum>> = BTreeMap::new();
    for (_, rhs) in text.lines().filter_map(numbered_definition) {
        if kind(rhs) != "DIFile" {
            continue;
        }
        let c = checksum_of(rhs);
        out.entry(file_identity(rhs))
            .and_modify(|seen| {
                if seen.as_ref() != Some(&c) {
                    *seen = None;
                }
            })
            .or_insert(Some(c));
    }
    out
}

/// The merged checksum of every file all three modules describe, and the
/// files whose checksum is left out.
#[derive(Debug, Default)]
pub(crate) struct Decision {
    pub merged: BTreeMap<String, Checksum>,
    pub left_out: Vec<String>,
}

pub(crate) fn decide(base: &str, ours: &str, theirs: &str) -> Decision {
    let (o, a, b) = (checksums(base), checksums(ours), checksums(theirs));
    let mut d = Decision::default();
    for (file, co) in &o {
        let (Some(Some(co)), Some(Some(ca)), Some(Some(cb))) = (Some(co), a.get(file), b.get(file))
        else {
            continue;
        };
        let merged = if ca == co || ca == cb {
            cb.clone()
        } else if cb == co {
            ca.clone()
        } else {
            d.left_out
                .push(file.split('\u{0}').next().unwrap_or("").to_string());
            None
        };
        d.merged.insert(file.clone(), merged);
    }
    d
}

impl Decision {
    /// A `DIFile` definition with the decided checksum (`None`: not a file
    /// the decision covers, or already so).
    pub(crate) fn apply(&self, rhs: &str) -> Option<String> {
        if kind(rhs) != "DIFile" {
            return None;
        }
        let merged = self.merged.get(&file_identity(rhs))?;
        if checksum_of(rhs) == *merged {
            return None;
        }
        let bare = without_checksum(rhs);
        Some(match merged {
            None => bare,
            Some(c) => {
                let at = field(&bare, "source")
                    .map(|(start, _)| start - "source: ".len() - 2)
                    .unwrap_or(bare.len() - 1);
                format!("{}, {c}{}", &bare[..at], &bare[at..])
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(sum: &str) -> String {
        format!(
            "!1 = !DIFile(filename: \"a.c\", directory: \"/s\", checksumkind: CSK_MD5, checksum: \"{sum}\")\n"
        )
    }

    #[test]
    fn three_checksums_are_left_out_two_are_merged() {
        let d = decide(&file("00"), &file("11"), &file("22"));
        assert_eq!(d.left_out, vec!["a.c".to_string()]);
        let rhs = file("11");
        let (_, rhs) = numbered_definition(rhs.trim_end()).unwrap();
        assert_eq!(
            d.apply(rhs).as_deref(),
            Some("!DIFile(filename: \"a.c\", directory: \"/s\")")
        );

        let d = decide(&file("00"), &file("00"), &file("22"));
        assert!(d.left_out.is_empty());
        let base = file("00");
        let (_, rhs) = numbered_definition(base.trim_end()).unwrap();
        assert_eq!(
            d.apply(rhs).as_deref(),
            Some(
                "!DIFile(filename: \"a.c\", directory: \"/s\", checksumkind: CSK_MD5, checksum: \"22\")"
            )
        );
    }
}
