//! Attribute groups (`#N`) and metadata nodes (`!N`) numbered by what they
//! are, not by where LLVM's printer first meets them.
//!
//! ```text
//! printed by LLVM                        canonical
//! define void @f() #0 !dbg !7 {          define void @f() #4127 !dbg !310552 {
//! attributes #0 = { nounwind }           attributes #4127 = { nounwind }
//! !7 = distinct !DISubprogram(...)       !310552 = distinct !DISubprogram(...)
//! ```
//!
//! LLVM numbers both in print order, so one global added near the top of a
//! module renumbers every `!dbg !N` below it. Here an attribute group's
//! number comes from a hash of its content, a metadata node's from a local
//! key ([`metadata_keys`]), reduced into a fixed range; where two reduce to
//! one number, the smaller key keeps it and the other takes the next free
//! number (so only colliding nodes are affected by an edit). LLVM's parser
//! accepts any numbers, gaps included. The definition lines are sorted by
//! their new numbers, so a new node is one new line. Nothing else of the
//! text changes: strings are copied as they are.

use std::collections::HashMap;

use crate::hash::{collisions, StableHasher};
use crate::text::Ref;

/// Attribute group numbers are below this (in a module of at most 1,000
/// groups: [`crate::hash::number_space`]).
const ATTRIBUTE_SPACE: u64 = 10_000;
/// Metadata numbers are below this (in a module of at most 100,000 nodes:
/// [`crate::hash::number_space`]).
const METADATA_SPACE: u64 = 1_000_000;

/// Old number -> new number.
type Numbers = rustc_hash::FxHashMap<u32, u32>;

/// New numbers for `ids` (old number, identity): `identity % space` (the
/// [`crate::hash::number_space`] of `usual_space` for them), the
/// next free one on a collision, taken in order of identity (then old number)
/// so the result depends only on the set.
fn assign(mut ids: Vec<(u64, u32)>, usual_space: u64) -> Numbers {
    let space = crate::hash::number_space(usual_space, ids.len());
    ids.sort_unstable();
    let mut taken = std::collections::HashSet::with_capacity(ids.len());
    let mut out = Numbers::default();
    out.reserve(ids.len());
    for (identity, old) in ids {
        let mut n = identity % space;
        while !taken.insert(n) {
            n = (n + 1) % space;
        }
        out.insert(old, n as u32);
    }
    out
}

/// The number after `#`/`!` at `at` in `line`, when one starts there.
fn number_at(line: &str, at: usize) -> Option<(u32, usize)> {
    let digits = line.as_bytes()[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (digits > 0)
        .then(|| line[at..at + digits].parse().ok().map(|n| (n, digits)))
        .flatten()
}

/// The attribute groups of a printed module: old number and content hash.
fn attribute_identities(text: &str) -> Vec<(u64, u32)> {
    super::attribute_kinds::attribute_groups(text)
        .into_iter()
        .map(|(n, body)| (StableHasher::new().str(body).finish(), n))
        .collect()
}

/// How attribute groups get their numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttributeNumbers {
    /// By a hash of the group's content: the canonical form, where two
    /// modules with the same groups print the same numbers.
    ByContent,
    /// By the kinds of attributes in the group, groups of the same kinds
    /// by their content: the diff view's
    /// ([`super::attribute_kinds`]). A group that gains a target feature
    /// keeps its number, so only its `attributes` line changes, not every
    /// `define` that uses it; a function added renumbers nothing.
    ///
    /// ```text
    /// define i32 @inc(i32 %x) #1721 {          (both sides)
    /// attributes #1721 = { nounwind "target-features"="+bulk-memory" }
    ///                 -> { nounwind "target-features"="+bulk-memory,+mutable-globals" }
    /// ```
    ByKinds,
}

