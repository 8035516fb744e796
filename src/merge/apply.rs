//! Applying the union of both sides' edit scripts to the base, module-wide.
//!
//! Module-level entities (globals, declarations, named metadata, header
//! lines) merge by name: the side that changed an entity wins; both changed
//! it differently → conflict. Functions merge block by block over the
//! base's identities: each side's lines are rewritten into the base's names
//! through the [`matching`](crate::compare::matching), so an instruction one side
//! added keeps pointing at the base value the other side edited (the rebase):
//!
//! ```text
//! O: %x = add i32 %arg0, 1          A: %x' = add i32 %arg0, 2     (A edits x)
//!                                   B: call void @use(i32 %x)    (B adds a use)
//! merged: %x = add i32 %arg0, 2
//!         call void @use(i32 %x)
//! ```
//!
//! A block removed on one side and changed on the other conflicts (a
//! function too, unless the change only renumbered atom groups, see
//! [`atoms`](super::atoms)); a merged
//! function that uses a value no side defines any more, or defines one twice,
//! becomes a conflict as a whole.

use std::borrow::Cow;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::atoms::{Atoms, Renumbering};
use super::attribute_edits;
use super::conflict::Chunk;
use super::kept_declarations::{is_declaration, names_global};
use super::locations::Variables;
use super::render::Piece;
use crate::compare::matching::{match_function, Matching, Matchings};
use crate::compare::model::{
    local_refs_str, FuncText, KeyedLine, ModuleText, Numbering, SideTables,
};
use crate::three::{Side, Three};

use crate::text::{def_name, scan_refs, Ref};

/// The merged module, possibly with conflicts.
#[derive(Debug, Default)]
pub(crate) struct Merged {
    pub pieces: Vec<Piece>,
    pub conflicts: usize,
    /// Ours' and theirs' functions matched to the base's (set by
    /// [`merge_with`]).
    pub matched: [Matchings; 2],
}

impl Merged {
    fn absorb(&mut self, other: Merged) {
        self.conflicts += other.conflicts;
        self.pieces.extend(other.pieces);
    }
    /// Appends a line of text (to the last text piece: one piece per
    /// stretch between conflicts, not per line).
    fn text(&mut self, s: String) {
        match self.pieces.last_mut() {
            Some(Piece::Text(t)) => {
                t.push('\n');
                t.push_str(&s);
            }
            _ => self.pieces.push(Piece::Text(s)),
        }
    }
    /// Appends an instruction line, indented.
    fn line(&mut self, instruction: &str) {
        match self.pieces.last_mut() {
            Some(Piece::Text(t)) => {
                t.push_str("\n  ");
                t.push_str(instruction);
            }
            _ => self.pieces.push(Piece::Text(format!("  {instruction}"))),
        }
    }
    fn conflict(&mut self, ours: Vec<String>, base: Vec<String>, theirs: Vec<String>) {
        self.conflicts += 1;
        self.pieces.push(Piece::Conflict { ours, base, theirs });
    }
}

fn resolve3<'l, 'a>(
    o: Option<&'l KeyedLine<'a>>,
    a: Option<&'l KeyedLine<'a>>,
    b: Option<&'l KeyedLine<'a>>,
) -> Result<Option<&'l KeyedLine<'a>>, ()> {
    let k = |x: Option<&'l KeyedLine<'a>>| x.map(|l| &*l.key);
    if k(a) == k(o) {
        Ok(b)
    } else if k(b) == k(o) || k(a) == k(b) {
        Ok(a)
    } else {
        Err(())
    }
}

fn outs(v: Option<&KeyedLine>) -> Vec<String> {
    v.map(|l| vec![l.out.to_string()]).unwrap_or_default()
}

/// One side's function rewritten into the base's names.
struct SideFunc<'a> {
    header: KeyedLine<'a>,
    /// (base label or new label, lines)
    blocks: Vec<(Cow<'a, str>, Vec<KeyedLine<'a>>)>,
    /// base label -> index in `blocks`
    by_base: HashMap<Cow<'a, str>, usize>,
    new_blocks: Vec<usize>,
    /// Every local name: borrowed from the text under the identity.
    names: Names<'a>,
}

/// A side's local names, in the base's names.
enum Names<'a> {
    Same(HashSet<&'a str>),
    Rewritten(HashSet<Cow<'a, str>>),
}

impl Names<'_> {
    fn contains(&self, n: &str) -> bool {
        match self {
            Names::Same(s) => s.contains(n),
            Names::Rewritten(s) => s.contains(n),
        }
    }
}

