//! Writing the merge in ours' text: every line of ours that theirs did not
//! change stays byte for byte; theirs' changes come in with ours' names.
//!
//! The structured merge decides *what* the result is (over canonical forms
//! and base identities). This stage decides how to *write* it. Base and
//! theirs are first translated into ours' naming, value by value, through
//! the congruence the matching computed (theirs' token → theirs' canonical
//! name → base canonical → ours' canonical → ours' token), and likewise for
//! globals, attribute groups (`#N`) and metadata (`!N`), which are matched
//! by content. Then a plain three-way line merge of (base', ours, theirs')
//! has nothing left to trip on but real edits; comments are lines like any
//! other. The caller accepts the result only if LLVM parses and verifies it
//! and its canonical form equals the structured merge's.
//!
//! ```text
//! base:    %5 = add i32 %4, 1        ours:  %5 = add i32 %4, 1   ; ours' note
//! theirs:  %x = add i32 %w, 7        (theirs renamed %4 → %w, %5 → %x, changed 1 → 7)
//! theirs': %5 = add i32 %4, 7        (in ours' names)
//! merged:  %5 = add i32 %4, 7   ; ours' note
//! ```
//!
//! Values theirs adds keep theirs' names unless ours' function already uses
//! the name (then `name.1`, `name.2`...); new unnamed values get numbers:
//! the function they land in is renumbered the way LLVM prints it.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::canon::source_map::SourceNames;
use crate::comments::layout::{self, Layout, LineKind, StmtKind};
use crate::compare::matching::{match_function, Matching, Matchings};
use crate::compare::model::{ModuleText, SideTables};
use crate::three::Side;

/// The prefix of a placeholder for a new unnamed value; the renumbering
/// pass gives each one its number.
pub(crate) const PLACEHOLDER: &str = "irgit.new.";

/// One input as the faithful writer needs it.
pub(crate) struct SideText<'a> {
    pub side: Side,
    /// The input as written.
    pub text: &'a str,
    /// Canonical name → the input's token.
    pub names: &'a SourceNames,
    /// The canonical form, as the structured merge parsed it (functions
    /// renamed on this side carry their base names there).
    pub model: &'a ModuleText,
    /// Functions this side renamed: `@new` → `@base`.
    pub undo: &'a BTreeMap<String, String>,
}

/// Numbered metadata and attribute groups of an input as written, keyed by
/// content (the same keys the structured merge uses).
fn original_tables(side: Side, layout: &Layout<'_>) -> (SideTables, Vec<u32>, Vec<u32>) {
    let mut m = ModuleText::default();
    for s in &layout.stmts {
        let num = match &s.kind {
            StmtKind::Meta(n) => n.trim_start_matches('!').parse::<u32>().ok(),
            StmtKind::AttrGroup(n) => n.parse::<u32>().ok(),
            _ => None,
        };
        let Some(num) = num else { continue };
        let joined: Vec<&str> = layout.lines[s.first..=s.last]
            .iter()
            .map(|l| l.code())
            .collect();
        let joined = joined.join(" ");
        let rhs = joined
            .split_once('=')
            .map(|(_, r)| r.trim().to_string())
            .unwrap_or_default();
        if matches!(s.kind, StmtKind::Meta(_)) {
            m.meta.insert(num, rhs);
        } else {
            m.attrs.insert(num, squeeze(&rhs));
        }
    }
    let metas = m.meta.keys().copied().collect();
    let attrs = m.attrs.keys().copied().collect();
    let uses = metadata_uses(layout);
    (SideTables::with_uses(side, &m, &uses), metas, attrs)
}

