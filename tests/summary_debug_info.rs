//! `irgit diff` on IR compiled with `-g`: debug locations, debug-info
//! metadata and metadata numbering are not changes. An edit of one C
//! function names that function only, and `-p` prints no identical `-`/`+`
//! pairs (such as `#dbg_declare` lines whose `!N` point to nodes that moved
//! or whose file checksum changed).
//!
//! ```text
//! edit `sum` (one statement inserted)        irgit diff
//! every !DILocation below it moves a line    functions: 1 changed, N unchanged
//! DIFile checksum differs                      changed   @sum  ...
//! ```

mod common;
mod summary_support;

use irgit::summary::render::{patch, summary, Paint};
use irgit::summary::{diff_bytes, Kind, Options, Status};
use summary_support::{compile, diff, identical_pairs};

const BEFORE: &str = r#"
struct item { int id; int qty; };
static int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
int sum(int *p, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    return s;
}
int scale(int x) {
    int y = x * 3;
    return y + 1;
}
int count_over(const struct item *items, int n, int limit) {
    int c = 0;
    if (!items) return -1;
    for (int i = 0; i < n; i++)
        if (items[i].qty > limit) c++;
    return c;
}
int total(void) {
    int t = 0;
    for (int k = 0; k < 8; k++) t += table[k] * scale(k);
    return t + sum(table, 8);
}
"#;

/// Each edit changes one function of [`BEFORE`] and lines of the source
/// below it (every later location moves).
fn edits() -> Vec<(&'static str, String)> {
    vec![
        (
            "@sum",
            BEFORE.replace("s += p[i];", "{ s += p[i];\n        if (s > 100) s = 0; }"),
        ),
        (
            "@sum",
            BEFORE.replace("int s = 0;", "int s = 0;\n    if (n < 0) return -1;"),
        ),
        ("@scale", BEFORE.replace("x * 3;", "x * 3;\n    y ^= 5;")),
        (
            "@count_over",
            BEFORE.replace("c++;", "{ c++;\n            if (c > 9) break; }"),
        ),
    ]
}

fn hunks_name(p: &str, name: &str) -> bool {
    p.lines()
        .filter(|l| l.starts_with("@@ "))
        .all(|l| l.contains(&format!("{name}(")))
}

fn changed_functions(r: &irgit::summary::Report) -> Vec<String> {
    r.functions
        .iter()
        .filter(|f| f.status != Status::Unchanged)
        .map(|f| f.name.clone())
        .collect()
}

/// At -O0 -g, exactly the edited function changed; at -O2 -g, exactly the
/// functions that changed without -g (inlining carries an edit into the
/// callers). No metadata change; at -O0, no `-p` hunk elsewhere and no
/// identical `-`/`+` pair of debug records.
#[test]
fn an_edit_of_one_function_at_o0_g_names_only_that_function() {
    for opt in ["-O0", "-O2"] {
        let old = compile(BEFORE, opt, &["-g"]);
        let old_plain = compile(BEFORE, opt, &[]);
        for (edited, source) in edits() {
            let new = compile(&source, opt, &["-g"]);
            let new_plain = compile(&source, opt, &[]);
            let plain = changed_functions(&diff(&old_plain, &new_plain));
            if opt == "-O0" {
                assert_eq!(plain, vec![edited.to_string()], "{opt} without -g");
            }
            for reduce in [true, false] {
                let opts = Options {
                    reduce,
                    ..Options::default()
                };
                let (r, a, b) =
                    diff_bytes(Some(old.as_bytes()), Some(new.as_bytes()), "a", "b", &opts)
                        .unwrap();
                let what = format!("{opt} -g, {edited} edited, reduce={reduce}");
                let text = summary(&r, Paint { on: false });
                assert_eq!(changed_functions(&r), plain, "{what}:\n{text}");
                // (-O2 may declare an intrinsic more: that is code.)
                assert!(
                    r.globals.iter().all(|g| g.kind != Kind::Metadata),
                    "{what}: metadata changes:\n{text}"
                );
                let p = patch(&r, &a, &b, Paint { on: false });
                if opt == "-O0" {
                    assert!(hunks_name(&p, edited), "{what}:\n{p}");
                }
                // (At -O2 an edit reorders what it did not change: a record
                // that moved is a `-` and a `+`.)
                let same = identical_pairs(&p, |l| l.contains("#dbg_"));
                assert!(
                    opt != "-O0" || same.is_empty(),
                    "{what}: identical -/+ lines {same:#?}\n{p}"
                );
            }
        }
    }
}

/// The same module compiled with and without `-g`: no function changed.
#[test]
fn debug_info_alone_is_no_change() {
    for opt in ["-O0", "-O2"] {
        let plain = compile(BEFORE, opt, &[]);
        let debug = compile(BEFORE, opt, &["-g"]);
        let (r, a, b) = diff_bytes(
            Some(plain.as_bytes()),
            Some(debug.as_bytes()),
            "a",
            "b",
            &Options::default(),
        )
        .unwrap();
        assert!(
            r.functions.iter().all(|f| f.status == Status::Unchanged),
            "{opt}: {}",
            summary(&r, Paint { on: false })
        );
        let p = patch(&r, &a, &b, Paint { on: false });
        assert!(!p.contains("\n@@ "), "{opt}:\n{p}");
    }
}