fn rewrite_side<'a>(
    f: &'a FuncText,
    m: Option<&Matching>,
    t: &SideTables,
    nb: &mut Numbering,
    block_prefix: &str,
    value_prefix: &str,
) -> SideFunc<'a> {
    let locals = f.local_names();
    let renames = base_names_of(f, &locals, m, block_prefix, value_prefix);
    // The base's name for local `n`, when it is another name (`None`: the
    // same name, or not a local).
    let map = |n: &str| -> Option<String> { renames.get(n).cloned() };
    // A line without metadata or attribute-group numbers whose names all
    // stay (always so under the identity, or when no local is renamed) is
    // its own key and output.
    let identity = m.is_none_or(|m| m.identity) || renames.is_empty();
    let names_stay = |l: &str| {
        let mut stay = true;
        scan_refs(l, |_, _, r| {
            if let Ref::Local(n) = r {
                stay = stay && !renames.contains_key(n);
            }
        });
        stay
    };
    let line = |nb: &mut Numbering, l: &'a str| -> KeyedLine<'a> {
        if !l.bytes().any(|b| b == b'!' || b == b'#') && (identity || names_stay(l)) {
            KeyedLine::verbatim(l)
        } else {
            nb.line(t, l, &map)
        }
    };
    let name_of = |n: &'a str| map(n).map_or(Cow::Borrowed(n), Cow::Owned);
    let header = line(nb, &f.header);
    let mut blocks = Vec::with_capacity(f.blocks.len());
    let mut by_base = HashMap::default();
    let mut new_blocks = Vec::new();
    for b in &f.blocks {
        let label = name_of(&b.label);
        let lines: Vec<KeyedLine> = b.lines.iter().map(|l| line(nb, l)).collect();
        let matched = m.is_none_or(|m| m.blocks.contains_key(&b.label));
        if matched {
            by_base.insert(label.clone(), blocks.len());
        } else {
            new_blocks.push(blocks.len());
        }
        blocks.push((label, lines));
    }
    let names = if identity {
        Names::Same(locals)
    } else {
        Names::Rewritten(locals.iter().map(|n| name_of(n)).collect())
    };
    SideFunc {
        header,
        blocks,
        by_base,
        new_blocks,
        names,
    }
}

/// The locals of `f` whose base name is another name, with that name:
/// the matched name, or for an unmatched block or value its new name under
/// `block_prefix` / `value_prefix` (arguments keep theirs). Computed once
/// per local, so a line asks one small map per name it uses.
fn base_names_of<'a>(
    f: &'a FuncText,
    locals: &HashSet<&'a str>,
    m: Option<&Matching>,
    block_prefix: &str,
    value_prefix: &str,
) -> HashMap<&'a str, String> {
    let Some(m) = m else {
        return HashMap::default();
    };
    let labels: HashSet<&str> = f.blocks.iter().map(|b| b.label.as_str()).collect();
    let base_name = |n: &str| -> Option<String> {
        let renamed = |new: String| (new != n).then_some(new);
        if let Some(o) = m.values.get(n).or_else(|| m.blocks.get(n)) {
            return (o != n).then(|| o.clone());
        }
        if labels.contains(n) {
            renamed(format!("{block_prefix}{n}"))
        } else if !n.starts_with("arg") {
            renamed(format!("{value_prefix}{n}"))
        } else {
            None
        }
    };
    locals
        .iter()
        .filter_map(|&n| base_name(n).map(|b| (n, b)))
        .collect()
}

fn block_text(label: &str, lines: &[KeyedLine]) -> Vec<String> {
    let mut v = vec![format!("{label}:")];
    v.extend(lines.iter().map(|l| format!("  {}", l.out)));
    v
}

fn func_text(f: &SideFunc) -> Vec<String> {
    let mut v = vec![format!("{} {{", f.header.out)];
    for (k, (label, lines)) in f.blocks.iter().enumerate() {
        if k > 0 {
            v.push(String::new());
        }
        v.extend(block_text(label, lines));
    }
    v.push("}".into());
    v
}

fn unchanged(o: &SideFunc, s: &SideFunc) -> bool {
    same_lines(o, s, |x, y| x == y)
}