/// The metadata references of an input as written, by the function,
/// global or named metadata that makes them, in text order: what anchors
/// twins of equal content ([`crate::canon::metadata`]).
fn metadata_uses<'l>(layout: &'l Layout<'_>) -> Vec<crate::canon::metadata::MetaUse<'l>> {
    let mut uses = Vec::new();
    let mut entity: Option<&str> = None;
    for s in &layout.stmts {
        entity = match &s.kind {
            StmtKind::Define(n) | StmtKind::Global(n) | StmtKind::Declare(n) => Some(n),
            StmtKind::NamedMeta(n) => Some(n),
            k if k.in_function() => entity,
            _ => None,
        };
        let Some(e) = entity else { continue };
        for l in &layout.lines[s.first..=s.last] {
            crate::canon::metadata::uses_in(l.code(), e, &mut uses);
        }
    }
    uses
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Names and numbers handed out to what ours does not have, shared by the
/// translations of base and theirs so that one value gets one name.
#[derive(Default)]
pub(crate) struct Fresh {
    /// (function, key) → token, per function; key names the value by its
    /// base canonical name (`b:`) or theirs' (`t:`).
    locals: HashMap<(String, String), String>,
    taken_locals: HashMap<String, HashSet<String>>,
    placeholders: usize,
    globals: HashMap<String, String>,
    taken_globals: HashSet<String>,
    attrs: HashMap<u64, u32>,
    next_attr: u32,
    metas: HashMap<(u64, usize), u32>,
    next_meta: u32,
    /// Values both sides renamed differently (or theirs renamed to a name
    /// ours' function uses), as (theirs' name, function): the merge cannot
    /// be clean.
    pub rename_clashes: Vec<(String, String)>,
}

/// What ours has, for the translations to aim at.
pub(crate) struct OursIndex {
    /// function (base name, with `@`) → ours canonical → ours token
    locals: HashMap<String, HashMap<String, String>>,
    /// ours function name for each base function name
    func_of_base: HashMap<String, String>,
    /// canonical global name → ours' name
    globals: HashMap<String, String>,
    attr_by_key: HashMap<u64, u32>,
    /// function (base name) → ours' token → base token, from the text
    aligned: Aligned,
    /// (key, ordinal among nodes with that key) → number
    meta_by_key: HashMap<(u64, usize), u32>,
}

impl OursIndex {
    pub(crate) fn new(ours: &SideText<'_>, base: &SideText<'_>, fresh: &mut Fresh) -> OursIndex {
        let layout = layout::lex(ours.text);
        let (tables, metas, attrs) = original_tables(Side::Ours, &layout);
        let mut meta_by_key = HashMap::default();
        let mut ordinal: HashMap<u64, usize> = HashMap::default();
        for &n in &metas {
            if let Some((k, _)) = tables.meta_key(n) {
                let o = ordinal.entry(k).or_default();
                meta_by_key.insert((k, *o), n);
                *o += 1;
            }
        }
        let attr_by_key = attrs
            .iter()
            .filter_map(|&n| tables.attr_key(n).map(|k| (k, n)))
            .collect();
        fresh.next_meta = metas.iter().max().map_or(0, |m| m + 1);
        fresh.next_attr = attrs.iter().max().map_or(0, |m| m + 1);
        let mut func_of_base = HashMap::default();
        let mut locals = HashMap::default();
        for (name, map) in &ours.names.locals {
            let at = format!("@{}", crate::canon::source_map::name_token(name));
            let base = ours.undo.get(&at).cloned().unwrap_or_else(|| at.clone());
            fresh
                .taken_locals
                .insert(base.clone(), map.values().cloned().collect());
            func_of_base.insert(base.clone(), at);
            locals.insert(base, map.clone());
        }
        fresh.taken_globals = ours.names.globals.values().cloned().collect();
        OursIndex {
            aligned: align(ours.text, ours.undo, base.text),
            locals,
            func_of_base,
            globals: ours.names.globals.clone(),
            attr_by_key,
            meta_by_key,
        }
    }
}

/// The key of a function named `written` (`@f`, `@"f$1"`), as LLVM
/// prints the name: a function is found however a text quotes it.
fn function_key(written: &str) -> String {
    if !written.contains('"') {
        return written.to_string();
    }
    let name = crate::comments::carry::unquote(written);
    format!("@{}", crate::canon::source_map::name_token(&name))
}

/// How one input's tokens are written in ours' text.
struct Translation {
    /// function (the input's name, with `@`) → the input's token → ours' token
    locals: HashMap<String, HashMap<String, String>>,
    /// the input's global name → the token ours' text writes for it
    globals: HashMap<String, String>,
    attrs: HashMap<u32, u32>,
    metas: HashMap<u32, u32>,
}

fn func_by_name<'m>(m: &'m ModuleText, name: &str) -> Option<&'m crate::compare::model::FuncText> {
    m.funcs.iter().find(|f| f.name == name)
}

fn is_number(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
}

impl Fresh {
    /// The name a value gets in ours' text when theirs has it as `theirs`:
    /// ours' name `ours`, unless theirs renamed the value and ours did not
    /// (a rename is a change like any other: it comes in). Both sides
    /// renaming it differently, or theirs' new name being taken in ours'
    /// function, is a clash: ours' name is kept and the clash recorded.
    fn rename_by_theirs(
        &mut self,
        func: &str,
        ours: String,
        theirs: &str,
        base: Option<&String>,
    ) -> String {
        let Some(base) = base else { return ours };
        let is_name = |t: &str| !is_number(t) && !t.is_empty();
        if theirs == base || theirs == ours || !is_name(theirs) || !is_name(base) {
            return ours;
        }
        let taken = self.taken_locals.entry(func.to_string()).or_default();
        if ours != *base || taken.contains(theirs) {
            self.rename_clashes
                .push((theirs.to_string(), func.to_string()));
            return ours;
        }
        taken.insert(theirs.to_string());
        theirs.to_string()
    }

    fn local(&mut self, func: &str, key: String, preferred: &str) -> String {
        if let Some(t) = self.locals.get(&(func.to_string(), key.clone())) {
            return t.clone();
        }
        let taken = self.taken_locals.entry(func.to_string()).or_default();
        let token = if is_number(preferred) || preferred.starts_with('"') {
            self.placeholders += 1;
            format!("{PLACEHOLDER}{}", self.placeholders)
        } else {
            let mut t = preferred.to_string();
            let mut k = 0;
            while taken.contains(&t) {
                k += 1;
                t = format!("{preferred}.{k}");
            }
            t
        };
        taken.insert(token.clone());
        self.locals.insert((func.to_string(), key), token.clone());
        token
    }

    fn global(&mut self, canonical: &str, preferred: &str) -> String {
        if let Some(t) = self.globals.get(canonical) {
            return t.clone();
        }
        let mut t = preferred.to_string();
        let mut k = 0;
        while self.taken_globals.contains(&t) {
            k += 1;
            t = format!("{preferred}.{k}");
        }
        self.taken_globals.insert(t.clone());
        self.globals.insert(canonical.to_string(), t.clone());
        t
    }
}

/// Builds the translation of `side` into ours' tokens.
/// A line with the numbers that shift when a line is inserted above it
/// (`%7`, `7:`, `!7`, `#7`) masked: lines equal up to renumbering compare equal.
fn masked(code: &str) -> String {
    let code = match code.strip_suffix(':') {
        Some(l) if is_number(l) => return "#:".to_string(),
        _ => code,
    };
    crate::text::rewrite_tokens(code, |sigil, name| {
        (sigil != b'@' && is_number(name)).then(|| "#".to_string())
    })
}