/// Renumbers `#N` and `!N` in a module printed by LLVM (no user comments
/// yet): attribute groups as `attributes` says, metadata by `metadata` (old
/// number -> identity). Metadata is left as printed when some defined node
/// has no identity.
pub(crate) fn renumber(
    printed: String,
    metadata: &rustc_hash::FxHashMap<u32, u64>,
    attributes: AttributeNumbers,
) -> String {
    let identities = match attributes {
        AttributeNumbers::ByContent => attribute_identities(&printed),
        AttributeNumbers::ByKinds => super::attribute_kinds::identities(&printed),
    };
    let attrs = assign(identities, ATTRIBUTE_SPACE);
    let defined: Vec<u32> = crate::text::lines_starting_with(&printed, "!")
        .filter_map(|l| number_at(l.strip_prefix('!')?, 0).map(|(n, _)| n))
        .collect();
    if attrs.is_empty() && defined.is_empty() {
        return printed;
    }
    let meta = if defined.iter().all(|n| metadata.contains_key(n)) {
        assign(
            defined.iter().map(|n| (metadata[n], *n)).collect(),
            METADATA_SPACE,
        )
    } else {
        Numbers::default()
    };
    // Every line is written to `out` once; `starts` marks where each begins.
    let mut out = String::with_capacity(printed.len() + printed.len() / 8);
    let mut starts: Vec<usize> = Vec::new();
    for line in crate::text::lines_inclusive(&printed) {
        starts.push(out.len());
        if memchr::memchr2(b'#', b'!', line.as_bytes()).is_some() {
            rewrite_line(line, &attrs, &meta, &mut out);
        } else {
            out.push_str(line);
        }
    }
    starts.push(out.len());
    sort_runs(&mut out, &starts, "attributes #");
    sort_runs(&mut out, &starts, "!");
    out
}

/// Appends `line` to `out` with every `#N` and `!N` outside strings
/// mapped (numbers without a mapping stay).
fn rewrite_line(line: &str, attrs: &Numbers, meta: &Numbers, out: &mut String) {
    crate::text::rewrite_into(line, out, |r, out| {
        let (sigil, new) = match r {
            Ref::Attr(n) => ('#', attrs.get(&n)),
            Ref::Meta(n) => ('!', meta.get(&n)),
            Ref::Local(_) => return false,
        };
        new.map(|&m| {
            out.push(sigil);
            crate::text::push_decimal(out, m);
        })
        .is_some()
    })
}

/// Sorts each run of consecutive lines of `text` (line `i` spans
/// `starts[i]..starts[i + 1]`) that start with `prefix` and a number by
/// that number. The lines of a run keep their bytes, so the run keeps its
/// span.
fn sort_runs(text: &mut String, starts: &[usize], prefix: &str) {
    let key = |l: &str| {
        l.strip_prefix(prefix)
            .and_then(|r| number_at(r, 0))
            .map(|(n, _)| n)
    };
    let count = starts.len() - 1;
    let mut i = 0;
    while i < count {
        if key(&text[starts[i]..starts[i + 1]]).is_none() {
            i += 1;
            continue;
        }
        let first = i;
        while i < count && key(&text[starts[i]..starts[i + 1]]).is_some() {
            i += 1;
        }
        let region = starts[first]..starts[i];
        let mut run: Vec<(u32, std::ops::Range<usize>)> = (first..i)
            .map(|k| {
                (
                    key(&text[starts[k]..starts[k + 1]]).unwrap_or(0),
                    starts[k]..starts[k + 1],
                )
            })
            .collect();
        if run.windows(2).all(|w| w[0].0 <= w[1].0) {
            continue;
        }
        run.sort_by_key(|(n, _)| *n);
        let sorted: String = run.iter().map(|(_, span)| &text[span.clone()]).collect();
        text.replace_range(region, &sorted);
    }
}

/// Rounds in which colliding metadata keys absorb the keys of the nodes
/// they reference, then of the nodes and entities that reference them.
const METADATA_ROUNDS: usize = 3;

