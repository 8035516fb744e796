//! `irgit diff` on real pairs of modules, each compiled from C by clang-22:
//! two optimization levels of the corpus, source edits that add, remove,
//! rename and edit functions, a helper inlined by -O2, and modules perturbed
//! without changing their meaning.
//!
//! ```text
//! loops.c -O1  vs  loops.c -O2      changed functions == functions whose canonical forms differ
//! f renamed to g in the source      "renamed @f -> @g", not "removed @f, added @g"
//! mix() noinline  vs  inlined       "N instructions moved from @mix to @main"
//! π(m)  vs  m                       nothing changed at all
//! ```

mod common;
mod summary_support;

use std::collections::BTreeMap;

use irgit::summary::{MoveKind, Options, Report, Status};
use summary_support::*;

/// Replaces whole global names (`@name` not followed by a name character).
fn rename_globals(text: &str, map: &BTreeMap<String, String>) -> String {
    let mut out = text.to_string();
    for (from, to) in map {
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(p) = rest.find(from.as_str()) {
            let after = rest[p + from.len()..].chars().next();
            let whole = !after.is_some_and(|c| c.is_ascii_alphanumeric() || "$._-".contains(c));
            result.push_str(&rest[..p]);
            result.push_str(if whole { to } else { from });
            rest = &rest[p + from.len()..];
        }
        result.push_str(rest);
        out = result;
    }
    out
}

/// Checks a report against the canonical forms of both modules: a function
/// present in both is reported changed exactly when its canonical form
/// differs (references to renamed functions read in old names), and a
/// function present in one only is added, removed or renamed. Returns
/// (changed, unchanged) counts.
fn check_against_canonical_forms(old: &str, new: &str, r: &Report, what: &str) -> (usize, usize) {
    let co = canonical_functions(&canon(old));
    let cn = canonical_functions(&canon(new));
    let renamed: BTreeMap<String, String> = r
        .functions
        .iter()
        .filter_map(|f| f.old_name.clone().map(|o| (f.name.clone(), o)))
        .collect();
    let (mut changed, mut unchanged) = (0, 0);
    for (name, body) in &cn {
        let status = function(r, name).status;
        match co.get(name) {
            Some(old_body) => {
                let differ = *old_body != rename_globals(body, &renamed);
                let want = if differ {
                    Status::Changed
                } else {
                    Status::Unchanged
                };
                assert_eq!(
                    status,
                    want,
                    "{what}: {name}: reported {status:?}, canonical forms {}:\n--- old\n{old_body}\n--- new\n{body}",
                    if differ { "differ" } else { "are equal" }
                );
                if differ {
                    changed += 1;
                } else {
                    unchanged += 1;
                }
            }
            None => assert!(
                matches!(status, Status::Added | Status::Renamed),
                "{what}: {name} is new, reported {status:?}"
            ),
        }
    }
    for name in co.keys().filter(|n| !cn.contains_key(*n)) {
        let gone = r.functions.iter().any(|f| {
            (f.name == *name && f.status == Status::Removed) || f.old_name.as_deref() == Some(name)
        });
        assert!(
            gone,
            "{what}: {name} is gone but reported neither removed nor renamed"
        );
    }
    (changed, unchanged)
}