/// The local tokens of a line in order (a label's own name first).
fn line_tokens(code: &str) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(l) = code.strip_suffix(':') {
        if !l.contains(' ') {
            v.push(l.to_string());
            return v;
        }
    }
    crate::text::scan_tokens(code, |_, _, sigil, name| {
        if sigil == b'%' {
            v.push(name.to_string());
        }
    });
    v
}

/// Token correspondences from the text itself: the lines of `a` and `b`
/// that are equal up to renumbering (the merge's Myers diff of the masked
/// lines) pair
/// their local tokens position by position, per function (`undo` maps `a`'s
/// renamed functions to base names). Returns function → `a` token → `b` token.
fn align(a: &str, undo: &BTreeMap<String, String>, b: &str) -> Aligned {
    fn keyed<'t>(
        text: &'t str,
        undo: Option<&BTreeMap<String, String>>,
    ) -> (Vec<String>, Vec<(String, &'t str)>) {
        let layout = layout::lex(text);
        let mut keys = Vec::new();
        let mut lines = Vec::new();
        let mut func = String::new();
        for line in &layout.lines {
            let LineKind::Code { stmt } = line.kind else {
                continue;
            };
            let kind = &layout.stmts[stmt].kind;
            if let StmtKind::Define(name) = kind {
                let name = function_key(name);
                func = undo.and_then(|u| u.get(&name)).cloned().unwrap_or(name);
            } else if !kind.in_function() {
                func.clear();
            }
            if func.is_empty() {
                continue;
            }
            keys.push(format!("{func} {}", masked(line.code())));
            lines.push((func.clone(), line.code()));
        }
        (keys, lines)
    }
    let (ka, la) = keyed(a, Some(undo));
    let (kb, lb) = keyed(b, None);
    fn count(keys: &[String]) -> HashMap<&str, usize> {
        let mut c: HashMap<&str, usize> = HashMap::default();
        for k in keys {
            *c.entry(k.as_str()).or_default() += 1;
        }
        c
    }
    let (ca, cb) = (count(&ka), count(&kb));
    let mut out: Aligned = HashMap::default();
    let mut taken: HashSet<(String, String)> = HashSet::default();
    for (ia, ib) in crate::compare::diff::common(&ka, &kb) {
        let (func, code_a) = &la[ia];
        let (_, code_b) = &lb[ib];
        let key = ka[ia].as_str();
        let unique = ca.get(key) == Some(&1) && cb.get(key) == Some(&1);
        let map = out.entry(func.clone()).or_default();
        for (ta, tb) in line_tokens(code_a).into_iter().zip(line_tokens(code_b)) {
            if !map.contains_key(&ta) && taken.insert((func.clone(), tb.clone())) {
                map.insert(ta, (tb, unique));
            }
        }
    }
    out
}

/// function → token → (the other input's token, from a line unique in both).
type Aligned = HashMap<String, HashMap<String, (String, bool)>>;

/// A side's canonical names → base canonical names: the structural
/// matching, arguments by position, then, among what is left unmatched on
/// both sides, values the two inputs wrote with the same token (an edited
/// instruction keeps its name in the text).
fn by_names(
    m: &Matching,
    aligned: Option<&HashMap<String, (String, bool)>>,
    side_tokens: &HashMap<String, String>,
    base_tokens: &HashMap<String, String>,
) -> HashMap<String, String> {
    let mut map: HashMap<String, String> = m
        .values
        .iter()
        .chain(&m.blocks)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if let Some(aligned) = aligned {
        follow_alignment(&mut map, aligned, side_tokens, base_tokens);
    }
    pair_twins(&mut map, side_tokens, base_tokens);
    fill_by_tokens(&mut map, side_tokens, base_tokens);
    map
}

/// What the text itself says, over the matching: lines unique in both
/// texts win over the structure; repeated lines (a run of equal allocas)
/// only fill gaps.
fn follow_alignment(
    map: &mut HashMap<String, String>,
    aligned: &HashMap<String, (String, bool)>,
    side_tokens: &HashMap<String, String>,
    base_tokens: &HashMap<String, String>,
) {
    let side_of: HashMap<&String, &String> = side_tokens.iter().map(|(c, t)| (t, c)).collect();
    let base_of: HashMap<&String, &String> = base_tokens.iter().map(|(c, t)| (t, c)).collect();
    let mut pairs: Vec<(&String, &(String, bool))> = aligned.iter().collect();
    pairs.sort();
    let mut used: HashSet<String> = map.values().cloned().collect();
    // Base name → the side names mapped to it (kept in step with `map`,
    // so that taking a base name from its holders costs no scan).
    let mut holders: HashMap<String, Vec<String>> = HashMap::default();
    for (k, v) in map.iter() {
        holders.entry(v.clone()).or_default().push(k.clone());
    }
    for strong in [true, false] {
        for (ts, (tb, unique)) in &pairs {
            if *unique != strong {
                continue;
            }
            let (Some(&c), Some(&b)) = (side_of.get(*ts), base_of.get(tb)) else {
                continue;
            };
            if strong {
                if used.contains(b.as_str()) {
                    if let Some(ks) = holders.get_mut(b.as_str()) {
                        for k in ks.drain(..).filter(|k| k != c) {
                            map.remove(&k);
                        }
                    }
                }
                if let Some(old) = map.insert(c.clone(), b.clone()) {
                    used.remove(&old);
                    if let Some(ks) = holders.get_mut(&old) {
                        ks.retain(|k| k != c);
                    }
                }
                holders.entry(b.clone()).or_default().push(c.clone());
                used.insert(b.clone());
            } else if !map.contains_key(c) && used.insert(b.clone()) {
                map.insert(c.clone(), b.clone());
                holders.entry(b.clone()).or_default().push(c.clone());
            }
        }
    }
}