/// One metadata definition as the keys see it.
struct MetaDef {
    number: u32,
    /// Own text, references blanked (`!_`), checksum left out.
    own: u64,
    /// The `scope:` node, if any (index into the definitions).
    scope: Option<usize>,
    /// Referenced nodes, in text order.
    refs: Vec<usize>,
    /// The field each of `refs` is at (`globals`, `baseType`), hashed; 0
    /// for a tuple's elements.
    ref_fields: Vec<u64>,
    /// `(line, column)` when the node has a line (`sp+N`, `scope+N` read
    /// as N: nodes of one scope are relative to one line).
    position: Option<(i64, i64)>,
    /// A `distinct !{...}`, `distinct !DIAssignID()` or a global's
    /// `!DIGlobalVariableExpression`: known by its anchor.
    anonymous: bool,
    /// A lexical block's first variable (by position): the name it
    /// declares. Sibling blocks are told apart by it before their rank, so
    /// an `if` added above a `for (int i ...)` leaves the loop's block and
    /// all in it their numbers.
    declares: Option<u64>,
    /// A plain tuple `!{...}`.
    tuple: bool,
    /// An array type (`DW_TAG_array_type`): its `elements:` tuple (the
    /// subranges) is one that arrays of the same shape share.
    array_type: bool,
    /// A `DILexicalBlock`.
    lexical_block: bool,
    /// The types this node is made of: a `baseType:` or `types:` node (an
    /// array type's `elements:` too), or, for a subroutine type's tuple of
    /// types and an array's tuple of subranges, each of them.
    type_refs: Vec<usize>,
}

/// A number key for every metadata node of `printed`, local so that an
/// edit renumbers only what it touches:
/// - a node's own text with references blanked (a file's `checksum:`,
///   which changes with every edit of the source, left out), and the final
///   key of its `scope:` node, so a lexical block of `@f` never meets one
///   of `@g`; a lexical block's also by the name of the first variable it
///   declares (`for (int i ...)`), so an `if` added beside a loop leaves
///   the loop's block its number;
/// - nodes whose keys are still equal and that have a scope and a line
///   (sibling lexical blocks, when `key_text` leaves lines out) by their
///   rank in (line, column) order among them, the first by none;
/// - an anonymous distinct node (a loop) or a global's
///   `DIGlobalVariableExpression` by its anchor: the entity (function,
///   global) that first uses it and its rank among the alike nodes that
///   entity uses first, never by the locations it names; a node without a
///   scope that only such a node uses (a string literal's
///   `DIGlobalVariable`) by that node's key;
/// - what still collides, first by the keys of the nodes it references,
///   then of the entities that name it (or, when none does, the nodes),
///   then of the nodes and entities that reference it, for a few rounds
///   each; then by [`super::metadata`]'s identity;
/// - last, a tuple that one node alone names, by that node and the place
///   (a compile unit's list of globals keeps its number when a global is
///   added).
///
/// A Merkle hash of the whole graph would not do: every node reaches the
/// compile unit and the file, so one new global would renumber every node.
/// `key_text` may blank more of a definition (the view leaves lines out).
pub(crate) fn metadata_keys(
    printed: &str,
    key_text: impl Fn(&str) -> String,
) -> rustc_hash::FxHashMap<u32, u64> {
    let graph = metadata_graph(printed, &key_text);
    let defs = &graph.defs;
    let mut keys = scoped_keys(&graph, &anchored_keys(&graph));
    key_types_by_their_parts(defs, &mut keys);
    let all: Vec<usize> = (0..defs.len()).collect();
    let colliding = collisions(&keys, &all);
    let colliding = refine_rounds(&graph, &mut keys, colliding);
    if !colliding.is_empty() {
        let identities = super::metadata::identities_in_text(printed);
        for &i in &colliding {
            let id = identities.get(&defs[i].number).copied().unwrap_or(0);
            keys[i] = StableHasher::new().u64(keys[i]).u64(id).finish();
        }
    }
    key_tuples_by_their_user(&graph, &mut keys);
    defs.iter().map(|d| d.number).zip(keys).collect()
}