#[test]
fn o1_against_o2_changes_exactly_the_functions_whose_canonical_forms_differ() {
    let (mut changed, mut unchanged) = (0, 0);
    let mut pairs: Vec<(String, String, String)> = corpus_files()
        .into_iter()
        .map(|f| {
            (
                f.clone(),
                compile_corpus(&f, "-O1"),
                compile_corpus(&f, "-O2"),
            )
        })
        .collect();
    // Csmith programs (the corpus leaves their sources in its cache).
    common::corpus();
    for seed in common::CSMITH_SEEDS.iter().take(3) {
        let c = common::cache_dir().join(format!("csmith-{seed}.c"));
        let src = std::fs::read_to_string(&c).unwrap();
        let inc = ["-I", common::CSMITH_INCLUDE];
        pairs.push((
            format!("csmith {seed}"),
            compile(&src, "-O1", &inc),
            compile(&src, "-O2", &inc),
        ));
    }
    for (file, old, new) in pairs {
        let r = diff(&old, &new);
        let (c, u) = check_against_canonical_forms(&old, &new, &r, &format!("{file} -O1/-O2"));
        changed += c;
        unchanged += u;
        // Counted in the totals as listed.
        let t = &r.summary;
        assert_eq!(
            t.added + t.removed + t.renamed + t.changed + t.unchanged,
            r.functions.len(),
            "{file}"
        );
    }
    // Both outcomes occur, so the check above is not vacuous.
    eprintln!("-O1/-O2: {changed} functions changed, {unchanged} unchanged");
    assert!(
        changed >= 3,
        "only {changed} changed functions in the corpus"
    );
    assert!(unchanged >= 1, "no unchanged function in the corpus");
}

/// A report as its JSON (what a user sees; internal indices left out).
fn comparable(r: &Report) -> serde_json::Value {
    serde_json::to_value(r).unwrap()
}

#[test]
fn leaving_equal_functions_out_of_the_canonicalization_changes_no_report() {
    let full = Options {
        reduce: false,
        ..Options::default()
    };
    let mut pairs: Vec<(String, String, String)> = Vec::new();
    for file in corpus_files() {
        for (a, b) in [("-O1", "-O2"), ("-O0", "-O1")] {
            pairs.push((
                format!("{file} {a}/{b}"),
                compile_corpus(&file, a),
                compile_corpus(&file, b),
            ));
        }
    }
    // Csmith programs: larger modules with many functions.
    let corpus = common::corpus();
    for m in corpus
        .iter()
        .filter(|m| m.origin == common::Origin::Csmith && m.name.ends_with(".O2"))
    {
        let o0 = corpus
            .iter()
            .find(|x| x.name == m.name.replace(".O2", ".O0"))
            .unwrap();
        pairs.push((m.name.clone(), o0.text.clone(), m.text.clone()));
    }
    let mut left_out = 0;
    for (what, old, new) in &pairs {
        let fast = diff(old, new);
        let slow = diff_with(old, new, &full);
        assert_eq!(comparable(&fast), comparable(&slow), "{what}");
        left_out += fast.summary.unchanged;
    }
    assert!(left_out > 0, "no function was ever left out");
}

const BEFORE: &str = r#"
int keep(int x) { return x * 7 + 3; }
int edit_me(int a, int b) { int s = 0; for (int i = 0; i < a; i++) s += i * b; return s; }
int gone(int a) { return a / 3 - 1; }
int old_name(int *p, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) { s += p[i] * 3; s ^= s >> 2; }
    return s;
}
int edited_name(int *p, int n, int k) {
    int s = 1;
    for (int i = 0; i < n; i++) {
        s = s * 31 + p[i];
        if (p[i] > k) s -= k;
        s ^= (s << 5) | (s >> 3);
    }
    return s + n * k;
}
"#;

/// `edit_me` edited, `gone` removed, `fresh` added, `old_name` renamed,
/// `edited_name` renamed and one of its constants changed (31 -> 37).
fn after() -> String {
    BEFORE
        .replace("s += i * b;", "s += i * b + 1;")
        .replace(
            "int gone(int a) { return a / 3 - 1; }",
            "int fresh(int a, int b) { return a * b - (a >> 2); }",
        )
        .replace("int old_name(", "int new_name(")
        .replace("int edited_name(", "int renamed_and_edited(")
        .replace("s * 31 + p[i]", "s * 37 + p[i]")
}

