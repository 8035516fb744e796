//! The text-safe merge (`src/merge/text_safe/`): where every hunk of both
//! sides is text-safe, git's clean result is written after one LLVM load;
//! everywhere else the structured merge decides, exactly as before.
//!
//! Each unsafe shape is a real triple (clang-22 output, or lit-style IR
//! LLVM parses) on which git's line merge is clean and valid but wrong or
//! not what the structured merge writes: the criterion must decline it,
//! and the merge must write what the structured merge alone writes
//! (`Route::StructuredOnly`). A criterion too loose fails these tests:
//! git's bytes would be written instead.
//!
//! ```text
//! ours renumbers %2 -> %3 (a new %2 before it); theirs' new `call @use(i32 %2)`
//! git merge-file: clean, valid, and its %2 is ours' new value: wrong
//! text-safe? no (ours adds %3)  ->  structured merge: `call @use(i32 %3)` in ours' text
//! ```

mod merge_support;

use std::path::Path;
use std::process::Command;

use irgit::merge::text_safe::text_safe_merge;
use irgit::merge::{MadeBy, Outcome, Route, Writer};
use irgit::three::Three;
use merge_support::{clang, git_merge_file, irgit_bin, llvm_stress, merge_by, written};

/// The lap `IRGIT_TIMINGS=1` prints when the text-safe merge wrote the result.
const TAKEN: &str = "merge: text-safe: git's result checked and taken";

/// Both routes give the same result (bytes, conflicts, notes); returns it.
fn same_by_both_routes(triple: [&str; 3]) -> Outcome {
    let fast = merge_by(Route::TextSafeFirst, triple);
    let structured = merge_by(Route::StructuredOnly, triple);
    assert_eq!(
        written(&fast),
        written(&structured),
        "the two routes write different results"
    );
    assert_eq!(fast.conflicts, structured.conflicts);
    assert_eq!(fast.notes, structured.notes);
    fast
}

/// An unsafe shape: git is clean and its result parses and verifies, yet
/// the criterion declines, and the merge is the structured merge's, which
/// is not git's bytes. Returns the merge.
fn declined_and_structured(triple: [&str; 3]) -> Outcome {
    let [base, ours, theirs] = triple;
    let (git_clean, git_text, _) = git_merge_file(base, ours, theirs);
    assert!(git_clean, "the shape needs a clean git merge");
    assert!(
        irgit::ir::text_parses_and_verifies(&git_text),
        "the shape needs git's result to be valid IR:\n{git_text}"
    );
    assert_eq!(
        text_safe_merge(triple.into()),
        None,
        "the criterion must decline"
    );
    let merged = same_by_both_routes(triple);
    assert!(
        merged.conflicts > 0 || written(&merged) != git_text,
        "git's result is wrong here, the merge must not write it:\n{}",
        written(&merged)
    );
    merged
}

/// C source compiled by clang-22 at `opt` with `-D<define>` (value names
/// kept when `names`).
fn clang_ir(source: &str, opt: &str, define: Option<&str>, names: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("m.c");
    std::fs::write(&c, source).unwrap();
    let out = dir.path().join("m.ll");
    let mut cmd = Command::new(clang());
    cmd.current_dir(dir.path())
        .args(["-S", "-emit-llvm", "-w", &format!("-O{opt}"), "-o"])
        .arg(&out)
        .arg("m.c");
    cmd.arg(if names {
        "-fno-discard-value-names"
    } else {
        "-fdiscard-value-names"
    });
    cmd.args(define.map(|d| format!("-D{d}")));
    let run = cmd.output().expect("run clang-22");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

/// `text` with the local names `%a` and `%b` swapped everywhere.
fn names_swapped(text: &str, a: &str, b: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let name_len = rest[at + 1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || "$._-".contains(c)))
            .unwrap_or(rest.len() - at - 1);
        let name = &rest[at + 1..at + 1 + name_len];
        out.push('%');
        out.push_str(if name == a {
            b
        } else if name == b {
            a
        } else {
            name
        });
        rest = &rest[at + 1 + name_len..];
    }
    out + rest
}

/// `text` with its first line that contains `part` replaced by `line`.
fn line_replaced(text: &str, part: &str, line: &str) -> String {
    let old = text
        .lines()
        .find(|l| l.contains(part))
        .unwrap_or_else(|| panic!("`{part}` not in:\n{text}"));
    edited(text, old, line)
}