/// Whether `s` has `o`'s blocks, each line the same as `o`'s by `same`
/// (given `o`'s key, then `s`'s).
fn same_lines(o: &SideFunc, s: &SideFunc, mut same: impl FnMut(&str, &str) -> bool) -> bool {
    same(&o.header.key, &s.header.key)
        && s.new_blocks.is_empty()
        && o.blocks.len() == s.blocks.len()
        && o.blocks.iter().all(|(label, lines)| {
            s.by_base.get(label).is_some_and(|&i| {
                let other = &s.blocks[i].1;
                other.len() == lines.len()
                    && lines.iter().zip(other).all(|(x, y)| same(&x.key, &y.key))
            })
        })
}

/// Whether `s` is `o` with the atom groups of its locations renumbered
/// ([`atoms`](super::atoms)), `so` and `ss` their grouped locations.
fn renumbered(o: &SideFunc, s: &SideFunc, so: &Atoms, ss: &Atoms) -> bool {
    let mut r = Renumbering::default();
    same_lines(o, s, |x, y| r.same_line(x, y, so, ss))
}

/// Merges the three parsed canonical modules.
pub(crate) fn merge(o: &ModuleText, a: &ModuleText, b: &ModuleText) -> Merged {
    merge_with(o, a, b, &[])
}

/// [`merge`], where each `(base, ours, theirs)` of `renamed` names a base
/// function the two sides renamed differently: it becomes one conflict of
/// the whole function (ours' and theirs' new functions shown there).
pub(crate) fn merge_with(
    base: &ModuleText,
    ours: &ModuleText,
    theirs: &ModuleText,
    renamed: &[(String, String, String)],
) -> Merged {
    let mut merge = ModuleMerge::new(Three::new(base, ours, theirs));
    let removed_declarations = merge.module_entities();
    let [match_ours, match_theirs] = merge.match_functions();
    let variables = Variables::new(merge.versions());
    let renamed_to: HashSet<&str> = renamed
        .iter()
        .flat_map(|(_, x, y)| [x.as_str(), y.as_str()])
        .collect();
    for name in merge.function_names() {
        if renamed_to.contains(name) {
            continue;
        }
        merge.out.text(String::new());
        if let Some((_, in_ours, in_theirs)) = renamed.iter().find(|r| r.0 == name) {
            merge.renamed_apart(name, in_ours, in_theirs);
            continue;
        }
        let matchings = [
            merge.position(OURS, name).and_then(|i| match_ours.get(&i)),
            merge
                .position(THEIRS, name)
                .and_then(|i| match_theirs.get(&i)),
        ];
        merge.function(name, matchings, &variables);
    }
    merge.finish(removed_declarations, [match_ours, match_theirs])
}

const BASE: Side = Side::Base;
const OURS: Side = Side::Ours;
const THEIRS: Side = Side::Theirs;

/// The state of one module-wide merge: the three versions (base, ours,
/// theirs), their tables, the numbering shared by their rewritten lines and
/// the merged pieces so far.
struct ModuleMerge<'m> {
    modules: Three<&'m ModuleText>,
    tables: Three<SideTables>,
    numbering: Numbering,
    out: Merged,
    /// Each version's function index by name.
    positions: Three<HashMap<&'m str, usize>>,
    /// Each version's grouped locations, built on first use.
    atoms: Three<std::cell::OnceCell<Atoms>>,
    /// Functions one side removed and the other left alone, with the
    /// base's text.
    removed_definitions: Vec<(String, Vec<String>)>,
}

impl<'m> ModuleMerge<'m> {
    fn new(modules: Three<&'m ModuleText>) -> Self {
        let Three { base, ours, theirs } = modules;
        let base_tables = SideTables::new(Side::Base, base);
        let mut ours_tables = SideTables::new(Side::Ours, ours);
        let mut theirs_tables = SideTables::new(Side::Theirs, theirs);
        let mut numbering = Numbering::default();
        attribute_edits::read_in_place(
            (base, &base_tables),
            [(ours, &mut ours_tables), (theirs, &mut theirs_tables)],
            &mut numbering,
        );
        let positions = modules.map(|m| {
            m.funcs
                .iter()
                .enumerate()
                .map(|(i, f)| (f.name.as_str(), i))
                .collect()
        });
        ModuleMerge {
            modules,
            tables: Three::new(base_tables, ours_tables, theirs_tables),
            numbering,
            out: Merged::default(),
            positions,
            atoms: Default::default(),
            removed_definitions: Vec::new(),
        }
    }

    fn versions(&self) -> Three<(&'m ModuleText, &SideTables)> {
        self.modules.zip(self.tables.as_ref())
    }

    fn position(&self, version: Side, name: &str) -> Option<usize> {
        self.positions[version].get(name).copied()
    }