#[test]
fn added_removed_renamed_and_edited_functions_from_a_c_edit() {
    for opt in ["-O0", "-O2"] {
        let old = compile(BEFORE, opt, &[]);
        let new = compile(&after(), opt, &[]);
        let r = diff(&old, &new);
        let what = format!("C edit at {opt}");
        assert_eq!(function(&r, "@keep").status, Status::Unchanged, "{what}");
        let e = function(&r, "@edit_me");
        assert_eq!(e.status, Status::Changed, "{what}");
        assert!(
            e.instructions.added + e.instructions.changed >= 1,
            "{what}: {e:?}"
        );
        assert_eq!(function(&r, "@fresh").status, Status::Added, "{what}");
        let g = function(&r, "@gone");
        assert_eq!(g.status, Status::Removed, "{what}");
        assert_eq!(g.instructions.removed, g.instructions.old, "{what}");
        // Renamed, not removed + added.
        let n = function(&r, "@new_name");
        assert_eq!(n.status, Status::Renamed, "{what}");
        assert_eq!(n.old_name.as_deref(), Some("@old_name"), "{what}");
        assert!(!n.changed, "{what}: {n:?}");
        assert!(!r.functions.iter().any(|f| f.name == "@old_name"), "{what}");
        // Renamed and edited: one constant, 31 -> 37.
        let m = function(&r, "@renamed_and_edited");
        assert_eq!(m.status, Status::Renamed, "{what}: {m:?}");
        assert_eq!(m.old_name.as_deref(), Some("@edited_name"), "{what}");
        assert!(m.changed, "{what}: {m:?}");
        assert!(m.instructions.changed >= 1, "{what}: {m:?}");
        let s = m.similarity.unwrap();
        assert!(
            s >= Options::default().rename_threshold && s < 1.0,
            "{what}: {s}"
        );
        // With the threshold above that similarity, the edited one is a
        // removal plus an addition; the unchanged rename stays.
        let strict = diff_with(
            &old,
            &new,
            &Options {
                rename_threshold: f64::INFINITY,
                ..Options::default()
            },
        );
        assert_eq!(
            function(&strict, "@renamed_and_edited").status,
            Status::Added
        );
        assert_eq!(function(&strict, "@edited_name").status, Status::Removed);
        assert_eq!(function(&strict, "@new_name").status, Status::Renamed);
        assert_eq!(
            (
                r.summary.added,
                r.summary.removed,
                r.summary.renamed,
                r.summary.changed
            ),
            (1, 1, 2, 1),
            "{what}: {:#?}",
            r.summary
        );
    }
}

const INLINE_OLD: &str = r#"
#include <stdio.h>
__attribute__((noinline)) static unsigned mix(unsigned x) {
    unsigned y = x * 2654435761u;
    y ^= y >> 13;
    y = y * 0x5bd1e995u + (x & 0xff);
    y ^= y >> 15;
    y += x << 3;
    return y ^ (y >> 7);
}
int main(int argc, char **argv) {
    unsigned v = mix((unsigned)argc);
    printf("%u\n", v);
    return (int)(v & 1);
}
"#;