/// Twins (same canonical name up to the `.N` suffix) are told apart by
/// nothing but their order: within each class, pair first the ones the
/// two inputs wrote with the same token, then as the matching did, then
/// in name order.
fn pair_twins(
    map: &mut HashMap<String, String>,
    side_tokens: &HashMap<String, String>,
    base_tokens: &HashMap<String, String>,
) {
    let stem = crate::comments::carry::without_twin_suffix;
    let mut classes: HashMap<&str, (Vec<&String>, Vec<&String>)> = HashMap::default();
    for c in side_tokens.keys() {
        classes.entry(stem(c)).or_default().0.push(c);
    }
    for b in base_tokens.keys() {
        if let Some(class) = classes.get_mut(stem(b)) {
            class.1.push(b);
        }
    }
    // Base names some side name maps to, kept in step with `map`.
    let mut used: HashSet<String> = map.values().cloned().collect();
    for (sides, bases) in classes.values_mut() {
        if sides.len() < 2 && bases.len() < 2 {
            continue;
        }
        sides.sort();
        bases.sort();
        let before: HashMap<String, String> = sides
            .iter()
            .filter_map(|c| map.remove(*c).map(|b| ((*c).clone(), b)))
            .collect();
        for b in before.values() {
            used.remove(b);
        }
        let mut free_bases: Vec<&String> = bases
            .iter()
            .copied()
            .filter(|b| !used.contains(*b))
            .collect();
        for b in &free_bases {
            used.insert((*b).clone());
        }
        let mut rest = Vec::new();
        for c in sides.iter() {
            // Numbers shift with every insertion above: only names count.
            let t = side_tokens.get(*c).filter(|t| !is_number(t));
            match free_bases
                .iter()
                .position(|b| t.is_some() && base_tokens.get(*b) == t)
            {
                Some(k) => {
                    map.insert((*c).clone(), free_bases.remove(k).clone());
                }
                None => rest.push(*c),
            }
        }
        let mut unpaired = Vec::new();
        for c in rest {
            match before
                .get(c)
                .and_then(|b| free_bases.iter().position(|x| *x == b))
            {
                Some(k) => {
                    map.insert(c.clone(), free_bases.remove(k).clone());
                }
                None => unpaired.push(c),
            }
        }
        for (c, b) in unpaired.into_iter().zip(free_bases) {
            map.insert(c.clone(), b.clone());
        }
    }
}

/// Arguments by their canonical name, then the values still unpaired by
/// the token both inputs wrote.
fn fill_by_tokens(
    map: &mut HashMap<String, String>,
    side_tokens: &HashMap<String, String>,
    base_tokens: &HashMap<String, String>,
) {
    for k in side_tokens.keys() {
        if k.starts_with("arg") && base_tokens.contains_key(k) {
            map.entry(k.clone()).or_insert_with(|| k.clone());
        }
    }
    let taken: HashSet<String> = map.values().cloned().collect();
    let mut base_by_token: HashMap<&String, &String> = base_tokens
        .iter()
        .filter(|(c, _)| !taken.contains(*c))
        .map(|(c, t)| (t, c))
        .collect();
    let mut rest: Vec<(&String, &String)> = side_tokens
        .iter()
        .filter(|(c, _)| !map.contains_key(*c))
        .collect();
    rest.sort();
    for (c, t) in rest {
        if let Some(b) = base_by_token.remove(t) {
            map.insert(c.clone(), b.clone());
        }
    }
}

/// `s` matched to the base's `o`: the structured merge's matching when it
/// has one (`known`, by function name), else computed.
fn matching<'k>(
    known: &'k Matchings,
    o: &crate::compare::model::FuncText,
    s: &crate::compare::model::FuncText,
    name: &str,
) -> std::borrow::Cow<'k, Matching> {
    match known.get(name) {
        Some(m) => std::borrow::Cow::Borrowed(m),
        None => std::borrow::Cow::Owned(match_function(o, s)),
    }
}

/// What the translations of base and theirs share: ours' index, the
/// structured merge's matchings, and (filled as needed) base's names →
/// ours' names per function.
struct Shared<'m> {
    index: OursIndex,
    matched: &'m [Matchings; 2],
    ours_of_base: HashMap<String, HashMap<String, String>>,
}

fn translation(
    side: &SideText<'_>,
    side_aligned: &Aligned,
    base: &SideText<'_>,
    ours: &SideText<'_>,
    shared: &mut Shared<'_>,
    fresh: &mut Fresh,
) -> Translation {
    let sides = Sides {
        side,
        side_aligned,
        base,
        ours,
    };
    let mut names: Vec<(&String, &HashMap<String, String>)> = side.names.locals.iter().collect();
    names.sort_by(|a, b| a.0.cmp(b.0));
    let mut locals = HashMap::default();
    for (fname, canon_to_token) in names {
        let (at, map) = function_translation(fname, canon_to_token, &sides, shared, fresh);
        locals.insert(at, map);
    }
    let layout = layout::lex(side.text);
    let (tables, metas, attrs) = original_tables(side.side, &layout);
    Translation {
        locals,
        globals: global_translation(side, &shared.index, fresh),
        attrs: attribute_translation(&tables, attrs, &shared.index, fresh),
        metas: metadata_translation(&tables, metas, &shared.index, fresh),
    }
}