    fn atoms(&self, version: Side) -> &Atoms {
        self.atoms[version].get_or_init(|| Atoms::new(self.modules[version], &self.tables[version]))
    }

    /// Merges the module-level entities by key, in base order then
    /// additions. Returns the declarations one side removed, to keep if the
    /// merged module still uses them.
    fn module_entities(&mut self) -> Vec<(&'m str, String)> {
        let none = |_: &str| -> Option<String> { None };
        let indexes: Three<HashMap<&str, &str>> = self.modules.map(|m| {
            m.entities
                .iter()
                .map(|(k, t)| (k.as_str(), t.as_str()))
                .collect()
        });
        let mut removed_declarations = Vec::new();
        for key in first_seen(
            self.modules
                .map(|m| m.entities.iter().map(|(k, _)| k.as_str())),
        ) {
            let Three { base, ours, theirs } = Three::new(BASE, OURS, THEIRS).map(|k| {
                indexes[k]
                    .get(key)
                    .map(|t| self.numbering.line(&self.tables[k], t, &none))
            });
            match resolve3(base.as_ref(), ours.as_ref(), theirs.as_ref()) {
                Ok(Some(line)) => self.out.text(line.out.to_string()),
                Ok(None) => {
                    let kept = ours.as_ref().or(theirs.as_ref()).filter(|_| base.is_some());
                    if let Some(line) = kept.filter(|l| is_declaration(&l.out)) {
                        removed_declarations.push((key, line.out.to_string()));
                    }
                }
                Err(()) => self.out.conflict(
                    outs(ours.as_ref()),
                    outs(base.as_ref()),
                    outs(theirs.as_ref()),
                ),
            }
        }
        removed_declarations
    }

