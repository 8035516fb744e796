//! The names a file has, which the diff view of compiler output keeps.
//!
//! ```text
//! compiler output                          view
//! define void @f(ptr %context) {           define void @f(ptr %context) {
//! entry:                                   entry:
//!   %new = call ptr @alloc(i32 4)            %new = call ptr @alloc(i32 4)
//!   %0 = load i32, ptr %new                  %ld.5a68 = load i32, ptr %new
//!   %setjmp1 = call i32 @setjmp()            %call.9c1e = call i32 @setjmp()
//!   br label %rundefers.loophead             br label %rundefers.loophead
//! rundefers.loophead:                      rundefers.loophead:
//! ```
//!
//! A compiler gives values and blocks names that say what they are
//! (`%new`, `rundefers.loophead`); they survive a change elsewhere in the
//! function, and the view keeps them, so a change shows where it is. What
//! only numbers is renamed, as in the canonical form: a numbered value
//! (`%0`, `3:`), and a name ending in a digit, which is LLVM's collision
//! suffix (`%setjmp1`, `for.body12`: the second `setjmp` of the function
//! gets `1`, so an inserted one renumbers every later one) or a counter of
//! the compiler's. A name the view itself gave (`%ld.5a68`, `bb.02f9`, a
//! file stored in canonical form) is not the file's own either: it is
//! given again, so the view of a view is itself.
//!
//! A private global keeps its name unless it is one of a family the
//! compiler numbers (`@.str`, `@.str.1`, `@"main$string.3"`): such a name
//! says in which order the compiler made the constants, and is named by
//! content ([`super::globals`]).

/// Which names a function's values and blocks keep from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kept {
    /// None: the canonical form.
    Nothing,
    /// Every name the input gives (the view of a lit test).
    Written,
    /// The file's own names ([`is_own`]: the view of compiler output).
    Own,
}

impl Kept {
    /// Whether a value or block named `name` in the input keeps the name.
    pub(crate) fn keeps(self, name: &str) -> bool {
        self.keeps_input(InputName::of(name))
    }

    /// [`Kept::keeps`] for a name already read into an [`InputName`].
    pub(crate) fn keeps_input(self, name: InputName) -> bool {
        match self {
            Kept::Nothing => false,
            Kept::Written => name != InputName::Unnamed,
            Kept::Own => name == InputName::Own,
        }
    }
}

/// What the input name of a value is, as far as keeping it goes: read once
/// per instruction ([`input_names`]), where every stage would otherwise ask
/// LLVM for the name again (a lookup in a table of every name in the
/// module, which misses the cache on a large function).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputName {
    /// No name (`%0`).
    Unnamed,
    /// A name that only numbers or that the view gave (`%add5`, `%ld.5a68`).
    Renamed,
    /// The file's own name ([`is_own`]).
    Own,
}

impl InputName {
    /// What `name` is (empty: no name).
    fn of(name: &str) -> InputName {
        if name.is_empty() {
            InputName::Unnamed
        } else if is_own(name) {
            InputName::Own
        } else {
            InputName::Renamed
        }
    }
}

/// The [`InputName`] of each of `insts`.
pub(crate) fn input_names(insts: &[crate::ir::Inst]) -> Vec<InputName> {
    insts
        .iter()
        .map(|inst| inst.val().with_name(InputName::of))
        .collect()
}

/// Whether `name` (a local value's or a block's, without `%`) is the file's
/// own name, which the view keeps.
pub(crate) fn is_own(name: &str) -> bool {
    let Some(last) = name.bytes().last() else {
        return false;
    };
    !last.is_ascii_digit() && !is_view_name(name)
}

/// Whether `name` has the form the view gives: `<mnemonic>.<hash>` with a
/// hash of 4, 8 or 16 hex digits (`ld.5a68`, `bb.02f9`, `add.0405c2aa`).
fn is_view_name(name: &str) -> bool {
    let Some((stem, hash)) = name.split_once('.') else {
        return false;
    };
    matches!(hash.len(), 4 | 8 | 16)
        && hash
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        && (stem == "bb" || is_mnemonic(stem))
}

/// Every mnemonic the view names a value by (`naming::mnemonic`: an
/// instruction that has a result), which tells a name the view gave.
const MNEMONICS: &[&str] = &[
    "var",
    "ld",
    "gep",
    "cmp",
    "sel",
    "call",
    "ev",
    "iv",
    "ee",
    "ie",
    "shuf",
    "rmw",
    "cas",
    "lp",
    "fneg",
    "add",
    "fadd",
    "sub",
    "fsub",
    "mul",
    "fmul",
    "udiv",
    "sdiv",
    "fdiv",
    "urem",
    "srem",
    "frem",
    "shl",
    "lshr",
    "ashr",
    "and",
    "or",
    "xor",
    "trunc",
    "zext",
    "sext",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "fptrunc",
    "fpext",
    "ptrtoint",
    "ptrtoaddr",
    "inttoptr",
    "bitcast",
    "addrspacecast",
    "phi",
    "va_arg",
    "freeze",
    "catchpad",
    "cleanuppad",
    "catchswitch",
];

/// Whether `stem` is a mnemonic the view names values by.
pub(super) fn is_mnemonic(stem: &str) -> bool {
    MNEMONICS.contains(&stem)
}

/// Whether the private global `name` is the file's own name, given the
/// stems ([`super::globals`]) of every private global of the module: it is
/// not numbered, its family has no other member, and it is not one of the
/// unnamed compiler constants (`@.str`, `@.compoundliteral`, `@0`).
pub(crate) fn is_own_private(name: &str, stem: &str, members_of_stem: usize) -> bool {
    !name.is_empty() && !name.starts_with('.') && name == stem && members_of_stem == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_only_number_are_not_own() {
        for name in ["", "0", "12", "setjmp1", "for.body12", "i.0", "arg0"] {
            assert!(!is_own(name), "{name}");
        }
        for name in [
            "new",
            "rundefers.loophead",
            "x.addr",
            "entry",
            "call.deadline",
        ] {
            assert!(is_own(name), "{name}");
        }
    }

    #[test]
    fn names_the_view_gave_are_not_own() {
        for name in ["ld.5a68", "bb.02f9", "add.0405c2aa", "var.0123456789abcdef"] {
            assert!(!is_own(name), "{name}");
        }
        // Not a mnemonic, or not a hash of the view's length.
        for name in ["x.beef", "ld.abcde", "bb.02Fa", "cond.true"] {
            assert!(is_own(name), "{name}");
        }
    }

    #[test]
    fn private_globals_of_a_numbered_family_are_not_own() {
        assert!(is_own_private(
            "reflect/types.type:basic:int",
            "reflect/types.type:basic:int",
            1
        ));
        assert!(!is_own_private(".str", ".str", 1));
        assert!(!is_own_private("main$string.3", "main$string", 1));
        assert!(!is_own_private("msg", "msg", 2));
        assert!(!is_own_private("", "", 1));
    }
}