/// The side being translated, with the base and ours it is translated through.
struct Sides<'s, 't> {
    side: &'s SideText<'t>,
    side_aligned: &'s Aligned,
    base: &'s SideText<'t>,
    ours: &'s SideText<'t>,
}

/// One function's local names: the side's token → ours' token (or a fresh
/// name), keyed by the function's name as written (`@f`).
fn function_translation(
    fname: &str,
    canon_to_token: &HashMap<String, String>,
    sides: &Sides<'_, '_>,
    shared: &mut Shared<'_>,
    fresh: &mut Fresh,
) -> (String, HashMap<String, String>) {
    let Sides {
        side,
        side_aligned,
        base,
        ours,
    } = *sides;
    let (index, matched, ours_cache) = (&shared.index, shared.matched, &mut shared.ours_of_base);
    let tag = match side.side {
        Side::Base => "b:",
        Side::Ours => "a:",
        Side::Theirs => "t:",
    };
    let at = format!("@{}", crate::canon::source_map::name_token(fname));
    let base_name = side.undo.get(&at).cloned().unwrap_or_else(|| at.clone());
    let side_f = func_by_name(side.model, &base_name);
    let base_f = func_by_name(base.model, &base_name);
    let ours_f = index
        .func_of_base
        .get(&base_name)
        .and_then(|_| func_by_name(ours.model, &base_name));
    let empty = HashMap::default();
    let base_tokens = base
        .names
        .locals
        .get(&crate::comments::carry::unquote(&base_name))
        .unwrap_or(&empty);
    let side_to_base: HashMap<String, String> = match (side.side, base_f, side_f) {
        (Side::Base, Some(_), _) => canon_to_token
            .keys()
            .map(|k| (k.clone(), k.clone()))
            .collect(),
        (Side::Base, None, _) => HashMap::default(),
        (_, Some(o), Some(s)) => by_names(
            &matching(
                &matched[(side.side == Side::Theirs) as usize],
                o,
                s,
                &base_name,
            ),
            side_aligned.get(&base_name),
            canon_to_token,
            base_tokens,
        ),
        _ => HashMap::default(),
    };
    let ours_of_base: &HashMap<String, String> = ours_cache
        .entry(base_name.clone())
        .or_insert_with(|| match (base_f, ours_f) {
            (Some(o), Some(a)) => {
                let ours_tokens = index.locals.get(&base_name).unwrap_or(&empty);
                by_names(
                    &matching(&matched[0], o, a, &base_name),
                    index.aligned.get(&base_name),
                    ours_tokens,
                    base_tokens,
                )
                .into_iter()
                .map(|(a, o)| (o, a))
                .collect()
            }
            _ => HashMap::default(),
        });
    let ours_tokens = index.locals.get(&base_name);
    let mut map = HashMap::default();
    let mut entries: Vec<(&String, &String)> = canon_to_token.iter().collect();
    entries.sort();
    for (canonical, token) in entries {
        let in_base: Option<String> = side_to_base.get(canonical).cloned();
        let in_ours = in_base.as_ref().and_then(|o| {
            let a = ours_of_base.get(o)?;
            ours_tokens?.get(a).cloned()
        });
        let base_token = in_base.as_ref().and_then(|o| base_tokens.get(o));
        let out = match in_ours {
            Some(t) if side.side == Side::Theirs => {
                fresh.rename_by_theirs(&base_name, t, token, base_token)
            }
            Some(t) => t,
            None => {
                let key = match &in_base {
                    Some(o) => format!("b:{o}"),
                    None => format!("{tag}{canonical}"),
                };
                fresh.local(&base_name, key, token)
            }
        };
        map.insert(token.clone(), out);
    }
    (at, map)
}

/// The side's global names → ours' (or fresh ones).
fn global_translation(
    side: &SideText<'_>,
    index: &OursIndex,
    fresh: &mut Fresh,
) -> HashMap<String, String> {
    let mut globals = HashMap::default();
    for (canonical, name) in &side.names.globals {
        let out = match index.globals.get(canonical) {
            Some(o) => o.clone(),
            None => fresh.global(canonical, name),
        };
        globals.insert(name.clone(), crate::canon::source_map::name_token(&out));
    }
    globals
}

/// The side's attribute group numbers → ours' (by content), or fresh ones.
fn attribute_translation(
    tables: &SideTables,
    attrs: Vec<u32>,
    index: &OursIndex,
    fresh: &mut Fresh,
) -> HashMap<u32, u32> {
    let mut attr_map = HashMap::default();
    for n in attrs {
        if let Some(k) = tables.attr_key(n) {
            let known = index.attr_by_key.get(&k).copied();
            let out =
                known.unwrap_or_else(|| fresh_number(&mut fresh.attrs, &mut fresh.next_attr, k));
            attr_map.insert(n, out);
        }
    }
    attr_map
}

/// The side's metadata numbers → ours' (by content and rank), or fresh ones.
fn metadata_translation(
    tables: &SideTables,
    metas: Vec<u32>,
    index: &OursIndex,
    fresh: &mut Fresh,
) -> HashMap<u32, u32> {
    let mut meta_map = HashMap::default();
    let mut ordinal: HashMap<u64, usize> = HashMap::default();
    for n in metas {
        if let Some((k, _)) = tables.meta_key(n) {
            let o = ordinal.entry(k).or_default();
            let id = (k, *o);
            *o += 1;
            let known = index.meta_by_key.get(&id).copied();
            let out =
                known.unwrap_or_else(|| fresh_number(&mut fresh.metas, &mut fresh.next_meta, id));
            meta_map.insert(n, out);
        }
    }
    meta_map
}