#[test]
fn a_helper_inlined_at_o2_is_reported_as_moved_code() {
    let new_src = INLINE_OLD.replace("__attribute__((noinline)) ", "");
    for (opt, helper_static) in [("-O2", true), ("-O1", true), ("-O2", false)] {
        let (old_src, new_src) = if helper_static {
            (INLINE_OLD.to_string(), new_src.clone())
        } else {
            // An external helper stays in the module after inlining.
            (
                INLINE_OLD.replace("static unsigned mix", "unsigned mix"),
                new_src.replace("static unsigned mix", "unsigned mix"),
            )
        };
        let old = compile(&old_src, opt, &[]);
        let new = compile(&new_src, opt, &[]);
        let r = diff(&old, &new);
        let what = format!("{opt} static={helper_static}");
        let m = r
            .moved
            .iter()
            .find(|m| m.from == "@mix" && m.to == "@main")
            .unwrap_or_else(|| panic!("{what}: no code moved from @mix to @main: {:#?}", r));
        let want = if helper_static {
            MoveKind::Moved
        } else {
            MoveKind::Copied
        };
        assert_eq!(m.kind, want, "{what}");
        assert!(
            m.instructions >= Options::default().min_moved,
            "{what}: {m:?}"
        );
        assert_eq!(
            m.instructions,
            m.ranges.iter().map(|x| x.instructions).sum::<usize>(),
            "{what}"
        );
        for x in &m.ranges {
            assert_eq!(x.from.function, "@mix");
            assert_eq!(x.to.function, "@main");
            assert_eq!(
                x.from.last + 1 - x.from.first,
                x.instructions,
                "{what}: {x:?}"
            );
            assert_eq!(x.to.last + 1 - x.to.first, x.instructions, "{what}: {x:?}");
            assert!(x.from.line > 1 && x.to.line > 1, "{what}: {x:?}");
        }
        let main = function(&r, "@main");
        assert_eq!(main.status, Status::Changed, "{what}");
        assert!(
            main.instructions.added >= m.instructions,
            "{what}: {main:?}"
        );
        let mix = r.functions.iter().find(|f| f.name == "@mix").unwrap();
        if helper_static {
            assert_eq!(mix.status, Status::Removed, "{what}");
        }
        // Moved-code search off: nothing reported.
        let off = diff_with(
            &old,
            &new,
            &Options {
                min_moved: 0,
                ..Options::default()
            },
        );
        assert!(off.moved.is_empty(), "{what}");
    }
}

/// `helper` is the same in both modules; `user` starts calling it and -O2
/// inlines it: its code is copied from a function that did not change
/// (which the comparison keys from the input text, not canonically).
#[test]
fn code_copied_from_an_unchanged_function_is_found() {
    let helper = r#"
unsigned helper(unsigned x) {
    unsigned y = x * 2654435761u;
    y ^= y >> 13;
    y = y * 0x5bd1e995u + (x & 0xff);
    y ^= y >> 15;
    y += x << 3;
    return y ^ (y >> 7);
}
"#;
    let old = compile(
        &format!("{helper}unsigned user(unsigned a) {{ return a + 1; }}\n"),
        "-O2",
        &[],
    );
    let new = compile(
        &format!("{helper}unsigned user(unsigned a) {{ return helper(a) + 1; }}\n"),
        "-O2",
        &[],
    );
    for opts in [
        Options::default(),
        Options {
            reduce: false,
            ..Options::default()
        },
    ] {
        let r = diff_with(&old, &new, &opts);
        assert_eq!(function(&r, "@helper").status, Status::Unchanged);
        assert_eq!(function(&r, "@user").status, Status::Changed);
        let m = r
            .moved
            .iter()
            .find(|m| m.from == "@helper" && m.to == "@user")
            .unwrap_or_else(|| panic!("reduce={}: nothing copied: {r:#?}", opts.reduce));
        assert_eq!(m.kind, MoveKind::Copied);
        assert!(m.instructions >= 10, "{m:?}");
        for x in &m.ranges {
            // clang leaves the entry block unlabelled; it reads `entry`.
            assert_eq!(x.from.block, "entry", "{x:?}");
            assert!(x.from.line >= 2, "{x:?}");
        }
    }
}

