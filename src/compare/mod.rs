//! The comparison layer: two versions of a module as text, matched and
//! diffed. The merge, the summary (`irgit diff`) and `irgit passes` all
//! read it; none of it writes a file.
//!
//! ```text
//! old: define i32 @f(i32 %x) {        new: define i32 @f(i32 %x) {
//!        %a = add i32 %x, 1                  %b = add i32 %x, 1
//!        ret i32 %a                          %c = mul i32 %b, 2
//!                                            ret i32 %c
//! model: one FuncText per function, a BlockText per block, each line with its references
//! matching: %a ↔ %b (same line once names are set aside)
//! diff: one Hunk, `+ %c = mul i32 %b, 2`, and `ret` changed only in the name it uses
//! ```
//!
//! | part | module |
//! |---|---|
//! | a printed module cut into functions, blocks and lines | [`model`] |
//! | each value of one version paired with one of the other | [`matching`] |
//! | the line diff (one [`diff::Hunk`]) | [`diff`] |
//! | functions renamed between versions | [`rename`] |
//! | one version's text in another's names | [`faithful`] |

pub mod diff;
pub mod faithful;
pub mod matching;
pub mod model;
pub mod rename;