/// The number ours' text gives `key` where ours has no such item: the one
/// given to it before, else the next free one.
fn fresh_number<K: std::hash::Hash + Eq>(
    given: &mut HashMap<K, u32>,
    next: &mut u32,
    key: K,
) -> u32 {
    *given.entry(key).or_insert_with(|| {
        *next += 1;
        *next - 1
    })
}

/// The text of `side` with every reference written in ours' names.
fn apply_translation(text: &str, t: &Translation) -> String {
    let layout = layout::lex(text);
    let mut out = String::with_capacity(text.len() + 64);
    let mut func: Option<&HashMap<String, String>> = None;
    for (idx, line) in layout.lines.iter().enumerate() {
        if let LineKind::Code { stmt } = line.kind {
            match &layout.stmts[stmt].kind {
                StmtKind::Define(name) if layout.stmts[stmt].first == idx => {
                    func = t.locals.get(&function_key(name));
                }
                k if !k.in_function() && !matches!(k, StmtKind::Define(_)) => func = None,
                _ => {}
            }
            // LLVM's `; preds = %a, %b` names blocks too: translate it.
            let preds = line.comment().is_some_and(|c| c.starts_with("; preds = "))
                && matches!(layout.stmts[stmt].kind, StmtKind::Label(_));
            let end = match line.comment_at {
                Some(at) if !preds => at,
                _ => line.text.len(),
            };
            let code = &line.text[..end];
            let new = crate::text::rewrite_tokens(code, |sigil, name| match sigil {
                b'%' => func.and_then(|m| m.get(name)).cloned(),
                b'@' => t
                    .globals
                    .get(&crate::comments::carry::unquote(name))
                    .cloned(),
                b'#' => name
                    .parse::<u32>()
                    .ok()
                    .and_then(|n| t.attrs.get(&n))
                    .map(|n| n.to_string()),
                _ => name
                    .parse::<u32>()
                    .ok()
                    .and_then(|n| t.metas.get(&n))
                    .map(|n| n.to_string()),
            });
            // A label's own name (`7:`) is a definition, not a `%` reference.
            let new = match (&layout.stmts[stmt].kind, func) {
                (StmtKind::Label(l), Some(m)) if new.starts_with(l.as_str()) => match m.get(l) {
                    Some(t) => format!("{t}{}", &new[l.len()..]),
                    None => new,
                },
                _ => new,
            };
            let new = if preds { llvm_padded(new, line) } else { new };
            out.push_str(&new);
            out.push_str(&line.text[end..]);
            // A `}` ends the function's scope after its own line.
            if layout.stmts[stmt].kind == StmtKind::FuncEnd {
                func = None;
            }
        } else {
            out.push_str(line.text);
        }
        out.push('\n');
    }
    if !text.ends_with('\n') && out.ends_with('\n') {
        out.pop();
    }
    out
}

/// `new`, a label line translated from `line`, with its `; preds = ...`
/// at column 50 again (one space at least), where LLVM wrote `line` so:
/// a renamed label keeps LLVM's layout.
///
/// ```text
/// bb.1f2e:                                          ; preds = %entry
/// typeswitch.notByte:                               ; preds = %entry
/// ```
fn llvm_padded(new: String, line: &layout::Line<'_>) -> String {
    const COLUMN: usize = 50;
    let Some(at) = line.comment_at else {
        return new;
    };
    let code_end = line.text[..at].trim_end().chars().count();
    let Some(new_at) = layout::comment_start(&new) else {
        return new;
    };
    if line.text[..at].chars().count() != (code_end + 1).max(COLUMN) {
        return new;
    }
    let head = new[..new_at].trim_end();
    let pad = COLUMN.saturating_sub(head.chars().count()).max(1);
    format!("{head}{}{}", " ".repeat(pad), &new[new_at..])
}

/// Base and theirs written in ours' names: the inputs of the line merge.
pub(crate) struct Translated {
    pub base: String,
    pub theirs: String,
    /// Values both sides renamed differently: (theirs' name, function).
    pub rename_clashes: Vec<(String, String)>,
}

/// Base and theirs written in ours' names (theirs' renames of values ours
/// did not rename come in as theirs wrote them).
pub(crate) fn translate(
    base: &SideText<'_>,
    ours: &SideText<'_>,
    theirs: &SideText<'_>,
) -> Translated {
    translate_matched(base, ours, theirs, &Default::default())
}

/// [`translate`], given ours' and theirs' functions already matched to the
/// base's (the structured merge's [`Matchings`]; a function missing there
/// is matched here).
pub(crate) fn translate_matched(
    base: &SideText<'_>,
    ours: &SideText<'_>,
    theirs: &SideText<'_>,
    matched: &[Matchings; 2],
) -> Translated {
    let mut fresh = Fresh::default();
    // Theirs' text aligned with base's while ours' index is built.
    let (index, theirs_aligned) = std::thread::scope(|scope| {
        let h = scope.spawn(|| align(theirs.text, theirs.undo, base.text));
        let index = OursIndex::new(ours, base, &mut fresh);
        (
            index,
            h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
        )
    });
    let mut shared = Shared {
        index,
        matched,
        ours_of_base: HashMap::default(),
    };
    let none = HashMap::default();
    let tb = translation(base, &none, base, ours, &mut shared, &mut fresh);
    let tt = translation(theirs, &theirs_aligned, base, ours, &mut shared, &mut fresh);
    Translated {
        base: apply_translation(base.text, &tb),
        theirs: apply_translation(theirs.text, &tt),
        rename_clashes: std::mem::take(&mut fresh.rename_clashes),
    }
}

