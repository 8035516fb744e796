//! Applying the union of both sides' edit scripts to the base, module-wide.
//!
//! Module-level entities (globals, declarations, named metadata, header
//! lines) merge by name: the side that changed an entity wins; both changed
//! it differently → conflict. Functions merge block by block over the
//! base's identities: each side's lines are rewritten into the base's names
//! through the [`matching`](super::matching), so an instruction one side
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
use super::matching::{match_function, Matching, Matchings};
use super::model::{
    def_name, local_refs_str, scan_refs, FuncText, Line, ModuleText, Numbering, Ref, Side,
    SideTables,
};
use super::render::Piece;

/// The merged module, possibly with conflicts.
#[derive(Debug, Default)]
pub struct Merged {
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
    o: Option<&'l Line<'a>>,
    a: Option<&'l Line<'a>>,
    b: Option<&'l Line<'a>>,
) -> Result<Option<&'l Line<'a>>, ()> {
    let k = |x: Option<&'l Line<'a>>| x.map(|l| &*l.key);
    if k(a) == k(o) {
        Ok(b)
    } else if k(b) == k(o) || k(a) == k(b) {
        Ok(a)
    } else {
        Err(())
    }
}

fn outs(v: Option<&Line>) -> Vec<String> {
    v.map(|l| vec![l.out.to_string()]).unwrap_or_default()
}

