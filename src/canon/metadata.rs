//! Metadata identity: which `!N` node of one module is which node of another.
//!
//! LLVM numbers metadata nodes in print order, so a number is a position:
//! one global added above renumbers every later node, and `!26` in two
//! versions of a file may be two different nodes. A node's *identity* does
//! not depend on numbers:
//!
//! - a node is known by its **content**: its text with every `!M` replaced
//!   by M's content (a reference to the node itself reads `!self`; the
//!   nodes of a cycle are keyed together, [`super::metadata_keys`]);
//! - nodes of equal content (*twins*: every loop's
//!   `distinct !{!self, !"llvm.loop.mustprogress"}`) are told apart by their
//!   **anchor**: the first entity (function, global, named metadata) that
//!   uses one, in text order, and the ordinal among the twins first used
//!   there; a twin only other nodes name (an alias scope in a list, a
//!   helper's `DISubprogram` under an inlined location) is anchored by its
//!   first referrer, breadth first from the entities' uses. A twin used by two functions (the inliner leaves such pairs) is
//!   one identity in every version that keeps that sharing. Anonymous
//!   distinct nodes (a `distinct !{...}` tuple, `distinct !DIAssignID()`)
//!   are always anchored, twin or not, so that a loop added in one function
//!   does not change the identity of a loop in another.
//!
//! ```text
//! define void @a() { ... !llvm.loop !5 }                   !5 = distinct !{!5, !7}
//! define void @b() { ... !llvm.loop !5 ... !llvm.loop !6 } !6 = distinct !{!6, !7}
//! identity(!5) = (content C, first used in @a, twin 0)
//! identity(!6) = (content C, first used in @b, twin 0)   whatever the numbers
//! ```
//!
//! - any other node is known by its text with each reference read as the
//!   referenced node's identity: a location whose scope became another
//!   twin is another location.
//!
//! The canonical form numbers nodes by identity and the merge compares and
//! shares nodes by identity: one definition serves both.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

use crate::hash::StableHasher;
use crate::text::{scan_refs, Ref};

/// A reference to metadata node `!node` made by `entity` (a function,
/// global or named-metadata name), in text order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MetaUse<'a> {
    pub entity: &'a str,
    pub node: u32,
}

/// The identity of every numbered node of a module, from its definitions
/// (`N` → the right-hand side of `!N = ...`) and the uses entities make of
/// them, in text order. Identities are equal across modules exactly when
/// content and anchor are.
pub(crate) fn identities<S: AsRef<str>>(
    defs: &BTreeMap<u32, S>,
    uses: &[MetaUse<'_>],
) -> HashMap<u32, u64> {
    let content = content_keys(defs);
    let mut twins: HashMap<u64, Vec<u32>> = HashMap::default();
    for (&n, &k) in &content {
        twins.entry(k).or_default().push(n);
    }
    let anchors = anchors_of_twins(defs, &content, &twins, uses);
    let mut anchored: HashMap<u32, u64> = anchors
        .iter()
        .map(|(&n, (entity, ordinal))| (n, anchored_identity(content[&n], entity, *ordinal)))
        .collect();
    // Every other node is known by its text with each reference read as
    // the referenced node's identity: a location whose scope became another
    // twin is another location.
    super::metadata_keys::fill_keys(defs, &mut anchored);
    anchored
}

/// The identity of a twin: its content and its anchor.
fn anchored_identity(content: u64, entity: &str, ordinal: u64) -> u64 {
    StableHasher::new()
        .u64(content)
        .str(entity)
        .u64(ordinal)
        .finish()
}

/// [`identities`] of a module printed by LLVM: definitions are its
/// `!N = ...` lines, uses every `!N` in its functions, globals and named
/// metadata.
pub(crate) fn identities_in_text(text: &str) -> HashMap<u32, u64> {
    let mut defs: BTreeMap<u32, &str> = BTreeMap::new();
    let mut uses = Vec::new();
    let mut function: Option<&str> = None;
    for line in crate::text::lines(text) {
        if line.starts_with("define ") {
            function = Some(crate::text::anchor_name(line).unwrap_or(line));
        }
        if let Some(f) = function {
            uses_in(line, f, &mut uses);
            if line == "}" {
                function = None;
            }
            continue;
        }
        if let Some((n, rhs)) = numbered_definition(line) {
            defs.insert(n, rhs);
        } else if !line.starts_with(';') {
            let entity = line.split_once(" = ").map_or(line, |(e, _)| e);
            uses_in(line, entity, &mut uses);
        }
    }
    identities(&defs, &uses)
}

/// `(N, rhs)` of a line `!N = rhs`.
pub(crate) fn numbered_definition(line: &str) -> Option<(u32, &str)> {
    let rest = line.strip_prefix('!')?;
    let (n, rhs) = rest.split_once(" = ")?;
    Some((n.parse().ok()?, rhs))
}

/// Appends the metadata references of `line` as uses by `entity`.
pub(crate) fn uses_in<'a>(line: &str, entity: &'a str, uses: &mut Vec<MetaUse<'a>>) {
    crate::text::scan_numbered(line, b'!', |_, _, node| {
        uses.push(MetaUse { entity, node });
    });
}

