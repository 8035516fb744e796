//! Identities the merge must keep (issue 15, item 1), on generated
//! triples. The module holds entities whose identity is not their text:
//! a `distinct` loop node two functions share, alias scopes in one domain,
//! access groups (`distinct !{}`, all alike), a `distinct` helper
//! `DISubprogram` two functions inlined, `DIAssignID`s, inlined-at
//! locations, the compile unit, an alias, comdats and attribute groups
//! used by several functions, and globals.
//!
//! A module is a set of parameters (`loop_b.slot = P0`, `dbg_a.factor =
//! 3`, ...), printed as IR with its metadata numbered in order of first
//! use (so every side numbers differently). An edit changes parameters:
//! in a function, a constant, an inserted or a deleted instruction,
//! giving its shared node one of its own ("unshare", a node alike in
//! content), sharing another's node, another attribute group; in the
//! module, a global's initializer, a new global, a deleted alias, a
//! comdat left or joined, a shared attribute group's content. The
//! expected result is the three-way merge of the parameters: known by
//! construction, or "must conflict" when both sides set one parameter
//! differently. A clean merge must be that module (compared canonically).
//!
//! ```text
//! @loop_a: br ..., !llvm.loop !0    @loop_b: br ..., !llvm.loop !0     (one node)
//! ours unshares @loop_a (!9 = distinct !{!9, !2}, alike), theirs edits @loop_b:
//! the result keeps @loop_b on !0 and @loop_a on a node of its own
//! ```

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A module as parameters: `<function>.<field>` or `module.<field>`.
type Params = BTreeMap<String, String>;

const LOOPS: [&str; 3] = ["loop_a", "loop_b", "loop_c"];
const SCOPED: [&str; 2] = ["scoped_a", "scoped_b"];
const DEBUG: [&str; 2] = ["dbg_a", "dbg_b"];

/// What is edited: one of the functions, or the module's own entities.
const TARGETS: [&str; 8] = [
    "loop_a", "loop_b", "loop_c", "scoped_a", "scoped_b", "dbg_a", "dbg_b", "module",
];

fn base_params() -> Params {
    let mut p = Params::new();
    let mut set = |k: String, v: &str| p.insert(k, v.to_string());
    for (i, f) in LOOPS.iter().chain(&SCOPED).chain(&DEBUG).enumerate() {
        set(format!("{f}.factor"), &(3 + i).to_string());
        set(format!("{f}.extra"), "0");
        set(format!("{f}.sink"), "1");
        set(format!("{f}.attrs"), if i % 3 == 2 { "1" } else { "0" });
        set(format!("{f}.comdat"), "");
        // loop_c's loop and dbg_b's second inlined helper use P1.
        set(
            format!("{f}.slot"),
            if *f == "loop_c" { "P1" } else { "P0" },
        );
    }
    // Second users: loop_c's scopes, dbg_b's second inlined helper.
    set("loop_c.slot2".into(), "P1");
    set("dbg_b.slot2".into(), "P1");
    // Two functions in one comdat.
    set("loop_a.comdat".into(), "loop_a");
    set("loop_b.comdat".into(), "loop_a");
    set("module.counter".into(), "0");
    set("module.added".into(), "0");
    set("module.spare".into(), "1");
    set("module.attrs1".into(), "noinline nounwind");
    p
}

/// Numbered metadata, in order of first use.
#[derive(Default)]
struct Meta {
    ids: HashMap<String, usize>,
    defs: Vec<String>,
}

impl Meta {
    /// The number of the node `key`, defined by `def` (given the node's
    /// own number) on first use.
    fn node(&mut self, key: &str, def: impl FnOnce(&mut Meta, usize) -> String) -> usize {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let id = self.defs.len();
        self.ids.insert(key.to_string(), id);
        self.defs.push(String::new());
        self.defs[id] = def(self, id);
        id
    }

    fn file(&mut self) -> usize {
        self.node("file", |_, _| {
            "!DIFile(filename: \"m.c\", directory: \"/src\")".into()
        })
    }