    /// Every function name of the three versions, in base order then
    /// additions.
    fn function_names(&self) -> Vec<&'m str> {
        first_seen(
            self.modules
                .map(|m| m.funcs.iter().map(|f| f.name.as_str())),
        )
    }

    /// Matches every function of ours and of theirs to the base's, the two
    /// sides in parallel.
    fn match_functions(&self) -> [HashMap<usize, Matching>; 2] {
        let (modules, base_positions) = (&self.modules, &self.positions[BASE]);
        let match_side = |version: Side| -> HashMap<usize, Matching> {
            modules[version]
                .funcs
                .iter()
                .enumerate()
                .filter_map(|(i, f)| {
                    let in_base = &modules[BASE].funcs[*base_positions.get(f.name.as_str())?];
                    Some((i, match_function(in_base, f)))
                })
                .collect()
        };
        std::thread::scope(|scope| {
            let ours = scope.spawn(|| match_side(OURS));
            let theirs = match_side(THEIRS);
            [
                ours.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                theirs,
            ]
        })
    }

    /// `version`'s function `name` rewritten into the base's names.
    fn rewritten(
        &mut self,
        version: Side,
        name: &str,
        matching: Option<&Matching>,
        prefixes: (&str, &str),
    ) -> Option<SideFunc<'m>> {
        let function = &self.modules[version].funcs[self.position(version, name)?];
        let (block_prefix, value_prefix) = prefixes;
        Some(rewrite_side(
            function,
            matching,
            &self.tables[version],
            &mut self.numbering,
            block_prefix,
            value_prefix,
        ))
    }

    /// A base function the two sides renamed differently: one conflict of
    /// the whole function, ours' and theirs' new functions shown there.
    fn renamed_apart(&mut self, name: &str, in_ours: &str, in_theirs: &str) {
        let mut text = |version: Side, name: &str| {
            self.rewritten(version, name, None, ("", ""))
                .map(|f| func_text(&f))
                .unwrap_or_default()
        };
        let (ours, base, theirs) = (
            text(OURS, in_ours),
            text(BASE, name),
            text(THEIRS, in_theirs),
        );
        self.out.conflict(ours, base, theirs);
    }

    /// Merges function `name`, `matchings` ours' and theirs' matching to the
    /// base's function.
    fn function(&mut self, name: &str, matchings: [Option<&Matching>; 2], vars: &Variables) {
        let [ours_matching, theirs_matching] = matchings;
        let Some(base) = self.rewritten(BASE, name, None, ("", "")) else {
            let ours = self.rewritten(OURS, name, None, ("", ""));
            let theirs = self.rewritten(THEIRS, name, None, ("", ""));
            return self.added(ours, theirs);
        };
        let ours = self.rewritten(OURS, name, ours_matching, ("l.", ""));
        let theirs = self.rewritten(THEIRS, name, theirs_matching, ("r.", ""));
        match (ours, theirs) {
            (None, None) => {}
            (Some(kept), None) => self.removed_on_one_side(name, &base, &kept, OURS),
            (None, Some(kept)) => self.removed_on_one_side(name, &base, &kept, THEIRS),
            (Some(ours), Some(theirs)) => {
                // New values keep their canonical names, so both sides adding
                // the same instruction at one place is one change. Two
                // different additions can share a name, though: then retry
                // with theirs' new values renamed apart.
                match merge_function(&base, &ours, &theirs, vars) {
                    Ok(local) => self.out.absorb(local),
                    Err(first) => {
                        let theirs_apart =
                            self.rewritten(THEIRS, name, theirs_matching, ("r.", "r."));
                        let ours_apart = self.rewritten(OURS, name, ours_matching, ("l.", "l."));
                        let (ours_apart, theirs_apart) =
                            (ours_apart.unwrap(), theirs_apart.unwrap());
                        match merge_function(&base, &ours, &theirs_apart, vars)
                            .or_else(|_| merge_function(&base, &ours_apart, &theirs_apart, vars))
                        {
                            Ok(local) => self.out.absorb(local),
                            Err(_) => self.out.absorb(first),
                        }
                    }
                }
            }
        }
    }

    /// A function the base lacks, added by one side or both.
    fn added(&mut self, ours: Option<SideFunc>, theirs: Option<SideFunc>) {
        match (ours, theirs) {
            (Some(ours), Some(theirs)) => {
                if unchanged(&ours, &theirs) {
                    self.out.text(func_text(&ours).join("\n"));
                } else {
                    self.out
                        .conflict(func_text(&ours), Vec::new(), func_text(&theirs));
                }
            }
            (Some(one), None) | (None, Some(one)) => self.out.text(func_text(&one).join("\n")),
            (None, None) => {}
        }
    }

    /// A function one side removed and `kept_by` kept as `kept`: a conflict
    /// unless the keeping side changed nothing the removal would lose (a
    /// side that only renumbered atom groups changed nothing; the removal
    /// is then noted in `removed_definitions`).
    fn removed_on_one_side(&mut self, name: &str, base: &SideFunc, kept: &SideFunc, kept_by: Side) {
        if unchanged(base, kept) || renumbered(base, kept, self.atoms(BASE), self.atoms(kept_by)) {
            self.removed_definitions
                .push((name.to_string(), func_text(base)));
            return;
        }
        let (ours, theirs) = if kept_by == OURS {
            (func_text(kept), Vec::new())
        } else {
            (Vec::new(), func_text(kept))
        };
        self.out.conflict(ours, func_text(base), theirs);
    }

    /// Appends the removed functions and declarations still named, then
    /// the definitions of the numbered entities the merged lines use.
    fn finish(
        mut self,
        removed_declarations: Vec<(&str, String)>,
        matched: [HashMap<usize, Matching>; 2],
    ) -> Merged {
        // Definitions one side removed that the other side's code still
        // calls: kept, so that the module is whole; the calls are a clash
        // ([`super::clash`]).
        for (name, text) in std::mem::take(&mut self.removed_definitions) {
            if names_global(&self.out.pieces, &name) {
                self.out.text(String::new());
                self.out.text(text.join("\n"));
            }
        }
        for (name, line) in removed_declarations {
            if names_global(&self.out.pieces, name) {
                self.out.text(line);
            }
        }
        self.out.text(String::new());
        let Three { base, ours, theirs } = &self.tables;
        let Three {
            base: base_module,
            ours: ours_module,
            theirs: theirs_module,
        } = self.modules;
        for line in self.numbering.definitions(&[
            (base, base_module),
            (ours, ours_module),
            (theirs, theirs_module),
        ]) {
            self.out.text(line);
        }
        let [ours_matched, theirs_matched] = matched;
        let by_name = |side: &ModuleText, m: HashMap<usize, Matching>| -> Matchings {
            m.into_iter()
                .map(|(i, x)| (side.funcs[i].name.clone(), x))
                .collect()
        };
        self.out.matched = [
            by_name(ours_module, ours_matched),
            by_name(theirs_module, theirs_matched),
        ];
        self.out
    }
}

/// The distinct keys of three versions, in the order first seen: the base's,
/// then ours' additions, then theirs'.
fn first_seen<'m>(versions: Three<impl Iterator<Item = &'m str>>) -> Vec<&'m str> {
    let mut seen = HashSet::default();
    versions
        .into_iter()
        .flatten()
        .filter(|key| seen.insert(*key))
        .collect()
}