/// A type made of other types (a pointer, a typedef, a member, a
/// subroutine type and its tuple of types) is keyed by what it is made of,
/// down to the named types (basic, composite), whatever else the module
/// holds: its key does not depend on whether another type collides with
/// it, so a function removed with the only other signature of three
/// operands leaves `int (int, int)` and everything typed by it their
/// numbers.
///
/// ```text
/// !5 = !DISubroutineType(types: !6)   key: own text, then the keys of !6's types
/// !6 = !{!7, !7, !7}                  (int, int, int)
/// ```
fn key_types_by_their_parts(defs: &[MetaDef], keys: &mut [u64]) {
    fn key_of(
        defs: &[MetaDef],
        keys: &[u64],
        i: usize,
        memo: &mut [Option<u64>],
        depth: usize,
    ) -> u64 {
        if let Some(k) = memo[i] {
            return k;
        }
        if defs[i].type_refs.is_empty() || depth > 64 {
            return keys[i];
        }
        let mut h = StableHasher::new().u64(keys[i]).str("made of");
        for &j in &defs[i].type_refs {
            h = h.u64(key_of(defs, keys, j, memo, depth + 1));
        }
        let k = h.finish();
        memo[i] = Some(k);
        k
    }
    let mut memo = vec![None; defs.len()];
    let typed: Vec<u64> = (0..defs.len())
        .map(|i| key_of(defs, keys, i, &mut memo, 0))
        .collect();
    keys.copy_from_slice(&typed);
}

/// A tuple that one node alone names (a compile unit's `globals:`, a
/// subprogram's `retainedNodes:`, a type's `elements:`) is keyed by that
/// node and the field it names it in, not by what it lists nor by where
/// among the node's references: a global added to the file changes the
/// list's line, not its number and the compile unit's line with it, and a
/// compile unit that loses its `retainedTypes:` keeps its `globals:`. An
/// array type's subranges are not such a list: arrays of one shape share
/// them, and they keep the key of what they list when a second array of
/// that shape comes or goes.
fn key_tuples_by_their_user(graph: &MetaGraph, keys: &mut [u64]) {
    let mut taken: std::collections::HashSet<u64> = keys.iter().copied().collect();
    for (i, def) in graph.defs.iter().enumerate() {
        let [Ok(user)] = graph.users[i][..] else {
            continue;
        };
        if !def.tuple || graph.defs[user].tuple || graph.defs[user].array_type {
            continue;
        }
        let named_by = &graph.defs[user];
        let at = named_by.refs.iter().position(|&r| r == i).unwrap_or(0);
        let key = StableHasher::new()
            .str("tuple of")
            .u64(keys[user])
            .u64(named_by.ref_fields.get(at).copied().unwrap_or(0))
            .finish();
        if taken.insert(key) {
            keys[i] = key;
        }
    }
}

/// The keys of anonymous nodes an entity uses: its own text, the entity,
/// and its rank among the alike nodes that entity uses first.
fn anchored_keys(graph: &MetaGraph) -> HashMap<usize, u64> {
    let mut rank: HashMap<(u64, u64), u64> = HashMap::new();
    let mut out = HashMap::new();
    for &(i, entity) in &graph.first_uses {
        let def = &graph.defs[i];
        if !def.anonymous {
            continue;
        }
        let r = rank.entry((entity, def.own)).or_insert(0);
        let key = StableHasher::new()
            .u64(def.own)
            .u64(entity)
            .u64(*r)
            .finish();
        *r += 1;
        out.insert(i, key);
    }
    out
}

/// Keys from a node's own text and its scope's final key, computed scope
/// depth by scope depth; at each depth, nodes alike are told apart by
/// their rank in (line, column) order.
fn scoped_keys(graph: &MetaGraph, anchored: &HashMap<usize, u64>) -> Vec<u64> {
    let defs = &graph.defs;
    let depths = scope_depths(defs);
    let mut keys = vec![0u64; defs.len()];
    let max = depths.iter().copied().max().unwrap_or(0);
    for depth in 0..=max {
        let level: Vec<usize> = (0..defs.len()).filter(|&i| depths[i] == depth).collect();
        for &i in &level {
            let d = &defs[i];
            keys[i] = match anchored.get(&i) {
                Some(&k) => k,
                None => {
                    let scope = match d.scope.filter(|_| depth > 0) {
                        Some(j) => keys[j],
                        None => sole_anchored_user(&graph.users[i], anchored).unwrap_or(0),
                    };
                    let declares = d.declares.unwrap_or(0);
                    StableHasher::new()
                        .u64(d.own)
                        .u64(scope)
                        .u64(declares)
                        .finish()
                }
            };
        }
        rank_by_position(defs, &mut keys, &level);
    }
    keys
}