    fn unit(&mut self) -> usize {
        self.node("cu", |m, _| {
            format!(
                "distinct !DICompileUnit(language: DW_LANG_C11, file: !{}, producer: \"clang\", \
                 isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)",
                m.file()
            )
        })
    }

    fn int(&mut self) -> usize {
        self.node("int", |_, _| {
            "!DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)".into()
        })
    }

    fn subroutine(&mut self) -> usize {
        self.node("type", |m, _| {
            let int = m.int();
            let types = m.node("types", |_, _| format!("!{{!{int}, !{int}}}"));
            format!("!DISubroutineType(types: !{types})")
        })
    }

    /// A `distinct` subprogram; the helper's (one per slot) are alike.
    fn subprogram(&mut self, key: &str, name: &str, line: u32, local: bool) -> usize {
        self.node(key, |m, _| {
            let (file, ty, unit) = (m.file(), m.subroutine(), m.unit());
            let local = if local { "DISPFlagLocalToUnit | " } else { "" };
            format!(
                "distinct !DISubprogram(name: \"{name}\", scope: !{file}, file: !{file}, \
                 line: {line}, type: !{ty}, scopeLine: {line}, spFlags: {local}DISPFlagDefinition \
                 | DISPFlagOptimized, unit: !{unit})"
            )
        })
    }

    /// The loop node of a slot: all alike (`distinct !{!self, !mustprogress}`).
    fn loop_node(&mut self, slot: &str) -> usize {
        self.node(&format!("loop:{slot}"), |m, id| {
            let mp = m.node("mustprogress", |_, _| {
                "!{!\"llvm.loop.mustprogress\"}".into()
            });
            format!("distinct !{{!{id}, !{mp}}}")
        })
    }

    /// The scope list of a slot: one scope, all alike, in one domain.
    fn scope_list(&mut self, slot: &str) -> usize {
        self.node(&format!("scopes:{slot}"), |m, _| {
            let scope = m.node(&format!("scope:{slot}"), |m, id| {
                let dom = m.node("domain", |_, d| format!("distinct !{{!{d}, !\"domain\"}}"));
                format!("distinct !{{!{id}, !{dom}, !\"scope\"}}")
            });
            format!("!{{!{scope}}}")
        })
    }
}

/// Where a function's shared entity goes (`slot`, or `slot2` for its
/// second one): a pool node, or its own.
fn slot_key(p: &Params, user: &str) -> String {
    let f = user.split('.').next().unwrap();
    match p[user].as_str() {
        "own" => format!("own-{f}"),
        s => s.to_string(),
    }
}

fn slot(p: &Params, f: &str) -> String {
    slot_key(p, &format!("{f}.slot"))
}

fn head(p: &Params, f: &str, dbg: Option<usize>) -> String {
    let comdat = match p[&format!("{f}.comdat")].as_str() {
        "" => String::new(),
        c => format!(" comdat(${c})"),
    };
    let dbg = dbg.map(|d| format!(" !dbg !{d}")).unwrap_or_default();
    format!(
        "define i32 @{f}(i32 %n) #{}{comdat}{dbg} {{\nentry:\n",
        p[&format!("{f}.attrs")]
    )
}

/// `%r = mul ...`, the inserted instruction when there is one, and `ret`.
fn tail(p: &Params, f: &str, operand: &str, dbg: &str) -> String {
    let mut t = format!(
        "  %r = mul i32 {operand}, {}{dbg}\n",
        p[&format!("{f}.factor")]
    );
    if p[&format!("{f}.extra")] == "1" {
        t.push_str("  %extra = xor i32 %r, 5\n  ret i32 %extra\n}\n");
    } else {
        t.push_str(&format!("  ret i32 %r{dbg}\n}}\n"));
    }
    t
}

fn sink(p: &Params, f: &str, dbg: &str) -> String {
    if p[&format!("{f}.sink")] == "1" {
        format!("  call void @sink(i32 %n){dbg}\n")
    } else {
        String::new()
    }
}