/// The content key of every defined node (twins share one).
pub(crate) fn content_keys<S: AsRef<str>>(defs: &BTreeMap<u32, S>) -> HashMap<u32, u64> {
    let mut keys = HashMap::default();
    super::metadata_keys::fill_keys(defs, &mut keys);
    keys
}

/// A distinct node whose content does not describe it: twins are the rule.
pub(crate) fn is_anonymous(rhs: &str) -> bool {
    rhs.starts_with("distinct !{") || rhs.starts_with("distinct !DIAssignID(")
}

/// The anchor of every node that has a twin or is anonymous: `(entity, ordinal)`.
/// Entities' uses come first, in text order; then references from other
/// nodes, breadth first from the used ones (the referrer's content, and its
/// own anchor when it has one, is the entity: two lists alike that name
/// two scopes alike tell them apart); a twin nothing refers to is anchored
/// by its rank among its unreferenced twins.
fn anchors_of_twins<S: AsRef<str>>(
    defs: &BTreeMap<u32, S>,
    content: &HashMap<u32, u64>,
    twins: &HashMap<u64, Vec<u32>>,
    uses: &[MetaUse<'_>],
) -> HashMap<u32, (String, u64)> {
    let has_twin = |n: u32| {
        content.get(&n).is_some_and(|k| twins[k].len() > 1)
            || defs.get(&n).is_some_and(|rhs| is_anonymous(rhs.as_ref()))
    };
    let mut anchors: HashMap<u32, (String, u64)> = HashMap::default();
    // Per (entity, content key): how many twins were first used there.
    let mut counts: HashMap<(String, u64), u64> = HashMap::default();
    let mut anchor = |n: u32, entity: &str, anchors: &mut HashMap<u32, (String, u64)>| {
        if anchors.contains_key(&n) || !has_twin(n) {
            return;
        }
        let c = counts.entry((entity.to_string(), content[&n])).or_insert(0);
        anchors.insert(n, (entity.to_string(), *c));
        *c += 1;
    };
    let mut queue = std::collections::VecDeque::new();
    let mut queued: rustc_hash::FxHashSet<u32> = Default::default();
    for u in uses {
        anchor(u.node, u.entity, &mut anchors);
        if defs.contains_key(&u.node) && queued.insert(u.node) {
            queue.push_back(u.node);
        }
    }
    let mut rest = defs.keys();
    while let Some(referrer) = queue
        .pop_front()
        .or_else(|| rest.by_ref().find(|n| queued.insert(**n)).copied())
    {
        let k = content.get(&referrer).copied().unwrap_or(0);
        let entity = match anchors.get(&referrer) {
            Some((e, o)) => format!("!i{:x}", anchored_identity(k, e, *o)),
            None => format!("!k{k:x}"),
        };
        scan_refs(defs[&referrer].as_ref(), |_, _, r| {
            if let Ref::Meta(x) = r {
                if x != referrer {
                    anchor(x, &entity, &mut anchors);
                    if defs.contains_key(&x) && queued.insert(x) {
                        queue.push_back(x);
                    }
                }
            }
        });
    }
    for &n in defs.keys() {
        anchor(n, "", &mut anchors);
    }
    anchors
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHARED: &str = "\
define void @a() {
entry:
  br label %entry, !llvm.loop !5
}
define void @b() {
entry:
  br label %entry, !llvm.loop !5
  br label %entry, !llvm.loop !6
}
!5 = distinct !{!5, !7}
!6 = distinct !{!6, !7}
!7 = !{!\"llvm.loop.mustprogress\"}
";

    #[test]
    fn twins_are_told_apart_by_their_first_user() {
        let ids = identities_in_text(SHARED);
        assert_ne!(ids[&5], ids[&6]);
        // Renumbered, and @b's own loop printed first: same identities.
        let renumbered = SHARED
            .replace("!5", "!X")
            .replace("!6", "!5")
            .replace("!X", "!6")
            .replace("!7", "!1");
        let again = identities_in_text(&renumbered);
        assert_eq!(again[&6], ids[&5]);
        assert_eq!(again[&5], ids[&6]);
        assert_eq!(again[&1], ids[&7]);
    }

    #[test]
    fn a_shared_twin_keeps_its_identity_when_another_function_changes() {
        let ids = identities_in_text(SHARED);
        // @b loses its own loop: the shared node is still the same node.
        let edited = SHARED.replace("  br label %entry, !llvm.loop !6\n", "");
        let again = identities_in_text(&edited);
        assert_eq!(again[&5], ids[&5]);
    }

    #[test]
    fn unsharing_a_twin_changes_its_identity() {
        let ids = identities_in_text(SHARED);
        // @a gets a loop node of its own, equal in content: a different module.
        let unshared =
            SHARED.replacen("!llvm.loop !5", "!llvm.loop !8", 1) + "!8 = distinct !{!8, !7}\n";
        let again = identities_in_text(&unshared);
        assert_eq!(again[&8], ids[&5], "@a's node is anchored where !5 was");
        assert_ne!(again[&5], ids[&5], "@b's node is now anchored in @b");
    }

    #[test]
    fn a_loop_added_elsewhere_leaves_a_loop_alone() {
        let one = "define void @a() {\nentry:\n  br label %entry, !llvm.loop !1\n}\n\
                   !1 = distinct !{!1, !2}\n!2 = !{!\"llvm.loop.mustprogress\"}\n";
        let two = one.to_string()
            + "define void @b() {\nentry:\n  br label %entry, !llvm.loop !3\n}\n\
               !3 = distinct !{!3, !2}\n";
        assert_eq!(identities_in_text(one)[&1], identities_in_text(&two)[&1]);
    }

    /// @a and @b share scope list !1 (scope !2); @c has a list and scope
    /// alike (!6, !7). Then @a gets a list and a scope of its own, alike.
    const SCOPES: &str = "\
define void @a() {\n  load i32, ptr null, !alias.scope !1\n}
define void @b() {\n  load i32, ptr null, !alias.scope !1\n}
define void @c() {\n  load i32, ptr null, !alias.scope !6\n}
!1 = !{!2}
!2 = distinct !{!2, !3, !\"scope\"}
!3 = distinct !{!3, !\"domain\"}
!6 = !{!7}
!7 = distinct !{!7, !3, !\"scope\"}
";

    #[test]
    fn twins_only_nodes_name_are_told_apart_by_their_referrers() {
        let ids = identities_in_text(SCOPES);
        assert_ne!(ids[&2], ids[&7]);
        let own = SCOPES.replacen("!alias.scope !1", "!alias.scope !4", 1)
            + "!4 = !{!5}\n!5 = distinct !{!5, !3, !\"scope\"}\n";
        let again = identities_in_text(&own);
        // @a, the first user, keeps the old list and scope; @b's are new.
        assert_eq!(again[&4], ids[&1]);
        assert_eq!(again[&5], ids[&2]);
        assert_ne!(again[&1], ids[&1]);
        assert_ne!(again[&2], ids[&2]);
        assert_eq!(again[&7], ids[&7]);
        // Numbered the other way round: the same identities.
        let swapped = own
            .replace("!4", "!X")
            .replace("!1", "!4")
            .replace("!X", "!1")
            .replace("!5", "!Y")
            .replace("!2", "!5")
            .replace("!Y", "!2");
        let third = identities_in_text(&swapped);
        assert_eq!(third[&1], again[&4]);
        assert_eq!(third[&2], again[&5]);
    }

    #[test]
    fn a_node_naming_another_twin_is_another_node() {
        // Locations in @a and @b name helper !3; @c's names !5, alike.
        let text = "define void @a() {\n  ret void, !dbg !1\n}\n\
                    define void @b() {\n  ret void, !dbg !2\n}\n\
                    define void @c() {\n  ret void, !dbg !4\n}\n\
                    !1 = !DILocation(line: 1, scope: !3)\n!2 = !DILocation(line: 2, scope: !3)\n\
                    !3 = distinct !DISubprogram(name: \"h\")\n\
                    !4 = !DILocation(line: 3, scope: !5)\n\
                    !5 = distinct !DISubprogram(name: \"h\")\n";
        let shared = identities_in_text(text);
        // @b's location gets a helper of its own.
        let split = identities_in_text(
            &(text.replace("line: 2, scope: !3", "line: 2, scope: !6")
                + "!6 = distinct !DISubprogram(name: \"h\")\n"),
        );
        assert_eq!(split[&1], shared[&1]);
        assert_eq!(split[&3], shared[&3]);
        assert_ne!(split[&2], shared[&2]);
        assert_eq!(split[&4], shared[&4]);
    }

    /// A function's subprogram, its variable and the list that retains it
    /// form a cycle (the variable's scope is the subprogram).
    const CYCLE: &str = "\
define void @f() {\n  ret void, !dbg !5\n}
!1 = !DILocalVariable(name: \"v\", scope: !2, line: 3)
!2 = distinct !DISubprogram(name: \"f\", line: 1, retainedNodes: !3)
!3 = !{!1}
!5 = !DILocation(line: 4, scope: !2)
";

    #[test]
    fn a_cycle_is_known_the_same_whichever_node_the_walk_reaches_first() {
        let ids = identities_in_text(CYCLE);
        // A location numbered first reaches the cycle at the subprogram,
        // not at the variable: the same nodes.
        let first = CYCLE.replace("!dbg !5", "!dbg !0").replace("!5 =", "!0 =");
        let again = identities_in_text(&first);
        for n in [1, 2, 3] {
            assert_eq!(again[&n], ids[&n], "!{n}");
        }
        assert_eq!(again[&0], ids[&5]);
        // Numbered the other way round: the same identities.
        let swapped = CYCLE
            .replace("!1", "!X")
            .replace("!3", "!1")
            .replace("!X", "!3");
        let third = identities_in_text(&swapped);
        assert_eq!(third[&3], ids[&1]);
        assert_eq!(third[&1], ids[&3]);
        assert_eq!(third[&2], ids[&2]);
        // Another variable name is another cycle.
        let other = identities_in_text(&CYCLE.replace("\"v\"", "\"w\""));
        for n in [1, 2, 3, 5] {
            assert_ne!(other[&n], ids[&n], "!{n}");
        }
    }

    #[test]
    fn uniqued_nodes_are_known_by_content() {
        let a = "!0 = !{!1}\n!1 = !{!\"x\"}\n";
        let b = "!4 = !{!\"x\"}\n!9 = !{!4}\n";
        let (ia, ib) = (identities_in_text(a), identities_in_text(b));
        assert_eq!(ia[&0], ib[&9]);
        assert_eq!(ia[&1], ib[&4]);
    }
}
