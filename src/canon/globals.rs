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
//! a hash of its type and initializer, so `.str`/`.str.7` renumbering vanishes. Inside an
//! initializer, a reference to another private or unnamed global counts by
//! that global's content, not its name (`[ptr @.str.3]` hashes as
//! `[ptr @#<content of .str.3>]`), and every hash is taken before any
//! name changes. Definitions come first, then declarations, each sorted by
//! name; globals and aliases by name, unnamed ones (`@0`) first by content.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use super::blocks::BlockKeyCache;
use super::signature::GlobalKeys;
use crate::hash::StableHasher;
use crate::ir::content::UnnamedGlobals;
use crate::ir::{IrModule, Val};

/// The part of a private global's name that carries meaning: without a
/// numeric `.N` suffix and without the `.<8 hex digits>` content part irgit
/// itself adds (`.str.12` -> `.str`, `.str.9a3f12bc.1` -> `.str`).
fn stem(name: &str) -> &str {
    fn strip_suffix(name: &str, ok: impl Fn(&str) -> bool) -> Option<&str> {
        let dot = name.rfind('.')?;
        let tail = &name[dot + 1..];
        (!tail.is_empty() && ok(tail)).then(|| &name[..dot])
    }
    let name = strip_suffix(name, |t| t.bytes().all(|b| b.is_ascii_digit())).unwrap_or(name);
    strip_suffix(name, |t| {
        t.len() == 8 && t.bytes().all(|b| b.is_ascii_hexdigit())
    })
    .unwrap_or(name)
}

fn content_hash(g: Val, unnamed: &UnnamedGlobals, keys: &GlobalKeys) -> u64 {
    let init = g
        .initializer()
        .map(|v| keys.constant_text(unnamed, v))
        .unwrap_or_default();
    StableHasher::new()
        .str(&g.type_string())
        .str(&init)
        .u64(g.is_constant_global() as u64)
        .finish()
}

/// Renames every private global to its stem plus a hash of its content and
/// returns those content hashes (what instructions hash such a global by).
/// Globals with equal stem and content get provisional `.1`, `.2` suffixes;
/// [`settle_identical_constants`] fixes them once functions are canonical.
/// With `keep_own`, a global whose name is the file's own
/// ([`super::own_names::is_own_private`]) keeps it, and instructions hash
/// it by that name.
pub(crate) fn name_private_constants(module: &IrModule<'_>, keep_own: bool) -> GlobalKeys {
    let mut keys = GlobalKeys::default();
    // References from one private constant to another (or to an unnamed
    // global) are hashed by the referenced one's content, not by its name;
    // every hash is taken before any name changes.
    let unnamed = UnnamedGlobals::of_module(module, true, &mut |f, b| keys.block_key(f, b));
    // stem -> (content hash, global) of the globals sharing it
    let mut groups: BTreeMap<String, Vec<(u64, Val)>> = BTreeMap::new();
    for g in module.globals() {
        if !g.is_private_linkage() {
            continue;
        }
        let name = g.name();
        let s = stem(&name);
        let s = if s.is_empty() { ".anon" } else { s };
        let h = content_hash(g, &unnamed, &keys);
        groups.entry(s.to_string()).or_default().push((h, g));
    }
    if keep_own {
        groups.retain(|stem, members| {
            let (count, name) = (members.len(), members[0].1.name());
            !super::own_names::is_own_private(&name, stem, count)
        });
    }
    for (stem, mut named) in groups {
        named.sort_by_key(|(h, _)| *h);
        for (_, g) in &named {
            g.set_name("");
        }
        let mut previous: Option<u64> = None;
        let mut repeat = 0;
        for (h, g) in named {
            repeat = if previous == Some(h) { repeat + 1 } else { 0 };
            previous = Some(h);
            g.set_name(&tie_name(&format!("{stem}.{:08x}", h >> 32), repeat));
            keys.insert_private(g, h);
        }
    }
    keys
}

fn tie_name(base: &str, repeat: usize) -> String {
    if repeat == 0 {
        base.to_string()
    } else {
        format!("{base}.{repeat}")
    }
}

/// Private globals with the same stem and content are told apart by the
/// order in which the (canonical) functions first use them.
pub(crate) fn settle_identical_constants(module: &IrModule<'_>, keys: &GlobalKeys) {
    let mut by_name: BTreeMap<String, Vec<Val>> = BTreeMap::new();
    for (g, h) in keys.private() {
        let base = format!("{}.{:08x}", stem_of_named(&g.name(), h), h >> 32);
        by_name.entry(base).or_default().push(g);
    }
    by_name.retain(|_, members| members.len() > 1);
    if by_name.is_empty() {
        return;
    }
    let tied: HashMap<Val, ()> = by_name.values().flatten().map(|&g| (g, ())).collect();
    let mut first_use: HashMap<Val, usize> = HashMap::default();
    let mut counter = 0;
    for f in module.functions() {
        for b in f.blocks() {
            for i in b.iter_instructions() {
                for v in i.iter_operands() {
                    if tied.contains_key(&v) && !first_use.contains_key(&v) {
                        first_use.insert(v, counter);
                    }
                    counter += 1;
                }
            }
        }
    }
    for (base, mut members) in by_name {
        members.sort_by_key(|g| (first_use.get(g).copied().unwrap_or(usize::MAX), g.name()));
        for g in &members {
            g.set_name("");
        }
        for (k, g) in members.iter().enumerate() {
            g.set_name(&tie_name(&base, k));
        }
    }
}

/// The stem of a name given by [`name_private_constants`]: what precedes
/// the `.<8 hex digits>` content part.
fn stem_of_named(name: &str, h: u64) -> &str {
    let hex = format!(".{:08x}", h >> 32);
    match name.find(&hex) {
        Some(at) => &name[..at],
        None => name,
    }
}

/// Orders functions (definitions, then declarations), globals and aliases
/// by name. Unnamed ones (`@0`, printed by their position) come first, in
/// the order of their content keys, so their numbers do not depend on the
/// input's order.
pub(crate) fn order_module(module: &IrModule<'_>) {
    let blocks = BlockKeyCache::default();
    let unnamed = UnnamedGlobals::of_module(module, false, &mut |f, b| blocks.key(f, b));
    let key = |v: Val| (v.name(), unnamed.key(v).unwrap_or("").to_string());
    let mut funcs = module.functions();
    funcs.sort_by_cached_key(|f| (f.is_declaration(), key(f.0)));
    for f in funcs {
        module.move_function_to_end(f);
    }
    let mut globals = module.globals();
    globals.sort_by_cached_key(|&g| key(g));
    for g in globals {
        module.move_global_to_end(g);
    }
    let mut aliases = module.aliases();
    aliases.sort_by_cached_key(|&a| key(a));
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
        assert_eq!(stem(".str.9a3f12bc"), ".str");
        assert_eq!(stem(".str.9a3f12bc.2"), ".str");
        assert_eq!(stem(".str.12345678"), ".str");
    }
}
