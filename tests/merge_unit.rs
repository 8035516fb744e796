//! Unit tests of the structured merge's stages and of the `irgit merge`
//! command line, on small hand-written IR and on clang-22 output.
//!
//! ```text
//! base: %1 = add i32 %x, 1     ours: ... add i32 %x, 2     theirs: call @log(i32 %1)
//! merged: the call uses ours' edited add (the rebase)
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use irgit::compare::matching;
use irgit::compare::model::{self, Numbering, SideTables};
use irgit::three::Side;

use irgit::config::CanonOptions;
use irgit::merge::{merge_bytes, Markers, Style};

fn canon(text: &str) -> String {
    let t = irgit::canon::canonicalize_bytes(text.as_bytes(), "m.ll", &CanonOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    t.lines()
        .filter(|l| !l.starts_with("; ModuleID") && !l.starts_with("source_filename"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn merge(o: &str, a: &str, b: &str) -> irgit::merge::Outcome {
    merge_bytes(
        o.as_bytes(),
        a.as_bytes(),
        b.as_bytes(),
        "m.ll",
        &Markers::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

const BASE: &str = "declare void @log(i32)
define i32 @f(i32 %x) {
entry:
  %1 = add i32 %x, 1
  %2 = mul i32 %1, 3
  ret i32 %2
}
";

#[test]
fn an_added_use_follows_the_value_the_other_side_edited() {
    let ours = BASE.replace("add i32 %x, 1", "add i32 %x, 2");
    let theirs = BASE.replace("  ret i32 %2", "  call void @log(i32 %1)\n  ret i32 %2");
    let expected = ours.replace("  ret i32 %2", "  call void @log(i32 %1)\n  ret i32 %2");
    let r = merge(BASE, &ours, &theirs);
    assert_eq!(r.conflicts, 0, "{}", r.text);
    assert_eq!(canon(&r.text), canon(&expected));
}

#[test]
fn a_use_of_a_value_the_other_side_deleted_conflicts() {
    let ours = BASE.replace("  %2 = mul i32 %1, 3\n  ret i32 %2", "  ret i32 %1");
    let theirs = BASE.replace("  ret i32 %2", "  call void @log(i32 %2)\n  ret i32 %2");
    let r = merge(BASE, &ours, &theirs);
    assert!(r.conflicts > 0, "expected a conflict:\n{}", r.text);
    assert!(r.text.contains("<<<<<<< ours") && r.text.contains(">>>>>>> theirs"));
}

#[test]
fn the_same_instruction_edited_twice_conflicts_with_all_three_versions() {
    let ours = BASE.replace("mul i32 %1, 3", "mul i32 %1, 4");
    let theirs = BASE.replace("mul i32 %1, 3", "mul i32 %1, 5");
    let r = merge(BASE, &ours, &theirs);
    assert_eq!(r.conflicts, 1, "{}", r.text);
    // Written in ours' text: only the conflicting line between markers.
    for needle in [
        "  %1 = add i32 %x, 1\n<<<<<<< ours\n  %2 = mul i32 %1, 4\n",
        "||||||| base\n  %2 = mul i32 %1, 3\n=======\n  %2 = mul i32 %1, 5\n>>>>>>> theirs\n  ret i32 %2\n",
    ] {
        assert!(r.text.contains(needle), "missing {needle:?} in\n{}", r.text);
    }
}

#[test]
fn a_function_removed_on_one_side_and_unchanged_on_the_other_goes() {
    let base = format!("{BASE}define i32 @g() {{\n  ret i32 7\n}}\n");
    let ours = BASE.to_string();
    let theirs = base.replace("add i32 %x, 1", "add i32 %x, 9");
    let r = merge(&base, &ours, &theirs);
    assert_eq!(r.conflicts, 0, "{}", r.text);
    assert_eq!(
        canon(&r.text),
        canon(&theirs.replace("define i32 @g() {\n  ret i32 7\n}\n", ""))
    );
}

/// Metadata numbers are positions: a loop added above renumbers `!llvm.loop`
/// references below. That must not look like an edit.
#[test]
fn renumbered_metadata_is_not_an_edit() {
    let src = |a: bool, b: bool| {
        format!(
            "int g;\n{}int f(int n) {{ int s = 0; for (int i = 0; i < n; i++) s += i; return s + {}; }}\n",
            if a { "void h(int n) { for (int i = 0; i < n; i++) g += i; }\n" } else { "" },
            if b { 2 } else { 1 }
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let ll = |name: &str, c: String| {
        let p = dir.path().join(format!("{name}.c"));
        std::fs::write(&p, c).unwrap();
        let out = Command::new(clang())
            .args(["-S", "-emit-llvm", "-O0", "-o", "-"])
            .arg(&p)
            .output()
            .expect("clang-22 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Same source_filename on every side.
        String::from_utf8(out.stdout)
            .unwrap()
            .replace(&format!("{name}.c"), "p.c")
    };
    let (o, a, b, e) = (
        ll("o", src(false, false)),
        ll("a", src(true, false)),
        ll("b", src(false, true)),
        ll("e", src(true, true)),
    );
    assert!(
        a.contains("!llvm.loop !6") && a.contains("!llvm.loop !8"),
        "{a}"
    );
    let r = merge(&o, &a, &b);
    assert_eq!(r.conflicts, 0, "{}", r.text);
    assert_eq!(canon(&r.text), canon(&e));
}

#[test]
fn metadata_keys_ignore_numbering_but_outputs_keep_distinct_nodes() {
    let m = model::parse(
        "define void @f() {\nbb0:\n  ret void, !a !1\n}\n!0 = !{!\"x\"}\n!1 = distinct !{!1, !0}\n!2 = distinct !{!2, !0}\n",
        "t",
    )
    .unwrap();
    let n = model::parse(
        "define void @f() {\nbb0:\n  ret void, !a !5\n}\n!4 = !{!\"x\"}\n!5 = distinct !{!5, !4}\n",
        "t",
    )
    .unwrap();
    let (tm, tn) = (
        SideTables::new(Side::Base, &m),
        SideTables::new(Side::Ours, &n),
    );
    let mut nb = Numbering::default();
    let none = |_: &str| -> Option<String> { None };
    let lm = nb.line(&tm, "ret void, !a !1", &none);
    let ln = nb.line(&tn, "ret void, !a !5", &none);
    let lm2 = nb.line(&tm, "ret void, !a !2", &none);
    assert_eq!(lm.key, ln.key, "the same node under two numbers");
    // !1 and !2 are two distinct nodes with one content: two identities
    // (one anchored in @f, one unused), and two nodes in the output.
    assert_ne!(lm.key, lm2.key);
    assert_ne!(lm.out, lm2.out);
}

#[test]
fn matching_follows_an_edited_value_to_its_users() {
    let o = model::parse(
        "define i32 @f(i32 %arg0) {\nbb0:\n  %add.1 = add i32 %arg0, 1\n  %mul.2 = mul i32 %add.1, 3\n  ret i32 %mul.2\n}\n",
        "o",
    )
    .unwrap();
    let a = model::parse(
        "define i32 @f(i32 %arg0) {\nbb0:\n  %add.9 = add i32 %arg0, 2\n  %mul.8 = mul i32 %add.9, 3\n  ret i32 %mul.8\n}\n",
        "a",
    )
    .unwrap();
    let m = matching::match_function(&o.funcs[0], &a.funcs[0]);
    assert_eq!(m.values.get("add.9").map(String::as_str), Some("add.1"));
    assert_eq!(m.values.get("mul.8").map(String::as_str), Some("mul.2"));
    assert_eq!(m.blocks.get("bb0").map(String::as_str), Some("bb0"));
}

// ---- the command line ----

fn irgit() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_irgit"))
}

fn clang() -> PathBuf {
    if Path::new("/usr/bin/clang-22").exists() {
        PathBuf::from("/usr/bin/clang-22")
    } else {
        PathBuf::from("/usr/lib/llvm-22/bin/clang")
    }
}

/// Runs `irgit merge` in `dir` with a clean git environment.
fn run(dir: &Path, args: &[&str]) -> Output {
    let global = dir.join("gitconfig");
    std::fs::write(&global, "").unwrap();
    Command::new(irgit())
        .arg("merge")
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", &global)
        .output()
        .unwrap()
}

fn write3(dir: &Path, o: &str, a: &str, b: &str) {
    std::fs::write(dir.join("O"), o).unwrap();
    std::fs::write(dir.join("A"), a).unwrap();
    std::fs::write(dir.join("B"), b).unwrap();
}

#[test]
fn git_driver_shape_overwrites_ours_and_exits_zero_when_clean() {
    let dir = tempfile::tempdir().unwrap();
    let ours = BASE.replace("add i32 %x, 1", "add i32 %x, 2");
    let theirs = BASE.replace("mul i32 %1, 3", "mul i32 %1, 5");
    let theirs = theirs.replace("  ret i32 %2", "  call void @log(i32 0)\n  ret i32 %2");
    write3(dir.path(), BASE, &ours, &theirs);
    let out = run(dir.path(), &["O", "A", "B", "7", "src/m.ll"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Ours' text with theirs' two changes.
    let merged = std::fs::read_to_string(dir.path().join("A")).unwrap();
    let expected = ours
        .replace("mul i32 %1, 3", "mul i32 %1, 5")
        .replace("  ret i32 %2", "  call void @log(i32 0)\n  ret i32 %2");
    assert_eq!(merged, expected);
}

#[test]
fn conflicts_exit_one_with_markers_of_the_given_size_and_style() {
    let dir = tempfile::tempdir().unwrap();
    let ours = BASE.replace("mul i32 %1, 3", "mul i32 %1, 4");
    let theirs = BASE.replace("mul i32 %1, 3", "mul i32 %1, 5");
    write3(dir.path(), BASE, &ours, &theirs);
    let out = run(
        dir.path(),
        &["O", "A", "B", "10", "m.ll", "-o", "out", "--style", "merge"],
    );
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(dir.path().join("out")).unwrap();
    assert!(
        text.contains(&format!("{} ours\n", "<".repeat(10))),
        "{text}"
    );
    assert!(
        text.contains(&format!("{} theirs\n", ">".repeat(10))),
        "{text}"
    );
    assert!(
        !text.contains("|||"),
        "merge style has no base section:\n{text}"
    );
    // -o leaves ours alone.
    assert_eq!(std::fs::read_to_string(dir.path().join("A")).unwrap(), ours);
}

#[test]
fn the_style_comes_from_irgit_yaml_and_a_bad_key_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let ours = BASE.replace("mul i32 %1, 3", "mul i32 %1, 4");
    let theirs = BASE.replace("mul i32 %1, 3", "mul i32 %1, 5");
    write3(dir.path(), BASE, &ours, &theirs);
    std::fs::write(dir.path().join(".irgit.yaml"), "merge:\n  style: merge\n").unwrap();
    let out = run(dir.path(), &["O", "A", "B", "-o", "out"]);
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(dir.path().join("out")).unwrap();
    assert!(
        text.contains("<<<<<<< ours") && !text.contains("||||||| base"),
        "{text}"
    );

    std::fs::write(dir.path().join(".irgit.yaml"), "merge:\n  stlye: merge\n").unwrap();
    let out = run(dir.path(), &["O", "A", "B", "-o", "out2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(".irgit.yaml") && err.contains("stlye"),
        "{err}"
    );
}

#[test]
fn inputs_that_are_not_ir_get_a_line_merge() {
    let dir = tempfile::tempdir().unwrap();
    write3(dir.path(), "a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n");
    let out = run(dir.path(), &["O", "A", "B", "7", "notes.ll"]);
    // LLVM rejects the inputs, so git's line merge is the answer: clean
    // where git is clean, although LLVM rejects the result too.
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("A")).unwrap(),
        "A\nb\nC\n",
        "git's clean result"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("notes.ll: falling back to a line merge") && err.contains("not valid LLVM IR"),
        "{err}"
    );

    write3(dir.path(), "a\nb\n", "x\nb\n", "y\nb\n");
    let out = run(dir.path(), &["O", "A", "B", "9", "notes.ll"]);
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(dir.path().join("A")).unwrap();
    // git's default style (merge) when nothing is configured: no base section.
    assert!(
        text.contains("<<<<<<<<< ours") && !text.contains("|||||||||"),
        "{text}"
    );
}

#[test]
fn a_missing_input_is_an_error_not_a_clean_merge() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("A"), BASE).unwrap();
    let out = run(dir.path(), &["nope", "A", "A"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.starts_with("irgit merge: nope: no such file"), "{err}");
}

#[test]
fn style_names_parse_from_yaml() {
    let c = irgit::config::Config::from_yaml(
        "merge:\n  style: diff3\n  timeout_seconds: 5\n",
        Path::new("x"),
    )
    .unwrap();
    assert_eq!(c.merge.style, Some(Style::Diff3));
    assert_eq!(c.merge.timeout_seconds, 5);
}

#[test]
fn bitcode_inputs_give_a_bitcode_result() {
    let dir = tempfile::tempdir().unwrap();
    let ours = BASE.replace("add i32 %x, 1", "add i32 %x, 2");
    let theirs = BASE.replace("  ret i32 %2", "  call void @log(i32 7)\n  ret i32 %2");
    let expected = ours.replace("  ret i32 %2", "  call void @log(i32 7)\n  ret i32 %2");
    for (name, text) in [("O", BASE), ("A", ours.as_str()), ("B", theirs.as_str())] {
        let ll = dir.path().join(format!("{name}.ll"));
        std::fs::write(&ll, text).unwrap();
        // From stdin, so every side gets the same source_filename.
        let st = Command::new("/usr/lib/llvm-22/bin/llvm-as")
            .arg("-")
            .arg("-o")
            .arg(dir.path().join(name))
            .stdin(std::fs::File::open(&ll).unwrap())
            .status()
            .expect("llvm-as runs");
        assert!(st.success());
    }
    let out = run(dir.path(), &["O", "A", "B", "7", "m.bc"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged = std::fs::read(dir.path().join("A")).unwrap();
    assert!(
        merged.starts_with(b"BC\xC0\xDE"),
        "the result is not bitcode"
    );
    let text = irgit::canon::canonicalize_bytes(&merged, "m.bc", &CanonOptions::default()).unwrap();
    let text: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("; ModuleID") && !l.starts_with("source_filename"))
        .collect();
    assert_eq!(text.join("\n"), canon(&expected));
}

const RENAME_BASE: &str = "define i32 @f(i32 %x, i32 %y) {
entry:
  %0 = add i32 %x, 1
  %1 = mul i32 %0, %y
  %2 = icmp sgt i32 %1, 100
  br i1 %2, label %big, label %small
big:
  %3 = sub i32 %1, 100
  ret i32 %3
small:
  %4 = xor i32 %1, 5
  ret i32 %4
}
define i32 @other(i32 %x) {
entry:
  %0 = shl i32 %x, 3
  ret i32 %0
}
define i32 @main(i32 %a) {
entry:
  %0 = call i32 @f(i32 %a, i32 3)
  ret i32 %0
}
";

fn canonical_model(text: &str, name: &str) -> model::ModuleText {
    let t = irgit::canon::canonicalize_bytes(text.as_bytes(), "m.ll", &CanonOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    model::parse(&t, name).unwrap()
}

/// A renamed function (also edited on the renaming side) is paired with its
/// base function; an unrelated new function with the same signature is not.
#[test]
fn renamed_functions_are_found_by_structure_not_by_name() {
    use irgit::compare::rename;
    let o = canonical_model(RENAME_BASE, "base");
    let renamed = RENAME_BASE
        .replace("@f(", "@g(")
        .replace("xor i32 %1, 5", "xor i32 %1, 6");
    let a = canonical_model(&renamed, "ours");
    assert_eq!(
        rename::detect(&o, &a),
        vec![("@f".to_string(), "@g".to_string())]
    );
    // @other removed, @unrelated added: same signature, different body.
    let replaced = RENAME_BASE.replace(
        "define i32 @other(i32 %x) {\nentry:\n  %0 = shl i32 %x, 3\n  ret i32 %0\n}",
        "define i32 @unrelated(i32 %x) {\nentry:\n  %0 = udiv i32 %x, 7\n  %1 = or i32 %0, 1\n  ret i32 %1\n}",
    );
    let b = canonical_model(&replaced, "theirs");
    assert_eq!(rename::detect(&o, &b), vec![]);
}

/// Left deletes @other and adds an unrelated @unrelated; Right edits @other:
/// not a rename, so removed-vs-modified must still conflict.
#[test]
fn a_removal_plus_an_unrelated_addition_is_no_rename() {
    let ours = RENAME_BASE.replace(
        "define i32 @other(i32 %x) {\nentry:\n  %0 = shl i32 %x, 3\n  ret i32 %0\n}",
        "define i32 @unrelated(i32 %x) {\nentry:\n  %0 = udiv i32 %x, 7\n  %1 = or i32 %0, 1\n  ret i32 %1\n}",
    );
    let theirs = RENAME_BASE.replace("shl i32 %x, 3", "shl i32 %x, 4");
    let r = merge(RENAME_BASE, &ours, &theirs);
    assert!(r.conflicts > 0, "expected a conflict:\n{}", r.text);
}

/// Left renames @f to @g; Right edits @f and adds a call of @f in new code:
/// the edit lands in @g and the new call is redirected to @g.
#[test]
fn a_rename_carries_the_other_sides_edit_and_new_calls() {
    let ours = RENAME_BASE.replace("@f(", "@g(");
    let theirs = RENAME_BASE
        .replace("xor i32 %1, 5", "xor i32 %1, 9")
        .replace(
            "  %0 = call i32 @f(i32 %a, i32 3)\n  ret i32 %0",
            "  %0 = call i32 @f(i32 %a, i32 3)\n  %1 = call i32 @f(i32 %0, i32 %0)\n  ret i32 %1",
        );
    assert!(theirs.contains("call i32 @f(i32 %0, i32 %0)"));
    let r = merge(RENAME_BASE, &ours, &theirs);
    assert_eq!(r.conflicts, 0, "{}", r.text);
    assert_eq!(canon(&r.text), canon(&theirs.replace("@f(", "@g(")));
    assert!(!r.text.contains("@f("), "{}", r.text);
}

/// Left renames @f to @g while Right adds a different function of its own
/// named @g: the names collide, so the merge must not be clean.
#[test]
fn a_rename_onto_a_name_the_other_side_added_conflicts() {
    let ours = RENAME_BASE.replace("@f(", "@g(");
    let theirs = format!("{RENAME_BASE}define i32 @g(i32 %z) {{\nentry:\n  ret i32 %z\n}}\n");
    let r = merge(RENAME_BASE, &ours, &theirs);
    assert!(r.conflicts > 0, "expected a conflict:\n{}", r.text);
}

/// Attribute groups and metadata are numbered by position: theirs' new `#1`
/// and `!0` are not ours' `#1` and `!0`, so they get free numbers.
#[test]
fn new_attribute_groups_and_metadata_get_free_numbers() {
    let base = "define i32 @f(i32 %x) #0 {\nentry:\n  %a = add i32 %x, 1\n  ret i32 %a\n}\n\nattributes #0 = { nounwind }\n";
    let fun = |name: &str, attrs: &str, note: &str| {
        base.replace(
            "\nattributes #0 = { nounwind }\n",
            &format!(
                "\ndefine i32 @{name}(i32 %x) #1 {{\nentry:\n  ret i32 %x, !annot !0\n}}\n\nattributes #0 = {{ nounwind }}\nattributes #1 = {{ {attrs} }}\n\n!0 = !{{!\"{note}\"}}\n"
            ),
        )
    };
    let ours = fun("g", "noinline nounwind", "ours");
    let theirs = fun("h", "cold nounwind", "theirs").replace("add i32 %x, 1", "add i32 %x, 2");
    let r = merge(base, &ours, &theirs);
    assert_eq!(r.conflicts, 0, "{}", r.text);
    let out = String::from_utf8(irgit::merge::output_bytes(ours.as_bytes(), &r, "m.ll").unwrap())
        .unwrap();
    assert!(
        out.starts_with(&ours.replace("add i32 %x, 1", "add i32 %x, 2")[..120]),
        "{out}"
    );
    for needle in [
        "define i32 @h(i32 %x) #2 {",
        "ret i32 %x, !annot !1",
        "attributes #2 = { cold nounwind }",
        "!1 = !{!\"theirs\"}",
        "attributes #1 = { noinline nounwind }",
        "!0 = !{!\"ours\"}",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
}

/// The lines merge but the IR does not: ours deletes a value theirs starts
/// to use elsewhere. The conflict is on the function, in ours' names and
/// numbers, and keeps every comment (the canonical form would have none).
#[test]
fn a_conflict_the_lines_do_not_show_keeps_the_comments() {
    let base = "; a note on top\ndeclare void @log(i32)\n\ndefine i32 @f(i32 %x) {\nentry:\n  %1 = add i32 %x, 1 ; one\n  %2 = mul i32 %1, 3\n  br label %next\n\nnext:\n  ret i32 %1\n}\n";
    let ours = base.replace("  %2 = mul i32 %1, 3\n", "");
    let theirs = base.replace("  ret i32 %1\n", "  call void @log(i32 %2)\n  ret i32 %1\n");
    let r = merge(base, &ours, &theirs);
    assert_eq!(r.conflicts, 1, "{}", r.text);
    let out = String::from_utf8(irgit::merge::output_bytes(ours.as_bytes(), &r, "m.ll").unwrap())
        .unwrap();
    assert!(
        out.starts_with("; a note on top\ndeclare void @log(i32)\n"),
        "{out}"
    );
    assert_eq!(out.matches("; a note on top").count(), 1, "{out}");
    assert_eq!(out.matches("add i32 %x, 1 ; one").count(), 3, "{out}");
    // Base's and theirs' sections are numbered as LLVM prints them.
    assert!(
        out.contains("  %1 = mul i32 %0, 3\n") && out.contains("call void @log(i32 %1)"),
        "{out}"
    );
    assert!(out.contains("||||||| base"), "{out}");
    assert!(!out.contains("irgit.new"), "placeholders left in\n{out}");
}

/// A side that changed nothing gives the other side byte for byte, but
/// only once LLVM has checked it: invalid IR is never a clean merge.
#[test]
fn an_unchanged_side_does_not_make_invalid_ir_clean() {
    let broken = BASE.replace("ret i32 %2", "ret i32 %9");
    let m = Markers::default();
    for (ours, theirs) in [(BASE, broken.as_str()), (broken.as_str(), BASE)] {
        let r = merge_bytes(
            BASE.as_bytes(),
            ours.as_bytes(),
            theirs.as_bytes(),
            "m.ll",
            &m,
        );
        assert!(
            r.is_err(),
            "reported a merge of invalid IR: {:?}",
            r.map(|o| o.conflicts)
        );
    }
    let r = merge_bytes(
        BASE.as_bytes(),
        BASE.as_bytes(),
        BASE.as_bytes(),
        "m.ll",
        &m,
    )
    .unwrap();
    assert_eq!(r.bytes.as_deref(), Some(BASE.as_bytes()));
    assert_eq!(
        r.made_by,
        irgit::merge::MadeBy::Written(irgit::merge::Writer::UnchangedSide)
    );
}

/// Theirs removes `@helper`, ours' new code in `@f` calls it (the case
/// `definition_deleted_but_called`): no fallback to the line merge, but a
/// conflict on the call and one on the removal, named in the notes; theirs'
/// edit of `@g` merges outside them.
#[test]
fn a_call_to_a_function_the_other_side_removed_conflicts_where_they_clash() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/merge/working/definition_deleted_but_called");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let merged = merge(&read("Base.ll"), &read("Left.ll"), &read("Right.ll"));
    let notes = merged.notes.join("\n");
    assert_eq!(
        merged.made_by,
        irgit::merge::MadeBy::Conflict(irgit::merge::Conflict::CallClash)
    );
    assert!(
        notes.contains("theirs removed @helper, which ours calls in @f"),
        "{notes}"
    );
    let text = merged.bytes.as_deref().map_or_else(
        || merged.text.clone(),
        |b| String::from_utf8_lossy(b).into_owned(),
    );
    assert_eq!(merged.conflicts, 2, "{text}");
    let after_conflicts = text.rsplit(">>>>>>> theirs").next().unwrap_or_default();
    assert!(
        after_conflicts.contains("define i32 @g(i32 %a) {\n  %b = sub i32 %a, 2\n"),
        "{text}"
    );
}
