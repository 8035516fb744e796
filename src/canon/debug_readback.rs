//! A view's debug lines read back: every step the view writes (`line: !R+D`
//! from the node above, `sp+N` from a subprogram, inline location steps)
//! undone, so that the view parses again as the module it shows.
//!
//! ```text
//! view:       !9 = !DILexicalBlock(scope: !7, file: !1, line: !8+2, column: 3)
//! read back:  !9 = !DILexicalBlock(scope: !7, file: !1, line: 42, column: 3)
//! ```

/// Absolute lines again, for the whole text.
pub fn absolute(text: &str) -> String {
    if !super::debug_lines::has_lines(text) {
        return text.to_string();
    }
    let unchained = super::debug_chain::unchained(text);
    let located = super::debug_locations::absolute(&unchained);
    super::debug_lines::absolute_scope_steps(&located)
}
