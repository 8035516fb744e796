//! Module-level order and private constant names.
//!
//! ```text
//! before                                         after
//! @.str.1 = private constant [3 x i8] c"hi\00"   @.str.3c81e2aa = private constant [3 x i8] c"hi\00"
//! @.str = private constant [4 x i8] c"bye\00"    @.str.9d04f1b7 = private constant [4 x i8] c"bye\00"
//! declare i32 @puts(ptr)                         define i32 @a() ...
//! define i32 @b() ...                            define i32 @b() ...
//! define i32 @a() ...                            declare i32 @puts(ptr)
//! ```
//!
//! Private globals are invisible outside the object file, so their names
//! carry no meaning; each gets its stem (the name without a `.N` suffix) and
//! a hash of its type and initializer, so `.str`/`.str.7` renumbering vanishes. Definitions come first, then
//! declarations, each sorted by name; globals and aliases by name.

use std::collections::BTreeMap;

use crate::hash::StableHasher;
use crate::ir::{IrModule, Val};

/// `.str.12` -> `.str`; names without a numeric suffix are returned whole.
fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(dot)
            if dot + 1 < name.len() && name[dot + 1..].bytes().all(|b| b.is_ascii_digit()) =>
        {
            &name[..dot]
        }
        _ => name,
    }
}

fn content_hash(g: Val) -> u64 {
    let init = g.initializer().map(|v| v.print()).unwrap_or_default();
    StableHasher::new()
        .str(&g.type_string())
        .str(&init)
        .u64(g.is_constant_global() as u64)
        .finish()
}

/// Renames every private global to its stem plus a hash of its content.
pub fn name_private_constants(module: &IrModule<'_>) {
    // stem -> globals sharing it
    let mut groups: BTreeMap<String, Vec<Val>> = BTreeMap::new();
    for g in module.globals() {
        if !g.is_private_linkage() {
            continue;
        }
        let name = g.name();
        let s = stem(&name);
        let s = if s.is_empty() { ".anon" } else { s };
        groups.entry(s.to_string()).or_default().push(g);
    }
    for (stem, members) in groups {
        let mut named: Vec<(u64, Val)> = members.iter().map(|&g| (content_hash(g), g)).collect();
        named.sort_by_key(|(h, _)| *h);
        for (_, g) in &named {
            g.set_name("");
        }
        let mut previous: Option<u64> = None;
        let mut repeat = 0;
        for (h, g) in named {
            repeat = if previous == Some(h) { repeat + 1 } else { 0 };
            previous = Some(h);
            let mut name = format!("{stem}.{:08x}", h >> 32);
            if repeat > 0 {
                name.push_str(&format!(".{repeat}"));
            }
            g.set_name(&name);
        }
    }
}

/// Orders functions (definitions, then declarations), globals and aliases by name.
pub fn order_module(module: &IrModule<'_>) {
    let mut funcs = module.functions();
    funcs.sort_by_cached_key(|f| (f.is_declaration(), f.name()));
    for f in funcs {
        module.move_function_to_end(f);
    }
    let mut globals = module.globals();
    globals.sort_by_cached_key(|g| g.name());
    for g in globals {
        module.move_global_to_end(g);
    }
    let mut aliases = module.aliases();
    aliases.sort_by_cached_key(|a| a.name());
    for a in aliases {
        module.move_alias_to_end(a);
    }
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn stems_drop_only_numeric_suffixes() {
        assert_eq!(stem(".str.12"), ".str");
        assert_eq!(stem(".str"), ".str");
        assert_eq!(stem("__const.main.arr"), "__const.main.arr");
        assert_eq!(stem("x."), "x.");
    }
}