/// `theirs_in_ours_names` (theirs translated) without the top-level items
/// (functions, declarations, globals) that theirs added and ours added too,
/// with the same text, elsewhere: the line merge would write them twice.
/// `None` when there is none. An item with a comment right above it is kept
/// (the comment is theirs' content).
///
/// ```text
/// base: @f        ours: @f, @h        theirs: @h, @f     → theirs as @f
/// ```
pub(crate) fn without_items_ours_added(
    base: &str,
    ours: &str,
    theirs: &str,
    theirs_in_ours_names: &str,
) -> Option<String> {
    let text_of = |text: &str| -> HashMap<String, (String, bool)> {
        let l = layout::lex(text);
        items(&l)
            .into_iter()
            .map(|(name, first, last)| {
                let commented = first > 0 && l.lines[first - 1].kind == LineKind::Comment;
                (name, (lines_text(&l, first, last), commented))
            })
            .collect()
    };
    let (base_items, ours_items, theirs_items) = (text_of(base), text_of(ours), text_of(theirs));
    let twice = |name: &String| {
        !base_items.contains_key(name)
            && theirs_items.get(name).is_some_and(|(t, commented)| {
                !commented && ours_items.get(name).is_some_and(|(o, _)| o == t)
            })
    };
    let translated = layout::lex(theirs_in_ours_names);
    let mut drop = vec![false; translated.lines.len()];
    let mut dropped = false;
    for (name, first, last) in items(&translated) {
        if !twice(&name) {
            continue;
        }
        drop[first..=last].iter_mut().for_each(|d| *d = true);
        // The blank line that separated the item from the next one.
        if translated
            .lines
            .get(last + 1)
            .is_some_and(|l| l.kind == LineKind::Blank)
        {
            drop[last + 1] = true;
        }
        dropped = true;
    }
    dropped.then(|| {
        theirs_in_ours_names
            .split_inclusive('\n')
            .zip(&drop)
            .filter(|(_, d)| !**d)
            .map(|(l, _)| l)
            .collect()
    })
}

/// Top-level items of a file: (kind and name, first line, last line).
fn items(layout: &Layout<'_>) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize)> = None;
    for s in &layout.stmts {
        match &s.kind {
            StmtKind::Define(name) => open = Some((format!("define {name}"), s.first)),
            StmtKind::FuncEnd => {
                if let Some((name, first)) = open.take() {
                    out.push((name, first, s.last));
                }
            }
            StmtKind::Declare(name) => out.push((format!("declare {name}"), s.first, s.last)),
            StmtKind::Global(name) => out.push((format!("global {name}"), s.first, s.last)),
            _ => {}
        }
    }
    out
}