/// The anchored key of a node's only user, when it has one user and that
/// user is anchored.
fn sole_anchored_user(users: &[Result<usize, u64>], anchored: &HashMap<usize, u64>) -> Option<u64> {
    match users {
        [Ok(j)] => anchored.get(j).copied(),
        _ => None,
    }
}

/// How many `scope:` links lead from each node to one without a scope (a
/// cycle, which valid debug info has not, ends a chain).
fn scope_depths(defs: &[MetaDef]) -> Vec<usize> {
    fn depth(
        defs: &[MetaDef],
        i: usize,
        memo: &mut [Option<usize>],
        on_path: &mut Vec<usize>,
    ) -> usize {
        if let Some(d) = memo[i] {
            return d;
        }
        let d = match defs[i].scope {
            Some(j) if !on_path.contains(&j) && j != i => {
                on_path.push(i);
                let d = 1 + depth(defs, j, memo, on_path);
                on_path.pop();
                d
            }
            _ => 0,
        };
        memo[i] = Some(d);
        d
    }
    let mut memo = vec![None; defs.len()];
    (0..defs.len())
        .map(|i| depth(defs, i, &mut memo, &mut Vec::new()))
        .collect()
}

/// Among `level`, nodes with one key, a scope and different positions get
/// their rank in (line, column) order mixed into the key; the first keeps
/// the key as it is, so a sibling added after it (an `if` below another)
/// leaves it and all in it their numbers.
fn rank_by_position(defs: &[MetaDef], keys: &mut [u64], level: &[usize]) {
    let mut groups: HashMap<u64, Vec<usize>> = HashMap::new();
    for &i in &collisions(keys, level) {
        // Only nodes of one scope: lines of unrelated nodes (a string
        // literal's `DIGlobalVariable`, `scope: null`) are no order that an
        // edit elsewhere in the file leaves alone.
        if defs[i].position.is_some() && defs[i].scope.is_some() {
            groups.entry(keys[i]).or_default().push(i);
        }
    }
    for (key, members) in groups {
        let mut positions: Vec<(i64, i64)> =
            members.iter().filter_map(|&i| defs[i].position).collect();
        positions.sort_unstable();
        positions.dedup();
        if positions.len() < 2 {
            continue;
        }
        for i in members {
            let rank = positions
                .binary_search(&defs[i].position.unwrap())
                .unwrap_or(0);
            if rank > 0 {
                keys[i] = StableHasher::new().u64(key).u64(rank as u64).finish();
            }
        }
    }
}

/// Colliding keys absorb the keys of the nodes they reference, then of
/// their users, for [`METADATA_ROUNDS`] rounds each; returns those that
/// still collide.
fn refine_rounds(graph: &MetaGraph, keys: &mut Vec<u64>, mut colliding: Vec<usize>) -> Vec<usize> {
    for round in 0..2 * METADATA_ROUNDS {
        if colliding.is_empty() {
            break;
        }
        let mut next = keys.clone();
        for &i in &colliding {
            let mut h = StableHasher::new().u64(keys[i]);
            if round < METADATA_ROUNDS {
                for &j in &graph.defs[i].refs {
                    h = h.u64(keys[j]);
                }
            } else {
                let mut up = user_keys(&graph.users[i], keys, round == METADATA_ROUNDS);
                up.sort_unstable();
                for k in up {
                    h = h.u64(k);
                }
            }
            next[i] = h.finish();
        }
        *keys = next;
        colliding = collisions(keys, &colliding);
    }
    colliding
}

