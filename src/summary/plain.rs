//! The plain line diff `irgit diff` shows as git's external diff when a
//! side is not LLVM IR it can read: what git shows without irgit, so the
//! change is never hidden behind "could not compare".
//!
//! ```text
//! old bad.ll: "this is not IR\n"   ─►  --- a/bad.ll
//! new bad.ll: "still not IR\n"         +++ b/bad.ll
//!                                      @@ -1 +1 @@
//!                                      -this is not IR
//!                                      +still not IR
//! a .bc that does not parse        ─►  Binary files a/k.bc and b/k.bc differ
//! ```

/// How far git looks for a NUL byte to call a file binary.
const BINARY_PROBE: usize = 8000;

/// The unified diff of `old` and `new` (`None`: the side is /dev/null),
/// labelled `a/...` and `b/...`; empty when the bytes are equal.
pub(crate) fn plain_diff(
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    old_label: &str,
    new_label: &str,
) -> String {
    if old == new {
        return String::new();
    }
    let old_label = if old.is_some() {
        old_label
    } else {
        "/dev/null"
    };
    let new_label = if new.is_some() {
        new_label
    } else {
        "/dev/null"
    };
    let (Some(old_text), Some(new_text)) = (as_text(old), as_text(new)) else {
        return format!("Binary files {old_label} and {new_label} differ\n");
    };
    similar::TextDiff::from_lines(old_text, new_text)
        .unified_diff()
        .context_radius(3)
        .header(old_label, new_label)
        .to_string()
}

/// The side as text: `None` for bytes git calls binary (a NUL early on) or
/// that are not UTF-8; /dev/null is empty.
fn as_text(side: Option<&[u8]>) -> Option<&str> {
    match side {
        None => Some(""),
        Some(bytes) if bytes[..bytes.len().min(BINARY_PROBE)].contains(&0) => None,
        Some(bytes) => std::str::from_utf8(bytes).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_change_reads_as_git_shows_it() {
        let diff = plain_diff(
            Some(b"one\ntwo\nthree\n"),
            Some(b"one\n2\nthree\n"),
            "a/x.ll",
            "b/x.ll",
        );
        assert_eq!(
            diff,
            "--- a/x.ll\n+++ b/x.ll\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
        );
    }

    #[test]
    fn an_added_file_comes_from_dev_null_and_equal_files_show_nothing() {
        let diff = plain_diff(None, Some(b"new\n"), "a/x.ll", "b/x.ll");
        assert_eq!(diff, "--- /dev/null\n+++ b/x.ll\n@@ -0,0 +1 @@\n+new\n");
        assert_eq!(plain_diff(Some(b"a\n"), Some(b"a\n"), "a/x", "b/x"), "");
    }

    #[test]
    fn bytes_with_a_nul_are_a_binary_change() {
        let diff = plain_diff(Some(b"BC\xc0\xde\0\x01"), None, "a/k.bc", "b/k.bc");
        assert_eq!(diff, "Binary files a/k.bc and /dev/null differ\n");
    }
}