/// `text` with `from` replaced by `to`, which must occur.
fn edited(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "`{from}` not in:\n{text}");
    text.replacen(from, to, 1)
}

/// Ours inserts a value before `%2`, so clang renumbers it `%3`; theirs'
/// new call uses the base's `%2`. git's result calls `@use` with ours'
/// new value.
#[test]
fn a_value_one_side_renumbered_used_by_the_others_hunk() {
    let source = "void use(int); int g;\n\
        void f(int a) {\n\
        #ifdef OURS\n  use(a * 3);\n#endif\n\
          int x = a + 1;\n  g = x;\n  use(0);\n\
        #ifdef THEIRS\n  use(x);\n#else\n  use(0);\n#endif\n\
          use(0);\n}\n";
    let base = clang_ir(source, "2", None, false);
    let ours = clang_ir(source, "2", Some("OURS"), false);
    let theirs = clang_ir(source, "2", Some("THEIRS"), false);
    assert!(ours.contains("%3 = add"), "ours renumbers:\n{ours}");
    let merged = declined_and_structured([&base, &ours, &theirs]);
    assert!(
        merged.conflicts > 0 || written(&merged).contains("@use(i32 noundef %3)"),
        "{}",
        written(&merged)
    );
}

/// A function of three values, `x`, `y` and `z` (clang's `%add`, `%mul`,
/// `%add1`), with room between their lines.
const THREE_VALUES: &str = "void use(int);\n\
    int f(int a) {\n  int x = a + 1;\n  int y = x * 3;\n  use(y - 3);\n\
      use(0);\n  use(0);\n  use(0);\n  int z = a + 9;\n  use(z);\n  return z;\n}\n";

/// Ours swaps the names of two values; theirs' new use of `%mul` means
/// the base's `%mul`, which ours calls `%add`.
#[test]
fn names_one_side_swapped() {
    let base = clang_ir(THREE_VALUES, "0", None, true);
    let ours = names_swapped(&base, "add", "mul");
    assert!(ours.contains("%mul = add nsw i32"), "{ours}");
    let theirs = line_replaced(
        &base,
        "%add1 = add nsw i32",
        "  %add1 = add nsw i32 %mul, 9",
    );
    let merged = declined_and_structured([&base, &ours, &theirs]);
    assert!(merged.conflicts > 0, "{}", written(&merged));
}

/// Theirs adds a parameter to `@g` (and passes it at its call); ours adds
/// a call with the old signature elsewhere. LLVM accepts git's result (a
/// call through another function type); the merge names the clash.
#[test]
fn a_call_to_a_signature_the_other_side_changed() {
    let source = "#ifdef THEIRS\nint g(int a, int b) { return a + b; }\n\
        int f(int a) { return g(a, 1); }\n\
        #else\nint g(int a) { return a + 1; }\nint f(int a) { return g(a); }\n#endif\n\
        int use(int);\n\
        int h(int a) {\n  use(0);\n  use(0);\n\
        #ifdef OURS\n  use(1);\n#else\n  use(0);\n#endif\n  return a;\n}\n";
    let base = clang_ir(source, "0", None, false);
    let mut ours = clang_ir(source, "0", Some("OURS"), false);
    ours = edited(
        &ours,
        "call i32 @use(i32 noundef 1)",
        "call i32 @g(i32 noundef 1)",
    );
    let theirs = clang_ir(source, "0", Some("THEIRS"), false);
    let merged = declined_and_structured([&base, &ours, &theirs]);
    assert!(merged.conflicts > 0, "{}", written(&merged));
    assert!(merged.notes.join("\n").contains("@g"), "{:?}", merged.notes);
}

/// Lit-style IR with unnamed values: ours deletes one, so LLVM numbers
/// the next ones one lower; theirs' new use of `%3` means the base's
/// third product, which is ours' `%2`.
#[test]
fn an_unnamed_value_one_side_deleted() {
    let base = "declare void @use(i32)\n\ndefine i32 @f(i32 %a) {\n  %1 = add i32 %a, 1\n  \
                mul i32 %1, 2\n  mul i32 %1, 3\n  mul i32 %1, 4\n  call void @use(i32 %2)\n  \
                call void @use(i32 0)\n  call void @use(i32 0)\n  call void @use(i32 0)\n  \
                ret i32 %4\n}\n";
    let ours = edited(base, "  mul i32 %1, 2\n", "");
    let ours = edited(&ours, "ret i32 %4", "ret i32 %3");
    let theirs = edited(
        base,
        "call void @use(i32 0)\n  call void @use(i32 0)\n  ret",
        "call void @use(i32 %3)\n  call void @use(i32 0)\n  ret",
    );
    assert!(irgit::ir::text_parses_and_verifies(&ours), "{ours}");
    let merged = declined_and_structured([base, &ours, &theirs]);
    assert!(merged.conflicts > 0, "{}", written(&merged));
}

