//! Where canonical names came from: for every function, each canonical
//! local name and the token the input wrote for the same value; for the
//! module, each canonical global name and the input's name. The merge uses
//! it to write its result in ours' text (`docs/architecture.md`, *Ours'
//! text*).
//!
//! ```text
//! input                            canonical                     source map (@f)
//! define i32 @f(i32 %0) {          define i32 @f(i32 %arg0) {    arg0     -> 0
//!   %2 = add i32 %0, 1               %add.0405 = add ...         add.0405 -> 2
//!   %y = mul i32 %2, 3               %mul.03cc = mul ...         mul.03cc -> y
//! @.str.3 = private constant ...   @.str.9a3f12bc = ...          .str.9a3f12bc -> .str.3
//! ```
//!
//! Unnamed values are recorded by the number LLVM's printer gives them
//! (arguments, then blocks and non-void instructions in order), which is
//! the number the input wrote.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{Func, IrModule, Val};

/// Canonical name → the input's token, per function and for globals.
#[derive(Debug, Clone, Default)]
pub struct SourceNames {
    /// Function name (without `@`) → canonical local name → input token
    /// (without `%`: `x`, `7`, `"a b"`).
    pub locals: HashMap<String, HashMap<String, String>>,
    /// Canonical global name → the input's global name (both without `@`).
    pub globals: HashMap<String, String>,
}

/// The input's names, taken before canonicalization.
pub(crate) struct Recorder {
    funcs: Vec<(Func, Vec<(Val, String)>)>,
    globals: Vec<(Val, String)>,
}

/// How LLVM prints a name (without the sigil): bare when it does not start
/// with a digit and every character is a letter, a digit, `-`, `.` or `_`,
/// else in quotes with `\XX` escapes (`$` is quoted: `@"main.f$1"`).
pub(crate) fn name_token(name: &str) -> String {
    let bare = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'));
    if bare {
        return name.to_string();
    }
    let mut s = String::from("\"");
    for b in name.bytes() {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\{b:02X}"));
        }
    }
    s.push('"');
    s
}

/// Each argument, block and instruction of `f` that the printer names,
/// with its token: its name, or its slot number when unnamed.
fn local_tokens(f: Func) -> Vec<(Val, String)> {
    let mut out = Vec::new();
    let mut slot = 0usize;
    let mut take = |v: Val, out: &mut Vec<(Val, String)>| {
        let n = v.name();
        if n.is_empty() {
            out.push((v, slot.to_string()));
            slot += 1;
        } else {
            out.push((v, name_token(&n)));
        }
    };
    for p in f.params() {
        take(p, &mut out);
    }
    for b in f.blocks() {
        take(b.as_val(), &mut out);
        for i in b.iter_instructions() {
            if !i.val().is_void() {
                take(i.val(), &mut out);
            }
        }
    }
    out
}

impl Recorder {
    /// Records the names of `module` as parsed.
    pub(crate) fn before(module: &IrModule<'_>) -> Recorder {
        let funcs = module
            .functions()
            .into_iter()
            .filter(|f| !f.is_declaration())
            .map(|f| (f, local_tokens(f)))
            .collect();
        let globals = module
            .globals()
            .into_iter()
            .chain(module.aliases())
            .chain(module.functions().into_iter().map(|f| f.0))
            .map(|g| (g, g.name()))
            .filter(|(_, n)| !n.is_empty())
            .collect();
        Recorder { funcs, globals }
    }

    /// Pairs the recorded names with the canonical ones.
    pub(crate) fn after(self) -> SourceNames {
        let mut names = SourceNames::default();
        for (f, before) in self.funcs {
            let now: HashMap<Val, String> = local_tokens(f).into_iter().collect();
            let map = before
                .into_iter()
                .filter_map(|(v, old)| now.get(&v).map(|new| (new.clone(), old)))
                .collect();
            names.locals.insert(f.name(), map);
        }
        for (g, old) in self.globals {
            names.globals.insert(g.name(), old);
        }
        names
    }
}

#[cfg(test)]
mod tests {
    use super::name_token;

    #[test]
    fn tokens_are_quoted_as_llvm_prints_them() {
        assert_eq!(name_token("x.1"), "x.1");
        assert_eq!(name_token("a b"), "\"a b\"");
        assert_eq!(name_token("1x"), "\"1x\"");
        assert_eq!(name_token("main.f$1"), "\"main.f$1\"");
        assert_eq!(name_token("q\""), "\"q\\22\"");
    }
}