/// The keys of a node's users. `entities_first`: only the functions and
/// globals that name it, when some do (a string literal's
/// `DIGlobalVariableExpression` is known by its global, not by the
/// compile unit's list of globals, which every new global changes).
fn user_keys(users: &[Result<usize, u64>], keys: &[u64], entities_first: bool) -> Vec<u64> {
    let entities: Vec<u64> = users.iter().filter_map(|u| u.err()).collect();
    if entities_first && !entities.is_empty() {
        return entities;
    }
    users
        .iter()
        .map(|u| match u {
            Ok(j) => keys[*j],
            Err(entity) => *entity,
        })
        .collect()
}

/// For each definition, who references it: `Ok(definition)` or
/// `Err(hash of an entity's name)` (a function or global whose line names
/// the node).
type Users = Vec<Vec<Result<usize, u64>>>;

/// The metadata definitions of a printed module and their users.
struct MetaGraph {
    defs: Vec<MetaDef>,
    users: Users,
    /// `(definition, entity)` for each node an entity uses, in the order
    /// of first use.
    first_uses: Vec<(usize, u64)>,
}

/// `(line, column)` of a definition; a view's `sp+N` or `scope+N` reads as N.
fn position(rhs: &str) -> Option<(i64, i64)> {
    let (_, line) = super::debug_lines::field(rhs, "line")?;
    let line = super::debug_lines::LineField::parse(line)?.value();
    let column = super::debug_lines::field(rhs, "column")
        .and_then(|(_, c)| c.parse().ok())
        .unwrap_or(0);
    Some((line, column))
}

fn metadata_graph(printed: &str, key_text: &impl Fn(&str) -> String) -> MetaGraph {
    let definition = |l: &str| -> Option<(u32, usize)> {
        let rest = l.strip_prefix('!')?;
        let (n, _) = rest.split_once(" = ")?;
        Some((n.parse().ok()?, n.len() + 4))
    };
    let index: HashMap<u32, usize> = crate::text::lines_starting_with(printed, "!")
        .filter_map(|l| definition(l).map(|(n, _)| n))
        .enumerate()
        .map(|(i, n)| (n, i))
        .collect();
    if index.is_empty() {
        return MetaGraph {
            defs: Vec::new(),
            users: Vec::new(),
            first_uses: Vec::new(),
        };
    }
    let mut defs = Vec::with_capacity(index.len());
    let mut users: Users = vec![Vec::new(); index.len()];
    let mut first_uses = Vec::new();
    let mut entity = 0u64;
    let mut variables = Vec::new();
    for line in crate::text::lines(printed) {
        if let Some((number, at)) = definition(line) {
            let rhs = &line[at..];
            let def = meta_def(number, rhs, &index, &mut users, defs.len(), key_text);
            let scope = def.scope;
            defs.push(def);
            if rhs.starts_with("!DILocalVariable(") {
                variables.extend(scope.map(|j| (j, position(rhs), name_hash(rhs))));
            }
            continue;
        }
        let starts_entity = !line.is_empty() && !line.starts_with([' ', '}', ';']);
        // A block label (`bb.1:`, `"a b":`) belongs to the function it is in.
        let code = crate::comments::layout::comment_start(line).map_or(line, |at| &line[..at]);
        let is_label = crate::text::label_name(code.trim_end()).is_some();
        if line.starts_with("define ") || starts_entity && !is_label {
            let name = crate::text::anchor_name(line)
                .filter(|_| line.starts_with("define "))
                .or_else(|| line.split_once(" = ").map(|(e, _)| e))
                .unwrap_or(line);
            entity = StableHasher::new().str(name).finish();
        }
        crate::text::scan_numbered(line, b'!', |_, _, m| {
            if let Some(&j) = index.get(&m) {
                if !users[j].iter().any(Result::is_err) {
                    first_uses.push((j, entity));
                }
                users[j].push(Err(entity));
            }
        });
    }
    mark_declared(&mut defs, variables);
    mark_type_tuples(&mut defs);
    MetaGraph {
        defs,
        users,
        first_uses,
    }
}