/// Merges one function present in all three versions. `Err` holds the
/// whole-function conflict used when the merged body would use a value no
/// side defines any more, or define one twice.
fn merge_function<'a>(
    so: &SideFunc<'a>,
    sa: &SideFunc<'a>,
    sb: &SideFunc<'a>,
    vars: &Variables,
) -> Result<Merged, Merged> {
    let mut local = Merged::default();
    // The merged header's arguments are the ones the body may use.
    let mut header = &so.header;
    match resolve3(Some(&so.header), Some(&sa.header), Some(&sb.header)) {
        Ok(Some(h)) => {
            header = h;
            local.text(format!("{} {{", h.out))
        }
        _ => local.conflict(
            vec![format!("{} {{", sa.header.out)],
            vec![format!("{} {{", so.header.out)],
            vec![format!("{} {{", sb.header.out)],
        ),
    }
    let mut merged_lines: Vec<KeyedLine<'a>> = Vec::new();
    let mut labels: Vec<&str> = Vec::new();
    let mut first = true;
    let mut sep = |local: &mut Merged| {
        if !std::mem::take(&mut first) {
            local.text(String::new());
        }
    };
    for (label, ol) in &so.blocks {
        let ca = sa.by_base.get(label).map(|&i| &sa.blocks[i].1);
        let cb = sb.by_base.get(label).map(|&i| &sb.blocks[i].1);
        let same = |x: &Vec<KeyedLine>| {
            x.len() == ol.len() && x.iter().zip(ol).all(|(p, q)| p.key == q.key)
        };
        match (ca, cb) {
            (None, None) => {}
            (Some(s), None) | (None, Some(s)) => {
                if !same(s) {
                    sep(&mut local);
                    let (x, y) = if ca.is_none() {
                        (Vec::new(), block_text(label, s))
                    } else {
                        (block_text(label, s), Vec::new())
                    };
                    local.conflict(x, block_text(label, ol), y);
                }
            }
            (Some(la), Some(lb)) => {
                sep(&mut local);
                labels.push(label);
                local.text(format!("{label}:"));
                for c in super::locations::merge_block(ol, la, lb, vars) {
                    match c {
                        Chunk::Clean(v) => {
                            for l in v {
                                local.line(&l.out);
                                merged_lines.push(l);
                            }
                        }
                        Chunk::Conflict { ours, base, theirs } => {
                            let f = |v: Vec<KeyedLine>| {
                                v.into_iter().map(|l| format!("  {}", l.out)).collect()
                            };
                            local.conflict(f(ours), f(base), f(theirs));
                        }
                    }
                }
            }
        }
    }
    for s in [sa, sb] {
        for &i in &s.new_blocks {
            sep(&mut local);
            let (label, lines) = &s.blocks[i];
            labels.push(label);
            local.text(format!("{label}:"));
            for l in lines {
                local.line(&l.out);
                merged_lines.push(l.clone());
            }
        }
    }
    local.text("}".into());

    if local.conflicts == 0
        && !defines_each_local_once(header, &labels, &merged_lines, Three::new(so, sa, sb))
    {
        let mut whole = Merged::default();
        whole.conflict(func_text(sa), func_text(so), func_text(sb));
        return Err(whole);
    }
    Ok(local)
}

/// Whether the merged body defines every local it uses exactly once: its
/// labels, the header's arguments and each instruction's result (a `%name`
/// no side defines is a type).
fn defines_each_local_once(
    header: &KeyedLine<'_>,
    labels: &[&str],
    merged_lines: &[KeyedLine<'_>],
    sides: Three<&SideFunc<'_>>,
) -> bool {
    let is_local = |r: &str| sides.iter().any(|s| s.names.contains(r));
    let mut defs: HashSet<&str> =
        HashSet::with_capacity_and_hasher(merged_lines.len() + labels.len(), Default::default());
    defs.extend(labels.iter().copied());
    for r in local_refs_str(&header.out) {
        if r.starts_with("arg") {
            defs.insert(r);
        }
    }
    let mut ok = true;
    for l in merged_lines {
        if let Some(d) = def_name(&l.out) {
            ok &= defs.insert(d);
        }
    }
    for l in merged_lines {
        scan_refs(&l.out, |_, _, r| {
            if let Ref::Local(r) = r {
                ok &= defs.contains(r) || !is_local(r);
            }
        });
    }
    ok
}