#[test]
fn a_module_perturbed_without_changing_its_meaning_shows_no_change() {
    use irgit_testkit::perturb::Kind;
    let corpus = common::corpus();
    let mut checked = 0;
    for m in corpus {
        for (k, kind) in Kind::ALL.iter().enumerate() {
            let seed = 1 + k as u64;
            let Ok(p) = common::perturbed(&m.text, &m.name, *kind, seed) else {
                continue;
            };
            let r = diff(&m.text, &p);
            assert!(
                !r.has_changes() && r.moved.is_empty(),
                "{} perturbed by {}: {}",
                m.name,
                kind.name(),
                irgit::summary::render::summary(&r, irgit::summary::render::Paint { on: false })
            );
            assert_eq!(r.summary.unchanged, r.functions.len(), "{}", m.name);
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} perturbed modules");
}

#[test]
fn counts_of_a_small_edit() {
    let old = r#"
define i32 @f(i32 %x, ptr %p) {
entry:
  %a = add i32 %x, 1
  %m = mul i32 %a, 3
  %c = icmp sgt i32 %m, 10
  br i1 %c, label %big, label %small
big:
  ret i32 %m
small:
  ret i32 0
}
"#;
    // The constant of the add and the small block's result changed; a store
    // and a sub added; a new block split off.
    let new = r#"
define i32 @f(i32 %x, ptr %p) {
entry:
  %a = add i32 %x, 2
  %m = mul i32 %a, 3
  store i32 %m, ptr %p
  %c = icmp sgt i32 %m, 10
  br i1 %c, label %big, label %small
big:
  ret i32 %m
small:
  %z = sub i32 0, %x
  %y = icmp eq i32 %z, 7
  br i1 %y, label %seven, label %other
seven:
  ret i32 7
other:
  ret i32 %z
}
"#;
    let r = diff(old, new);
    let f = function(&r, "@f");
    assert_eq!(f.status, Status::Changed);
    let i = f.instructions;
    assert_eq!((i.old, i.new), (6, 11));
    assert_eq!(i.old - i.removed - i.changed, i.new - i.added - i.changed);
    // The mul, the compare, the branch and `ret %m` are untouched.
    assert_eq!(i.old - i.removed - i.changed, 4, "{i:?}");
    assert_eq!((f.blocks.old, f.blocks.new), (3, 5));
    assert!(f.blocks.added >= 2, "{:?}", f.blocks);
    assert!(!f.signature_changed);
    assert_eq!(f.similarity, None);
}

/// The same text, another meaning: `#0` names other attributes. The
/// function's signature changed, and `-p` says what `#0` is on each side.
#[test]
fn attribute_groups_are_compared_by_content() {
    let module = |attrs: &str| {
        format!(
            "define void @f(ptr %p) #0 {{\nentry:\n  store i32 1, ptr %p, align 4\n  call void @g() #1\n  ret void\n}}\n\ndeclare void @g()\n\nattributes #0 = {{ {attrs} }}\nattributes #1 = {{ nounwind }}\n"
        )
    };
    let old = module("nounwind");
    let new = module("nounwind cold");
    let (r, a, b) = irgit::summary::diff_bytes(
        Some(old.as_bytes()),
        Some(new.as_bytes()),
        "old.ll",
        "new.ll",
        &Options::default(),
    )
    .unwrap();
    let f = function(&r, "@f");
    assert_eq!(f.status, Status::Changed);
    assert!(f.signature_changed);
    assert_eq!(
        (
            f.instructions.added,
            f.instructions.removed,
            f.instructions.changed
        ),
        (0, 0, 0)
    );
    let p = irgit::summary::render::patch(&r, &a, &b, irgit::summary::render::Paint { on: false });
    // Groups are numbered by content: the numbers differ, and the line says
    // what each group is.
    let annotated = |sign: char, group: &str| {
        p.lines().any(|l| {
            l.strip_prefix(sign)
                .and_then(|l| l.strip_prefix("define void @f(ptr %arg0) #"))
                .and_then(|l| l.split_once(" {  ; #"))
                .is_some_and(|(n, rest)| rest == format!("{n} = {group}"))
        })
    };
    assert!(annotated('-', "{ nounwind }"), "{p}");
    assert!(annotated('+', "{ cold nounwind }"), "{p}");
    // Renumbering alone is no change: swap the groups' numbers.
    let swapped = old
        .replace("#0", "#9")
        .replace("#1", "#0")
        .replace("#9", "#1");
    let r = diff(&old, &swapped);
    assert!(!r.has_changes(), "{r:#?}");
}
