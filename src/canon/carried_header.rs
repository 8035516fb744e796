//! A module header LLVM rejects but the view can carry: the `target
//! datalayout` and `target triple` strings a test suite replaced by a
//! placeholder so that its golden files do not depend on the host. They are
//! set aside for parsing (an empty string is LLVM's default) and printed
//! back as written, where LLVM prints them.
//!
//! ```text
//! as written                              parsed as                  view
//! source_filename = "p.c"                 source_filename = "p.c"    source_filename = "p.c"
//! target datalayout = "..."               target datalayout = ""     target datalayout = "..."
//! target triple = "..."                   target triple = ""         target triple = "..."
//! ```
//!
//! Only a file LLVM rejects as written is read this way, and only when it
//! parses and verifies once those two lines are set aside.

/// The two header lines as written, and the text with their values emptied.
pub(super) struct SetAside {
    /// The text to parse: each carried line's string emptied.
    pub(super) parsed: String,
    /// The carried lines as written, in their order, without line ends.
    lines: Vec<String>,
}

/// The header lines `text` carries, or `None` when it has none.
pub(super) fn set_aside(text: &str) -> Option<SetAside> {
    let mut lines = Vec::new();
    let mut parsed = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        match carried_key(body) {
            Some(key) => {
                lines.push(body.to_string());
                parsed.push_str(&format!("{key} = \"\""));
                parsed.push_str(&line[body.len()..]);
            }
            None => parsed.push_str(line),
        }
    }
    (!lines.is_empty()).then_some(SetAside { parsed, lines })
}

/// `target datalayout` or `target triple` when `line` sets one of them.
fn carried_key(line: &str) -> Option<&'static str> {
    ["target datalayout", "target triple"]
        .into_iter()
        .find(|key| {
            line.strip_prefix(key)
                .map(str::trim_start)
                .and_then(|rest| rest.strip_prefix('='))
                .is_some_and(|value| value.trim_start().starts_with('"'))
        })
}

impl SetAside {
    /// `printed` (a view of the parsed text, which has neither line: LLVM
    /// prints no empty header) with the carried lines put back where LLVM
    /// prints them: after `source_filename`, else after the leading
    /// comments.
    pub(super) fn put_back(&self, printed: &str) -> String {
        let mut at = 0;
        let mut after_comments = 0;
        let mut offset = 0;
        for line in printed.split_inclusive('\n') {
            offset += line.len();
            if line.starts_with("source_filename = ") {
                at = offset;
                break;
            }
            if after_comments + line.len() == offset && line.starts_with(';') {
                after_comments = offset;
            }
        }
        if at == 0 {
            at = after_comments;
        }
        let carried: String = self.lines.iter().map(|l| format!("{l}\n")).collect();
        format!("{}{carried}{}", &printed[..at], &printed[at..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_carried_around_the_parse() {
        let text = "; ModuleID = 'p.c'\nsource_filename = \"p.c\"\ntarget datalayout = \"...\"\ntarget triple = \"...\"\n\ndefine void @f() {\n  ret void\n}\n";
        let aside = set_aside(text).unwrap();
        assert!(aside
            .parsed
            .contains("target datalayout = \"\"\ntarget triple = \"\"\n"));
        let printed =
            "; ModuleID = 'p.c'\nsource_filename = \"p.c\"\n\ndefine void @f() {\n  ret void\n}\n";
        assert_eq!(aside.put_back(printed), text);
        assert!(set_aside("define void @f() {\n  ret void\n}\n").is_none());
    }

    #[test]
    fn without_source_filename_the_lines_follow_the_comments() {
        let aside = set_aside("; a test\ntarget triple = \"...\"\n").unwrap();
        assert_eq!(
            aside.put_back("; a test\n\n@g = global i32 0\n"),
            "; a test\ntarget triple = \"...\"\n\n@g = global i32 0\n"
        );
    }
}