/// A hunk outside function bodies (a metadata node, a declaration) is
/// never text-safe, whatever it changes.
#[test]
fn hunks_outside_bodies_decline() {
    let source = "int use(int);\nint f(int a) {\n  use(1);\n  use(2);\n  use(3);\n  \
                  use(4);\n  return a;\n}\n";
    let base = clang_ir(source, "0", None, false);
    let ours = edited(
        &base,
        "declare i32 @use(i32 noundef)",
        "declare i32 @use(i32)",
    );
    let theirs = edited(
        &base,
        "call i32 @use(i32 noundef 4)",
        "call i32 @use(i32 noundef 5)",
    );
    assert_eq!(text_safe_merge(Three::new(&base, &ours, &theirs)), None);
    same_by_both_routes([&base, &ours, &theirs]);
    let ours = edited(
        &base,
        "!{i32 1, !\"wchar_size\", i32 4}",
        "!{i32 1, !\"wchar_size\", i32 2}",
    );
    assert_eq!(text_safe_merge(Three::new(&base, &ours, &theirs)), None);
    same_by_both_routes([&base, &ours, &theirs]);
    // A type written over several lines: its field lines read like lines
    // that continue an instruction, but they are outside every body.
    let base = "%t = type {\n  i32,\n  i32\n}\n\ndeclare void @use(i32)\n\n\
                define i32 @f(ptr %p) {\n  %a = getelementptr %t, ptr %p, i32 0, i32 1\n  \
                %v = load i32, ptr %a\n  call void @use(i32 %v)\n  call void @use(i32 0)\n  \
                ret i32 %v\n}\n";
    let ours = edited(base, "  i32\n}", "  i64\n}");
    let theirs = edited(base, "@use(i32 0)", "@use(i32 1)");
    assert_eq!(text_safe_merge([base, &ours, &theirs].into()), None);
    same_by_both_routes([base, &ours, &theirs]);
}

/// The shared merge cases (`tests/merge/**`): both routes write the same
/// result, whether the criterion takes the case or not.
#[test]
fn merge_cases_merge_the_same_by_both_routes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge");
    let mut cases = Vec::new();
    for kind in ["working", "failing", "real_history"] {
        cases.extend(merge_support::case_dirs(&root.join(kind)));
    }
    let mut taken = 0;
    for dir in &cases {
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
        let (Some(base), Some(ours), Some(theirs)) =
            (read("Base.ll"), read("Left.ll"), read("Right.ll"))
        else {
            continue;
        };
        let triple = [base.as_str(), ours.as_str(), theirs.as_str()];
        let fast = merge_by(Route::TextSafeFirst, triple);
        let structured = merge_by(Route::StructuredOnly, triple);
        assert_eq!(written(&fast), written(&structured), "{}", dir.display());
        assert_eq!(
            (fast.conflicts, &fast.notes),
            (structured.conflicts, &structured.notes),
            "{}",
            dir.display()
        );
        let safe = text_safe_merge(triple.into()).is_some();
        if safe && fast.conflicts == 0 {
            // The fast route says it made the result; the structured route,
            // by itself, finds git's result means the same (or the two
            // agreed earlier: a side that changed nothing).
            assert_eq!(
                fast.made_by,
                MadeBy::Written(Writer::TextSafe),
                "{}",
                dir.display()
            );
            assert!(
                matches!(
                    structured.made_by,
                    MadeBy::Written(Writer::GitResult) | MadeBy::Written(Writer::UnchangedSide)
                ),
                "{}: {:?}",
                dir.display(),
                structured.made_by
            );
        }
        if !safe {
            assert_ne!(
                fast.made_by,
                MadeBy::Written(Writer::TextSafe),
                "{}",
                dir.display()
            );
        }
        taken += usize::from(safe);
    }
    assert!(cases.len() > 30, "{} cases", cases.len());
    assert!(taken > 0, "no case is text-safe");
}