/// The definition `!number = rhs`, the `at_index`th of the module, as the
/// keys see it; its references are recorded in `users`.
fn meta_def(
    number: u32,
    rhs: &str,
    index: &HashMap<u32, usize>,
    users: &mut Users,
    at_index: usize,
    key_text: &impl Fn(&str) -> String,
) -> MetaDef {
    let (mut refs, mut ref_fields, mut type_refs) = (Vec::new(), Vec::new(), Vec::new());
    let mut scope = None;
    let scope_at = rhs.find("scope: !").map(|k| k + "scope: ".len());
    let text = key_text(rhs);
    let array_type = rhs.starts_with("!DICompositeType(tag: DW_TAG_array_type");
    crate::text::scan_numbered(rhs, b'!', |start, _, m| {
        if let Some(&j) = index.get(&m) {
            refs.push(j);
            ref_fields.push(field_hash(&rhs[..start]));
            users[j].push(Ok(at_index));
            if Some(start) == scope_at {
                scope = Some(j);
            }
            let before = &rhs[..start];
            if before.ends_with("baseType: ")
                || before.ends_with("types: ")
                || array_type && before.ends_with("elements: ")
            {
                type_refs.push(j);
            }
        }
    });
    let blanked = crate::text::rewrite(&text, |r| {
        matches!(r, Ref::Meta(_)).then(|| "!_".to_string())
    });
    MetaDef {
        number,
        own: StableHasher::new()
            .str(&without_checksum(&blanked))
            .finish(),
        scope,
        refs,
        ref_fields,
        position: position(rhs),
        anonymous: super::metadata::is_anonymous(rhs)
            || rhs.starts_with("!DIGlobalVariableExpression("),
        declares: None,
        tuple: rhs.starts_with("!{"),
        array_type,
        lexical_block: rhs
            .strip_prefix("distinct ")
            .unwrap_or(rhs)
            .starts_with("!DILexicalBlock("),
        type_refs,
    }
}

/// The field whose value starts where `before` ends (`globals` in
/// `..., globals: `), hashed; 0 when there is none (a tuple's element).
fn field_hash(before: &str) -> u64 {
    let Some(rest) = before.strip_suffix(": ") else {
        return 0;
    };
    let name_from = rest
        .rfind(|c: char| !c.is_ascii_alphanumeric())
        .map_or(0, |k| k + 1);
    StableHasher::new().str(&rest[name_from..]).finish()
}

/// A tuple that a subroutine type names as its `types:` is made of the
/// types it lists, and one that an array type names as its `elements:` of
/// its subranges: keyed by them, whatever else collides with `!{!_}`.
fn mark_type_tuples(defs: &mut [MetaDef]) {
    let tuples: Vec<usize> = defs
        .iter()
        .flat_map(|d| d.type_refs.iter().copied())
        .filter(|&j| defs[j].tuple)
        .collect();
    for j in tuples {
        defs[j].type_refs = defs[j].refs.clone();
    }
}

/// `(scope, position, name hash)` of a local variable.
type DeclaredVariable = (usize, Option<(i64, i64)>, u64);

/// A variable's `name:`, hashed.
fn name_hash(rhs: &str) -> u64 {
    let name = super::debug_lines::field(rhs, "name").map_or("", |(_, v)| v);
    StableHasher::new().str(name).finish()
}

/// Sets [`MetaDef::declares`] of each lexical block from `variables`,
/// `(scope, position, name)` of every local variable.
fn mark_declared(defs: &mut [MetaDef], mut variables: Vec<DeclaredVariable>) {
    variables.sort_unstable();
    for (scope, _, name) in variables.into_iter().rev() {
        if defs[scope].lexical_block {
            defs[scope].declares = Some(name);
        }
    }
}