fn lines_text(layout: &Layout<'_>, first: usize, last: usize) -> String {
    layout.lines[first..=last]
        .iter()
        .map(|l| l.text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// For the line merge: whether two insertions at base line `at` may follow
/// each other. They may when both sit between top-level items of `base`
/// and each is made of whole top-level items (functions, globals,
/// declarations, with their comments): the order of those means nothing.
pub(crate) fn free_order(base: &str) -> impl Fn(usize, &[&str], &[&str]) -> bool + '_ {
    let layout = layout::lex(base);
    let mut in_func = vec![false; layout.lines.len()];
    let mut ends = vec![false; layout.lines.len()];
    let mut starts = vec![false; layout.lines.len()];
    let mut open: Option<usize> = None;
    for s in &layout.stmts {
        match s.kind {
            StmtKind::Define(_) => {
                open = Some(s.first);
                starts[s.first] = true;
            }
            StmtKind::FuncEnd => {
                if let Some(first) = open.take() {
                    in_func[first..=s.last].iter_mut().for_each(|x| *x = true);
                }
                ends[s.last] = true;
            }
            _ => {}
        }
    }
    move |at: usize, a: &[&str], b: &[&str]| {
        let gap = (at == 0 || !in_func[at - 1] || ends[at - 1])
            && (at >= in_func.len() || !in_func[at] || starts[at]);
        let whole = |lines: &[&str]| {
            let text = lines.concat();
            let l = layout::lex(&text);
            let defines = l
                .stmts
                .iter()
                .filter(|s| matches!(s.kind, StmtKind::Define(_)))
                .count();
            let ends = l
                .stmts
                .iter()
                .filter(|s| s.kind == StmtKind::FuncEnd)
                .count();
            defines == ends
                && l.stmts
                    .first()
                    .is_none_or(|s| !s.kind.in_function() || s.kind == StmtKind::FuncEnd)
        };
        gap && whole(a) && whole(b)
    }
}

/// Gives the placeholders of new unnamed values their numbers: every
/// function holding one is renumbered the way LLVM's printer numbers
/// (unnamed arguments, then blocks and non-void instructions in order).
/// Other functions are left untouched.
pub(crate) fn renumber(text: &str) -> String {
    if !text.contains(PLACEHOLDER) {
        return text.to_string();
    }
    let layout = layout::lex(text);
    let mut renames: Vec<Option<usize>> = vec![None; layout.lines.len()];
    let mut maps: Vec<HashMap<String, String>> = Vec::new();
    for (define, end) in function_spans(&layout) {
        let stmts = &layout.stmts;
        let (first_line, last_line) = (stmts[define].first, stmts[end].last);
        let has_placeholder = layout.lines[first_line..=last_line]
            .iter()
            .any(|l| l.text.contains(PLACEHOLDER));
        if has_placeholder {
            for rename in &mut renames[first_line..=last_line] {
                *rename = Some(maps.len());
            }
            maps.push(slot_numbers(&layout, define, end));
        }
    }
    let mut out = String::with_capacity(text.len());
    for (k, line) in layout.lines.iter().enumerate() {
        match renames[k] {
            Some(m) => out.push_str(&renumbered_line(line, &maps[m])),
            None => out.push_str(line.text),
        }
        out.push('\n');
    }
    if !text.ends_with('\n') {
        out.pop();
    }
    out
}

/// Each function of a lexed text: the statement index of its `define` and
/// of its closing `}`.
fn function_spans(layout: &Layout<'_>) -> Vec<(usize, usize)> {
    let stmts = &layout.stmts;
    let mut spans = Vec::new();
    let mut at = 0;
    while at < stmts.len() {
        if let StmtKind::Define(_) = stmts[at].kind {
            let end = (at + 1..stmts.len())
                .find(|&j| stmts[j].kind == StmtKind::FuncEnd)
                .unwrap_or(stmts.len() - 1);
            spans.push((at, end));
            at = end;
        }
        at += 1;
    }
    spans
}

/// The number LLVM's printer gives each unnamed value and placeholder of
/// one function (statements `define` to `end`): arguments, then blocks
/// and instructions in order.
fn slot_numbers(layout: &Layout<'_>, define: usize, end: usize) -> HashMap<String, String> {
    let stmts = &layout.stmts;
    let mut map = HashMap::default();
    let mut slot = 0usize;
    let numbered = |name: &str| is_number(name) || name.starts_with(PLACEHOLDER);
    // Unnamed arguments: numbered tokens right before `,` or `)`.
    let header: String = layout.lines[stmts[define].first..=stmts[define].last]
        .iter()
        .map(|l| l.code())
        .collect::<Vec<_>>()
        .join(" ");
    crate::text::scan_tokens(&header, |_, after, sigil, name| {
        let next = header[after..].trim_start().as_bytes().first().copied();
        if sigil == b'%' && numbered(name) && matches!(next, Some(b',') | Some(b')')) {
            map.insert(name.to_string(), slot.to_string());
            slot += 1;
        }
    });
    let mut seen_block = false;
    for stmt in &stmts[define + 1..end] {
        let defined = match &stmt.kind {
            StmtKind::Label(label) => Some(label),
            StmtKind::Inst { def } => {
                if !seen_block {
                    // The entry block without a label takes a number.
                    slot += 1;
                }
                def.as_ref()
            }
            _ => continue,
        };
        seen_block = true;
        if let Some(name) = defined.filter(|name| numbered(name)) {
            map.insert(name.clone(), slot.to_string());
            slot += 1;
        }
    }
    map
}

/// One line of a renumbered function: its code with each number and
/// placeholder in `map` replaced, its comment as it was.
fn renumbered_line(line: &layout::Line<'_>, map: &HashMap<String, String>) -> String {
    let end = line.comment_at.unwrap_or(line.text.len());
    let code = crate::text::rewrite_tokens(&line.text[..end], |sigil, name| {
        (sigil == b'%').then(|| map.get(name).cloned()).flatten()
    });
    // A numbered label (`7:`) is a definition too.
    let code = match code.trim_end().strip_suffix(':') {
        Some(label) if !label.starts_with(' ') && map.contains_key(label) => {
            format!("{}:{}", map[label], &code[code.trim_end().len()..])
        }
        _ => code,
    };
    format!("{code}{}", &line.text[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_get_llvm_numbers_in_their_function_only() {
        let text = "define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n  %irgit.new.1 = mul i32 %2, 2\n  %3 = sub i32 %irgit.new.1, 1\n  br label %4\n\n4:\n  ret i32 %3 ; keep %3 in comments\n}\n\ndefine i32 @g(i32 %0) {\n  %2 = add i32 %0, 1\n  ret i32 %2\n}\n";
        let want = "define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n  %3 = mul i32 %2, 2\n  %4 = sub i32 %3, 1\n  br label %5\n\n5:\n  ret i32 %4 ; keep %3 in comments\n}\n\ndefine i32 @g(i32 %0) {\n  %2 = add i32 %0, 1\n  ret i32 %2\n}\n";
        assert_eq!(renumber(text), want);
    }

    #[test]
    fn a_function_is_found_however_a_text_quotes_its_name() {
        assert_eq!(function_key("@\"main.f$1\""), "@\"main.f$1\"");
        assert_eq!(function_key("@\"main.f\""), "@main.f");
        assert_eq!(function_key("@main.f"), "@main.f");
    }

    #[test]
    fn a_renamed_label_keeps_llvm_column_for_its_predecessors() {
        let llvm = format!("bb.1f2e:{}; preds = %entry", " ".repeat(42));
        let layout = layout::lex(&llvm);
        let renamed = llvm.replacen("bb.1f2e", "typeswitch.notByte", 1);
        let want = format!("typeswitch.notByte:{}; preds = %entry", " ".repeat(31));
        assert_eq!(llvm_padded(renamed, &layout.lines[0]), want);
        let own = "bb.1f2e: ; preds = %entry";
        let layout = layout::lex(own);
        let renamed = own.replacen("bb.1f2e", "x", 1);
        assert_eq!(llvm_padded(renamed.clone(), &layout.lines[0]), renamed);
    }

    #[test]
    fn tokens_outside_strings_are_rewritten() {
        let out = crate::text::rewrite_tokens(
            "call void @f(ptr @\"a b\", i32 %x), !dbg !12 #3 c\"%x\"",
            |s, n| Some(format!("<{}{n}>", s as char)),
        );
        assert_eq!(
            out,
            "call void @<@f>(ptr @<@\"a b\">, i32 %<%x>), !dbg !<!12> #<#3> c\"%x\""
        );
    }
}