fn loop_function(p: &Params, f: &str, m: &mut Meta) -> String {
    let l = m.loop_node(&slot(p, f));
    let mut t = head(p, f, None) + &sink(p, f, "");
    t.push_str(&format!(
        "  br label %loop\n\nloop:\n  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]\n  \
         %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]\n  %acc.next = add i32 %acc, %i\n  \
         %i.next = add i32 %i, 1\n  %done = icmp sge i32 %i.next, %n\n  \
         br i1 %done, label %exit, label %loop, !llvm.loop !{l}\n\nexit:\n"
    ));
    if f == "loop_c" {
        let s = m.scope_list(&slot_key(p, "loop_c.slot2"));
        t.push_str(&format!(
            "  %g = load i32, ptr @counter, align 4, !alias.scope !{s}\n  \
             store i32 %g, ptr @other, align 4, !noalias !{s}\n"
        ));
    }
    t + &tail(p, f, "%acc.next", "")
}

fn scoped_function(p: &Params, f: &str, m: &mut Meta) -> String {
    let s = m.scope_list(&slot(p, f));
    let group = m.node(&format!("group:{f}"), |_, _| "distinct !{}".into());
    let mut t = head(p, f, None) + &sink(p, f, "");
    t.push_str(&format!(
        "  %g = load i32, ptr @counter, align 4, !alias.scope !{s}, !llvm.access.group !{group}\n  \
         %v = add i32 %g, %n\n  store i32 %v, ptr @other, align 4, !noalias !{s}\n"
    ));
    if f == "scoped_b" {
        t.push_str("  %c = call i32 @la(i32 %v)\n");
    }
    t + &tail(p, f, "%v", "")
}

fn debug_function(p: &Params, f: &str, m: &mut Meta) -> String {
    let line = if f == "dbg_a" { 10 } else { 20 };
    let sp = m.subprogram(&format!("sp:{f}"), f, line, false);
    let (file, int) = (m.file(), m.int());
    let var = m.node(&format!("var:{f}"), |_, _| {
        format!(
            "!DILocalVariable(name: \"v\", scope: !{sp}, file: !{file}, line: {}, type: !{int})",
            line + 1
        )
    });
    let loc = m.node(&format!("loc:{f}"), |_, _| {
        format!("!DILocation(line: {}, column: 7, scope: !{sp})", line + 1)
    });
    let inlined = |m: &mut Meta, slot: &str, n: u32| {
        let helper = m.subprogram(&format!("helper:{slot}"), "helper", 3, true);
        let at = m.node(&format!("at:{f}:{n}"), |_, _| {
            format!(
                "distinct !DILocation(line: {}, column: 3, scope: !{sp})",
                line + 1 + n
            )
        });
        m.node(&format!("hl:{f}:{n}:{slot}"), |_, _| {
            format!("!DILocation(line: 4, column: 5, scope: !{helper}, inlinedAt: !{at})")
        })
    };
    let h = inlined(m, &slot(p, f), 1);
    let second = (f == "dbg_b").then(|| inlined(m, &slot_key(p, "dbg_b.slot2"), 2));
    let ids: Vec<usize> = (0..2)
        .map(|i| {
            m.node(&format!("assign:{f}:{i}"), |_, _| {
                "distinct !DIAssignID()".into()
            })
        })
        .collect();
    let d = format!(", !dbg !{loc}");
    let mut t = head(p, f, Some(sp));
    t.push_str(&format!(
        "  %x = alloca i32, align 4, !DIAssignID !{a}\n    #dbg_assign(i1 poison, !{var}, \
         !DIExpression(), !{a}, ptr %x, !DIExpression(), !{loc})\n",
        a = ids[0]
    ));
    t.push_str(&sink(p, f, &d));
    t.push_str(&format!("  %h = add i32 %n, 1, !dbg !{h}\n"));
    if let Some(h2) = second {
        t.push_str(&format!("  %h2 = add i32 %h, 2, !dbg !{h2}\n"));
    }
    t.push_str(&format!(
        "  store i32 %h, ptr %x, align 4, !DIAssignID !{a}{d}\n    #dbg_assign(i32 %h, !{var}, \
         !DIExpression(), !{a}, ptr %x, !DIExpression(), !{loc})\n  \
         %l = load i32, ptr %x, align 4{d}\n",
        a = ids[1]
    ));
    t + &tail(p, f, "%l", &d)
}