/// One side's function rewritten into the base's names.
struct SideFunc<'a> {
    header: Line<'a>,
    /// (base label or new label, lines)
    blocks: Vec<(Cow<'a, str>, Vec<Line<'a>>)>,
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
    let labels: HashSet<&str> = f.blocks.iter().map(|b| b.label.as_str()).collect();
    // The base's name for local `n`, when it is another name (`None`: the
    // same name, or not a local).
    let map = |n: &str| -> Option<String> {
        if !locals.contains(n) {
            return None;
        }
        let m = m?;
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
    // A line without metadata or attribute-group numbers whose names all
    // stay (always so under the identity) is its own key and output.
    let identity = m.is_none_or(|m| m.identity);
    let names_stay = |l: &str| {
        let mut stay = true;
        scan_refs(l, |_, _, r| {
            if let Ref::Local(n) = r {
                stay = stay && map(n).is_none();
            }
        });
        stay
    };
    let line = |nb: &mut Numbering, l: &'a str| -> Line<'a> {
        if !l.bytes().any(|b| b == b'!' || b == b'#') && (identity || names_stay(l)) {
            Line::verbatim(l)
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
        let lines: Vec<Line> = b.lines.iter().map(|l| line(nb, l)).collect();
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

fn block_text(label: &str, lines: &[Line]) -> Vec<String> {
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
pub fn merge(o: &ModuleText, a: &ModuleText, b: &ModuleText) -> Merged {
    merge_with(o, a, b, &[])
}

/// [`merge`], where each `(base, ours, theirs)` of `renamed` names a base
/// function the two sides renamed differently: it becomes one conflict of
/// the whole function (ours' and theirs' new functions shown there).
pub fn merge_with(
    o: &ModuleText,
    a: &ModuleText,
    b: &ModuleText,
    renamed: &[(String, String, String)],
) -> Merged {
    let to = SideTables::new(Side::Base, o);
    let mut ta = SideTables::new(Side::Ours, a);
    let mut tb = SideTables::new(Side::Theirs, b);
    let mut nb = Numbering::default();
    attribute_edits::read_in_place((o, &to), [(a, &mut ta), (b, &mut tb)], &mut nb);
    let mut out = Merged::default();
    let none = |_: &str| -> Option<String> { None };

    // Module-level entities, in base order then additions.
    let mut keys: Vec<&str> = Vec::new();
    let mut seen = HashSet::default();
    for m in [o, a, b] {
        for (k, _) in &m.entities {
            if seen.insert(k.as_str()) {
                keys.push(k);
            }
        }
    }
    let find = |m: &ModuleText, k: &str| {
        m.entities
            .iter()
            .find(|(x, _)| x == k)
            .map(|(_, t)| t.clone())
    };
    let index =
        |m: &ModuleText| -> HashMap<String, String> { m.entities.iter().cloned().collect() };
    let (io, ia, ib) = (index(o), index(a), index(b));
    let _ = find;
    // Declarations one side removed: kept if the merged module still uses them.
    let mut removed_declarations: Vec<(&str, String)> = Vec::new();
    for k in keys {
        let lo = io.get(k).map(|t| nb.line(&to, t, &none));
        let la = ia.get(k).map(|t| nb.line(&ta, t, &none));
        let lb = ib.get(k).map(|t| nb.line(&tb, t, &none));
        match resolve3(lo.as_ref(), la.as_ref(), lb.as_ref()) {
            Ok(Some(l)) => out.text(l.out.to_string()),
            Ok(None) => {
                let kept = la.as_ref().or(lb.as_ref()).filter(|_| lo.is_some());
                if let Some(line) = kept.filter(|l| is_declaration(&l.out)) {
                    removed_declarations.push((k, line.out.to_string()));
                }
            }
            Err(()) => out.conflict(outs(la.as_ref()), outs(lo.as_ref()), outs(lb.as_ref())),
        }
    }

    // Functions by name; those one side removed and the other left alone.
    let mut removed_definitions: Vec<(&str, Vec<String>)> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    let mut seen = HashSet::default();
    for m in [o, a, b] {
        for f in &m.funcs {
            if seen.insert(f.name.as_str()) {
                names.push(&f.name);
            }
        }
    }
    let index_of = |m: &ModuleText| -> HashMap<String, usize> {
        m.funcs
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.clone(), i))
            .collect()
    };
    let indexes = [index_of(o), index_of(a), index_of(b)];
    let get = |m: &'_ ModuleText, n: &str| {
        let k = if std::ptr::eq(m, o) {
            0
        } else if std::ptr::eq(m, a) {
            1
        } else {
            2
        };
        indexes[k].get(n).copied()
    };
    // Match every function of each side to the base's, the two sides in parallel.
    let match_side = |side: &ModuleText| -> HashMap<usize, Matching> {
        side.funcs
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let fo = &o.funcs[get(o, &f.name)?];
                Some((i, match_function(fo, f)))
            })
            .collect()
    };
    let (match_a, match_b) = std::thread::scope(|scope| {
        let h = scope.spawn(|| match_side(a));
        let mb = match_side(b);
        (
            h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            mb,
        )
    });
    let vars = Variables::new([(o, &to), (a, &ta), (b, &tb)]);
    let grouped: [std::cell::OnceCell<Atoms>; 3] = Default::default();
    let models = [(o, &to), (a, &ta), (b, &tb)];
    let atoms = |k: usize| grouped[k].get_or_init(|| Atoms::new(models[k].0, models[k].1));
    let renamed_to: HashSet<&str> = renamed
        .iter()
        .flat_map(|(_, x, y)| [x.as_str(), y.as_str()])
        .collect();
    for name in names {
        if renamed_to.contains(name) {
            continue;
        }
        out.text(String::new());
        if let Some((_, x, y)) = renamed.iter().find(|r| r.0 == name) {
            let text = |m: &ModuleText, t: &SideTables, nb: &mut Numbering, n: &str| {
                get(m, n)
                    .map(|i| func_text(&rewrite_side(&m.funcs[i], None, t, nb, "", "")))
                    .unwrap_or_default()
            };
            let (fa, fo, fb) = (
                text(a, &ta, &mut nb, x),
                text(o, &to, &mut nb, name),
                text(b, &tb, &mut nb, y),
            );
            out.conflict(fa, fo, fb);
            continue;
        }
        let (po, pa, pb) = (get(o, name), get(a, name), get(b, name));
        let Some(po) = po else {
            let sa = pa.map(|i| rewrite_side(&a.funcs[i], None, &ta, &mut nb, "", ""));
            let sb = pb.map(|i| rewrite_side(&b.funcs[i], None, &tb, &mut nb, "", ""));
            match (sa, sb) {
                (Some(x), Some(y)) => {
                    if unchanged(&x, &y) {
                        out.text(func_text(&x).join("\n"));
                    } else {
                        out.conflict(func_text(&x), Vec::new(), func_text(&y));
                    }
                }
                (Some(x), None) | (None, Some(x)) => out.text(func_text(&x).join("\n")),
                (None, None) => {}
            }
            continue;
        };
        let fo = &o.funcs[po];
        let so = rewrite_side(fo, None, &to, &mut nb, "", "");
        let ma = pa.and_then(|i| match_a.get(&i).cloned());
        let mb = pb.and_then(|i| match_b.get(&i).cloned());
        let sa = pa.map(|i| rewrite_side(&a.funcs[i], ma.as_ref(), &ta, &mut nb, "l.", ""));
        let sb = pb.map(|i| rewrite_side(&b.funcs[i], mb.as_ref(), &tb, &mut nb, "r.", ""));
        match (sa, sb) {
            (None, None) => {}
            (Some(s), None) | (None, Some(s)) => {
                let ours_removed = pa.is_none();
                let kept = if ours_removed { 2 } else { 1 };
                // A side that only renumbered atom groups changed nothing
                // the removal would lose.
                if !unchanged(&so, &s) && !renumbered(&so, &s, atoms(0), atoms(kept)) {
                    let (x, y) = if ours_removed {
                        (Vec::new(), func_text(&s))
                    } else {
                        (func_text(&s), Vec::new())
                    };
                    out.conflict(x, func_text(&so), y);
                } else {
                    removed_definitions.push((name, func_text(&so)));
                }
            }
            (Some(sa), Some(sb)) => {
                // New values keep their canonical names, so both sides adding
                // the same instruction at one place is one change. Two
                // different additions can share a name, though: then retry
                // with theirs' new values renamed apart.
                match merge_function(&so, &sa, &sb, &vars) {
                    Ok(local) => out.absorb(local),
                    Err(first) => {
                        let fb = &b.funcs[pb.unwrap()];
                        let sb2 = rewrite_side(fb, mb.as_ref(), &tb, &mut nb, "r.", "r.");
                        let fa = &a.funcs[pa.unwrap()];
                        let sa2 = rewrite_side(fa, ma.as_ref(), &ta, &mut nb, "l.", "l.");
                        match merge_function(&so, &sa, &sb2, &vars)
                            .or_else(|_| merge_function(&so, &sa2, &sb2, &vars))
                        {
                            Ok(local) => out.absorb(local),
                            Err(_) => out.absorb(first),
                        }
                    }
                }
            }
        }
    }

    // Definitions one side removed that the other side's code still calls:
    // kept, so that the module is whole; the calls are a clash ([`super::clash`]).
    for (name, text) in removed_definitions {
        if names_global(&out.pieces, name) {
            out.text(String::new());
            out.text(text.join("\n"));
        }
    }
    for (name, line) in removed_declarations {
        if names_global(&out.pieces, name) {
            out.text(line);
        }
    }
    out.text(String::new());
    for l in nb.definitions(&[(&to, o), (&ta, a), (&tb, b)]) {
        out.text(l);
    }
    let by_name = |side: &ModuleText, m: HashMap<usize, Matching>| -> Matchings {
        m.into_iter()
            .map(|(i, x)| (side.funcs[i].name.clone(), x))
            .collect()
    };
    out.matched = [by_name(a, match_a), by_name(b, match_b)];
    out
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
    let mut merged_lines: Vec<Line<'a>> = Vec::new();
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
        let same =
            |x: &Vec<Line>| x.len() == ol.len() && x.iter().zip(ol).all(|(p, q)| p.key == q.key);
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
                            let f = |v: Vec<Line>| {
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
        && !defines_each_local_once(header, &labels, &merged_lines, [so, sa, sb])
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
    header: &Line<'_>,
    labels: &[&str],
    merged_lines: &[Line<'_>],
    sides: [&SideFunc<'_>; 3],
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