/// `base` with the integer constant ending the `nth` line that ends in
/// one, after a binary operator, raised by 17 (as `benches/merge.rs` edits).
fn constant_raised(base: &str, nth: impl Fn(usize) -> usize) -> String {
    let lines: Vec<&str> = base.lines().collect();
    let sites: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            [" = add ", " = sub ", " = mul ", " = xor "]
                .iter()
                .any(|op| lines[i].contains(op))
                && lines[i]
                    .rsplit(", ")
                    .next()
                    .is_some_and(|c| c.parse::<i64>().is_ok())
        })
        .collect();
    let at = sites[nth(sites.len())];
    let (head, constant) = lines[at].rsplit_once(", ").unwrap();
    let raised = format!(
        "{head}, {}",
        constant.parse::<i64>().unwrap().wrapping_add(17)
    );
    let mut edited = lines.clone();
    edited[at] = &raised;
    edited.join("\n") + "\n"
}

/// Constants changed in one large llvm-stress function, a third and two
/// thirds through: the text-safe merge writes git's bytes after one load
/// (the lap says so), which is what the structured merge writes too.
#[test]
fn constant_edits_take_gits_result_after_one_load() {
    let base = llvm_stress(7, 3000);
    let ours = constant_raised(&base, |n| n / 3);
    let theirs = constant_raised(&base, |n| 2 * n / 3);
    let (git_clean, git_text, _) = git_merge_file(&base, &ours, &theirs);
    assert!(git_clean);
    assert_eq!(
        text_safe_merge(Three::new(&base, &ours, &theirs)).as_deref(),
        Some(git_text.as_str())
    );
    let merged = same_by_both_routes([&base, &ours, &theirs]);
    assert_eq!(written(&merged), git_text);
    assert_eq!(merged.made_by, MadeBy::Written(Writer::TextSafe));

    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("base.ll", &base),
        ("ours.ll", &ours),
        ("theirs.ll", &theirs),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let run = Command::new(irgit_bin())
        .current_dir(dir.path())
        .args(["merge", "base.ll", "ours.ll", "theirs.ll", "-o", "out.ll"])
        .env("IRGIT_TIMINGS", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains(TAKEN), "{stderr}");
    assert!(
        !stderr.contains("parsed and verified"),
        "one load only:\n{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.ll")).unwrap(),
        git_text
    );
}

/// A triple the text-safe merge takes: git's result, the structured
/// merge's too, written after one load.
fn taken(triple: [&str; 3]) -> Outcome {
    let [base, ours, theirs] = triple;
    let (git_clean, git_text, _) = git_merge_file(base, ours, theirs);
    assert!(git_clean, "the shape needs a clean git merge");
    assert_eq!(
        text_safe_merge(triple.into()).as_deref(),
        Some(git_text.as_str()),
        "the criterion must take it"
    );
    let merged = same_by_both_routes(triple);
    assert_eq!(merged.made_by, MadeBy::Written(Writer::TextSafe));
    assert_eq!(written(&merged), git_text);
    merged
}

/// `text` with the local name `%from` written `%to` (which it must not have).
fn renamed(text: &str, from: &str, to: &str) -> String {
    let written = text.match_indices(&format!("%{to}")).any(|(at, _)| {
        let after = text[at + to.len() + 1..].chars().next();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || "$._-".contains(c))
    });
    assert!(!written, "%{to} is in:\n{text}");
    names_swapped(text, from, to)
}

/// Two functions; ours edits one, theirs adds a statement to the other,
/// which renumbers every value after it there. The function only theirs
/// changed is theirs' line for line: git's result is the merge.
#[test]
fn a_function_only_one_side_changed_may_renumber() {
    let source = "void use(int);\n\
        void f(int a) {\n  use(a + 1);\n  use(a + 2);\n  use(a + 3);\n}\n\
        void g(int a) {\n  use(a * 2);\n\
        #ifdef THEIRS\n  use(a * 5);\n#endif\n  use(a * 3);\n  use(a * 4);\n}\n";
    let base = clang_ir(source, "0", None, false);
    let ours = edited(&base, ", 2\n", ", 7\n");
    let theirs = clang_ir(source, "0", Some("THEIRS"), false);
    assert!(theirs.contains("%8 = mul"), "theirs renumbers:\n{theirs}");
    let merged = taken([&base, &ours, &theirs]);
    assert!(written(&merged).contains(", 7\n"));
}

/// Theirs renames a value of the function ours edits too, where ours'
/// hunk writes neither name: every name of ours' line means the base's.
#[test]
fn a_local_one_side_renamed_where_the_other_edits_apart() {
    let base = clang_ir(THREE_VALUES, "0", None, true);
    let ours = constant_of_line_set(&base, "%add1 = add nsw i32", 11);
    let theirs = renamed(&base, "mul", "tripled");
    taken([&base, &ours, &theirs]);
}