/// The module's text.
fn render(p: &Params) -> String {
    let mut m = Meta::default();
    let mut functions = Vec::new();
    for f in LOOPS {
        functions.push(loop_function(p, f, &mut m));
    }
    for f in SCOPED {
        functions.push(scoped_function(p, f, &mut m));
    }
    for f in DEBUG {
        functions.push(debug_function(p, f, &mut m));
    }
    let comdats: BTreeSet<&str> = TARGETS
        .iter()
        .filter_map(|f| p.get(&format!("{f}.comdat")))
        .filter(|c| !c.is_empty())
        .map(String::as_str)
        .collect();
    let mut t = String::from("source_filename = \"m.c\"\n\n");
    for c in comdats {
        t.push_str(&format!("${c} = comdat any\n"));
    }
    t.push_str(&format!(
        "\n@counter = global i32 {}, align 4\n@other = global i32 0, align 4\n",
        p["module.counter"]
    ));
    if p["module.added"] == "1" {
        t.push_str("@added = global i32 42, align 4\n");
    }
    t.push_str("\n@la = alias i32 (i32), ptr @loop_a\n");
    if p["module.spare"] == "1" {
        t.push_str("@spare = alias i32 (i32), ptr @loop_b\n");
    }
    t.push_str("\ndeclare void @sink(i32)\n\n");
    t.push_str(&functions.join("\n"));
    t.push_str(&format!(
        "\nattributes #0 = {{ nounwind }}\nattributes #1 = {{ {} }}\n\n",
        p["module.attrs1"]
    ));
    let unit = m.unit();
    let flags: Vec<usize> = [
        "!{i32 7, !\"Dwarf Version\", i32 5}",
        "!{i32 2, !\"Debug Info Version\", i32 3}",
        "!{i32 7, !\"debug-info-assignment-tracking\", i1 true}",
    ]
    .iter()
    .map(|d| m.node(d, |_, _| d.to_string()))
    .collect();
    let flags: Vec<String> = flags.iter().map(|f| format!("!{f}")).collect();
    t.push_str(&format!(
        "!llvm.dbg.cu = !{{!{unit}}}\n!llvm.module.flags = !{{{}}}\n\n",
        flags.join(", ")
    ));
    for (id, def) in m.defs.iter().enumerate() {
        t.push_str(&format!("!{id} = {def}\n"));
    }
    t
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Edit {
    Constant,
    Insert,
    Delete,
    Unshare,
    Share,
    Attrs,
}

const EDITS: [Edit; 6] = [
    Edit::Constant,
    Edit::Insert,
    Edit::Delete,
    Edit::Unshare,
    Edit::Share,
    Edit::Attrs,
];

/// Applies `edit` to `target` as one side (`ours` picks the side's own
/// constant, so both sides changing one constant must conflict).
fn apply(p: &mut Params, target: &str, edit: Edit, ours: bool) {
    let mut set = |k: &str, v: &str| p.insert(k.to_string(), v.to_string());
    if target == "module" {
        match edit {
            Edit::Constant => set("module.counter", if ours { "7" } else { "9" }),
            Edit::Insert => set("module.added", "1"),
            Edit::Delete => set("module.spare", "0"),
            // loop_b leaves loop_a's comdat; scoped_a joins it.
            Edit::Unshare => set("loop_b.comdat", "loop_b"),
            Edit::Share => set("scoped_a.comdat", "loop_a"),
            Edit::Attrs => set("module.attrs1", "noinline nounwind willreturn"),
        };
        return;
    }
    let key = |field: &str| format!("{target}.{field}");
    let now = |field: &str| p[&key(field)].clone();
    let (field, value) = match edit {
        Edit::Constant => {
            let side = if ours { 1 } else { 2 };
            ("factor", format!("{side}{}", now("factor")))
        }
        Edit::Insert => ("extra", "1".into()),
        Edit::Delete => ("sink", "0".into()),
        Edit::Unshare => ("slot", "own".into()),
        Edit::Share => ("slot", if now("slot") == "P1" { "P0" } else { "P1" }.into()),
        Edit::Attrs => ("attrs", if now("attrs") == "1" { "0" } else { "1" }.into()),
    };
    p.insert(key(field), value);
}

/// The uses of one kind of shared node, in text order: which of them
/// share a node is what the merge must keep.
const SHARERS: [[&str; 3]; 3] = [
    ["loop_a.slot", "loop_b.slot", "loop_c.slot"],
    ["loop_c.slot2", "scoped_a.slot", "scoped_b.slot"],
    ["dbg_a.slot", "dbg_b.slot", "dbg_b.slot2"],
];

/// Which node each use of `users` has, named by the node's first user:
/// nodes alike are told apart by their first user in text order (the
/// identity `canon::metadata` defines), so a side that gives one of two
/// sharers a node alike the old one has given the later one a new node.
fn nodes_by_first_user(p: &Params, users: &[&str; 3]) -> Vec<String> {
    users
        .iter()
        .map(|u| {
            let first = users
                .iter()
                .find(|v| slot_key(p, v) == slot_key(p, u))
                .unwrap();
            format!("K-{first}")
        })
        .collect()
}

/// The parameters' three-way merge; `None` when both sides set one
/// parameter differently (the merge must conflict). Shared nodes are
/// merged as the node each use has, by identity.
fn merge_params(base: &Params, ours: &Params, theirs: &Params) -> Option<Params> {
    let changed = |p: &Params, k: &str| p[k] != base[k];
    let attrs_moved = |p: &Params| {
        TARGETS.iter().any(|f| {
            p.get(&format!("{f}.attrs"))
                .is_some_and(|v| *v != base[&format!("{f}.attrs")])
        })
    };
    // One side changes a shared group's content, the other moves a
    // function between groups: does the function get the new content?
    // Attribute groups are known by content, so nothing says.
    if (changed(ours, "module.attrs1") && attrs_moved(theirs))
        || (changed(theirs, "module.attrs1") && attrs_moved(ours))
    {
        return None;
    }
    let mut out = Params::new();
    let three_way = |b: &String, o: &String, t: &String| {
        if o == t || t == b {
            Some(o.clone())
        } else if o == b {
            Some(t.clone())
        } else {
            None
        }
    };
    for (k, b) in base {
        if SHARERS.iter().flatten().any(|u| u == k) {
            continue;
        }
        out.insert(k.clone(), three_way(b, &ours[k], &theirs[k])?);
    }
    for users in &SHARERS {
        let [b, o, t] = [base, ours, theirs].map(|p| nodes_by_first_user(p, users));
        for (i, user) in users.iter().enumerate() {
            out.insert(user.to_string(), three_way(&b[i], &o[i], &t[i])?);
        }
    }
    Some(out)
}

/// One generated triple and what a clean merge of it must be.
struct Triple {
    name: String,
    base: String,
    ours: String,
    theirs: String,
    /// Canonical form of the expected result; `None`: must conflict.
    expected: Option<String>,
    same_target: bool,
}

fn canonical(text: &str) -> String {
    common::canon(text, "m.ll").unwrap_or_else(|e| panic!("generated IR is invalid: {e}\n{text}"))
}

/// Every pair of targets with every pair of edits: 8 x 8 x 6 x 6 = 2304;
/// one in `stride` of them, spread over all pairs.
fn triples(stride: usize) -> Vec<Triple> {
    let base = base_params();
    let mut out = Vec::new();
    let mut n = 0;
    for ot in TARGETS {
        for tt in TARGETS {
            for oe in EDITS {
                for te in EDITS {
                    n += 1;
                    if n % stride != 0 {
                        continue;
                    }
                    let (mut ours, mut theirs) = (base.clone(), base.clone());
                    apply(&mut ours, ot, oe, true);
                    apply(&mut theirs, tt, te, false);
                    let expected = merge_params(&base, &ours, &theirs);
                    out.push(Triple {
                        name: format!("ours {oe:?} in {ot}, theirs {te:?} in {tt}"),
                        base: render(&base),
                        ours: render(&ours),
                        theirs: render(&theirs),
                        expected: expected.map(|p| canonical(&render(&p))),
                        same_target: ot == tt,
                    });
                }
            }
        }
    }
    out
}

#[derive(Debug, PartialEq)]
enum Verdict {
    Exact,
    Conflict,
    Wrong(String),
}

fn judge(t: &Triple) -> Verdict {
    let (r, text) = common::merge_in_process(&t.base, &t.ours, &t.theirs);
    if r.conflicts > 0 {
        return Verdict::Conflict;
    }
    let got = common::canon(&text, "m.ll");
    match (&t.expected, got) {
        (Some(e), Ok(g)) if *e == g => Verdict::Exact,
        (None, _) => Verdict::Wrong("clean, where both sides set one thing differently".into()),
        (Some(e), Ok(g)) => {
            Verdict::Wrong(common::first_diff_labeled(e, &g, 12, "expected", "got"))
        }
        (Some(_), Err(e)) => Verdict::Wrong(format!("the result is not valid IR: {e}")),
    }
}

#[test]
fn the_generated_modules_are_valid_and_every_edit_changes_them() {
    let base = base_params();
    let b = canonical(&render(&base));
    for target in TARGETS {
        for edit in EDITS {
            if (target, edit) == ("loop_c", Edit::Unshare) {
                continue; // its loop node has one user: a node alike is the same
            }
            let mut p = base.clone();
            apply(&mut p, target, edit, true);
            assert_ne!(
                canonical(&render(&p)),
                b,
                "{edit:?} in {target} changes nothing"
            );
        }
    }
}

#[test]
fn shared_identities_survive_edits_on_both_sides() {
    let all = triples(4);
    let mut counts: BTreeMap<(bool, bool), (usize, usize)> = BTreeMap::new();
    let mut wrong = Vec::new();
    for t in &all {
        let verdict = judge(t);
        let c = counts
            .entry((t.same_target, t.expected.is_some()))
            .or_default();
        c.0 += 1;
        match verdict {
            Verdict::Exact => c.1 += 1,
            Verdict::Conflict => {
                let files = [
                    ("base.ll", &*t.base),
                    ("ours.ll", &t.ours),
                    ("theirs.ll", &t.theirs),
                ];
                common::keep_files(
                    "IRGIT_IDENTITIES_KEEP_CONFLICTS",
                    &t.name.replace(' ', "_"),
                    &files,
                );
            }
            Verdict::Wrong(why) => {
                let files = [
                    ("base.ll", &*t.base),
                    ("ours.ll", &t.ours),
                    ("theirs.ll", &t.theirs),
                ];
                common::keep_files("IRGIT_IDENTITIES_KEEP", &t.name.replace(' ', "_"), &files);
                wrong.push(format!("{}: {why}", t.name))
            }
        }
    }
    let (different, clean) = counts[&(false, true)];
    for ((same, mergeable), (n, exact)) in &counts {
        eprintln!(
            "{} target, {}: {n} triples, {exact} clean and exact",
            if *same { "same" } else { "different" },
            if *mergeable {
                "mergeable"
            } else {
                "must conflict"
            },
        );
    }
    eprintln!("{} triples, {} wrong", all.len(), wrong.len());
    assert!(all.len() >= 300, "only {} triples", all.len());
    assert!(
        wrong.is_empty(),
        "{} wrong clean merge(s):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(
        clean * 100 >= different * 95,
        "edits on different targets: only {clean} of {different} clean"
    );
}