/// `text` without its `checksumkind:` and `checksum: "..."` fields (the
/// view leaves them out: [`super::view`]).
fn without_checksum(text: &str) -> std::borrow::Cow<'_, str> {
    match super::view::checksum_fields(text) {
        Some((from, to)) => format!("{}{}", &text[..from], &text[to..]).into(),
        None => text.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_groups_are_numbered_by_content() {
        let a = "define void @f() #0 {\n  call void @g() #1\n  ret void\n}\n\n\
                 attributes #0 = { nounwind }\nattributes #1 = { cold }\n";
        let b = "define void @f() #1 {\n  call void @g() #0\n  ret void\n}\n\n\
                 attributes #0 = { cold }\nattributes #1 = { nounwind }\n";
        let ra = renumber(
            a.to_string(),
            &Default::default(),
            AttributeNumbers::ByContent,
        );
        assert_eq!(
            ra,
            renumber(
                b.to_string(),
                &Default::default(),
                AttributeNumbers::ByContent
            )
        );
        assert!(!ra.contains("#0 "), "{ra}");
        assert_eq!(
            renumber(ra.clone(), &Default::default(), AttributeNumbers::ByContent),
            ra
        );
    }

    #[test]
    fn strings_keep_their_numbers() {
        let a = "@s = global [3 x i8] c\"#0!\\00\" #0\n\
                 attributes #0 = { nounwind }\n";
        let r = renumber(
            a.to_string(),
            &Default::default(),
            AttributeNumbers::ByContent,
        );
        assert!(r.contains("c\"#0!\\00\""), "{r}");
        assert!(!r.contains("attributes #0 "), "{r}");
    }

    #[test]
    fn metadata_follows_the_identities_and_collisions_probe() {
        let text = "!llvm.x = !{!0, !1}\n\n!0 = !{!\"a\"}\n!1 = !{!0}\n";
        let ids = rustc_hash::FxHashMap::from_iter([(0, 5 + METADATA_SPACE), (1, 5)]);
        let r = renumber(text.to_string(), &ids, AttributeNumbers::ByContent);
        assert_eq!(r, "!llvm.x = !{!6, !5}\n\n!5 = !{!6}\n!6 = !{!\"a\"}\n");
        // A node without identity: metadata stays as printed.
        let partial = rustc_hash::FxHashMap::from_iter([(0, 3)]);
        assert_eq!(
            renumber(text.to_string(), &partial, AttributeNumbers::ByContent),
            text
        );
    }
}

#[cfg(test)]
mod anchor_tests {
    use super::*;

    #[test]
    fn a_loop_is_numbered_by_its_function() {
        let f = |name: &str, n: u32| {
            format!(
                "define void @{name}() {{\nentry:\n  br label %loop\n\nloop:\n  br label %loop, !llvm.loop !{n}\n}}\n"
            )
        };
        let defs = "!1 = distinct !{!1, !3}\n!2 = distinct !{!2, !3}\n!3 = !{!\"llvm.loop.mustprogress\"}\n";
        let both = format!("{}{}{defs}", f("a", 1), f("b", 2));
        let swapped = format!("{}{}{defs}", f("b", 1), f("a", 2));
        let (k, s) = (
            metadata_keys(&both, str::to_string),
            metadata_keys(&swapped, str::to_string),
        );
        assert_eq!(k[&1], s[&2], "@a's loop");
        assert_eq!(k[&2], s[&1], "@b's loop");
    }
}

#[cfg(test)]
mod sibling_tests {
    use super::*;

    /// `if` blocks of one scope, alike but for their lines, at `lines`.
    fn blocks(lines: &[u32]) -> String {
        let mut text = String::from(
            "!1 = distinct !DISubprogram(name: \"f\", line: 1)\n!2 = !DIFile(filename: \"a.c\", directory: \"/\")\n",
        );
        for (k, line) in lines.iter().enumerate() {
            text.push_str(&format!(
                "!{} = distinct !DILexicalBlock(scope: !1, file: !2, line: {line}, column: 7)\n",
                10 + k
            ));
        }
        text
    }

    /// With lines left out of the keys (the view), sibling blocks are told
    /// apart by rank; the first keeps the plain key, so an `if` added
    /// below another leaves the one above its number.
    #[test]
    fn a_block_added_below_leaves_the_one_above_its_key() {
        let keys = |text: &str| metadata_keys(text, super::super::debug_lines::without_positions);
        let (one, two) = (keys(&blocks(&[5])), keys(&blocks(&[5, 9])));
        assert_eq!(one[&10], two[&10]);
        assert_ne!(two[&10], two[&11]);
    }
}