/// `base` with the constant ending its line that contains `part` set to `c`.
fn constant_of_line_set(base: &str, part: &str, c: i64) -> String {
    let line = base.lines().find(|l| l.contains(part)).unwrap();
    let (head, _) = line.rsplit_once(", ").unwrap();
    edited(base, line, &format!("{head}, {c}"))
}

/// Ours renames `%add` and gives its name to the base's `%mul`; theirs'
/// new line uses the base's `%add`. git's result uses ours' `%add`.
#[test]
fn a_name_one_side_moved_to_another_value_used_by_the_others_hunk() {
    let base = clang_ir(THREE_VALUES, "0", None, true);
    let ours = renamed(&renamed(&base, "add", "sum"), "mul", "add");
    let theirs = line_replaced(
        &base,
        "%add1 = add nsw i32",
        "  %add1 = add nsw i32 %add, 9",
    );
    declined_and_structured([&base, &ours, &theirs]);
}

/// Ours swaps two labels of `@f`, which only ours changes; theirs takes
/// the address of one of them in `@g`. git's result takes the other's.
#[test]
fn labels_renamed_in_a_function_whose_blocks_another_addresses() {
    let base = "declare void @use(i32)\n\n\
        define void @f(i1 %c) {\nentry:\n  br i1 %c, label %one, label %two\n\n\
        one:\n  call void @use(i32 1)\n  br label %two\n\n\
        two:\n  call void @use(i32 2)\n  ret void\n}\n\n\
        define ptr @g() {\nentry:\n  call void @use(i32 0)\n  call void @use(i32 0)\n  \
        ret ptr null\n}\n";
    let ours = swap_label_lines(&names_swapped(base, "one", "two"));
    let theirs = edited(base, "ret ptr null", "ret ptr blockaddress(@f, %one)");
    assert!(irgit::ir::text_parses_and_verifies(&ours), "{ours}");
    assert!(irgit::ir::text_parses_and_verifies(&theirs), "{theirs}");
    declined_and_structured([base, &ours, &theirs]);
}

/// `text` with its label lines `one:` and `two:` swapped.
fn swap_label_lines(text: &str) -> String {
    text.lines()
        .map(|l| match l {
            "two:" => "one:",
            "one:" => "two:",
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Theirs adds a global and uses it in `@g`; ours edits `@f`. A new
/// entity whose name no other version writes means what theirs meant.
#[test]
fn a_global_one_side_added_takes_gits_result() {
    let source = "void use(int);\n\
        #ifdef THEIRS\nint counter;\n#endif\n\
        void f(int a) {\n  use(a + 1);\n  use(a + 2);\n  use(a + 3);\n}\n\
        void g(int a) {\n  use(a * 2);\n\
        #ifdef THEIRS\n  counter = a;\n#endif\n  use(a * 3);\n}\n";
    let base = clang_ir(source, "0", None, true);
    let ours = edited(&base, ", 2\n", ", 7\n");
    let theirs = clang_ir(source, "0", Some("THEIRS"), true);
    assert!(theirs.contains("@counter = "), "{theirs}");
    taken([&base, &ours, &theirs]);
    // The same global, written by ours too: not new, so not taken here.
    let ours = ours.replacen("define", "@counter = external global i32\n\ndefine", 1);
    assert_eq!(
        text_safe_merge([base.as_str(), &ours, &theirs].into()),
        None
    );
}

/// Names LLVM reads alike though they are written otherwise (`@"f"` and
/// `@f`, `%"\78"` and `%x`, `#00` and `#0`), and strings that run over
/// lines (their lines read like code): triples (`tests/text_safe_spellings/`)
/// where git's clean, valid result means something else than the merge,
/// through a rule that compares names as text. None is text-safe, and
/// both routes write the structured merge's result.
#[test]
fn names_spelled_another_way_are_never_text_safe() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/text_safe_spellings");
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    for dir in &cases {
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        let (base, ours, theirs) = (read("base.ll"), read("ours.ll"), read("theirs.ll"));
        let merged = declined_and_structured([&base, &ours, &theirs]);
        assert!(
            merged.conflicts > 0,
            "{}: {}",
            dir.display(),
            written(&merged)
        );
    }
    assert!(cases.len() >= 9, "{} cases", cases.len());
}
