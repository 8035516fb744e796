//! Small real changes that the view (`irgit textconv`) must show no larger
//! than git's own diff of the text (issue: "no cascades"): one fact
//! changed on one line (an alignment, a struct's layout, an attribute
//! group's content, the directory a file was compiled in) must not rename
//! every line that refers to what changed.
//!
//! The fixtures are in `tests/view_cases/<case>/{old,new}.ll`; the
//! directory case compiles a corpus program with clang-22 in two checkouts.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{diff_size, first_diff_labeled, CLANG};

/// `irgit textconv FILE`, as git runs it, but outside any repository: its
/// cache (kept in the git directory) then neither answers for an older
/// build nor fills the checkout's git directory.
fn textconv(file: &Path) -> String {
    let outside = tempfile::tempdir().expect("temporary directory");
    let out = Command::new(env!("CARGO_BIN_EXE_irgit"))
        .current_dir(outside.path())
        .env_remove("GIT_DIR")
        .arg("textconv")
        .arg(file)
        .output()
        .expect("run irgit textconv");
    assert!(
        out.status.success(),
        "irgit textconv {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    // textconv falls back to the input unchanged, with a warning, when it
    // cannot read it: that would make every comparison below vacuous. (IR
    // a person wrote is its own view, numbered values aside: no warning.)
    assert!(
        out.stderr.is_empty(),
        "irgit textconv {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the view is UTF-8")
}

/// Removed + added lines of a line diff.
fn changed(a: &str, b: &str) -> usize {
    let (removed, added) = diff_size(a, b);
    removed + added
}

/// Asserts that the view's diff of `old` and `new` is no larger than the
/// diff of their text, and that it is not empty (the change shows).
fn view_no_noisier_than_git(old: &Path, new: &Path) {
    let (old_text, new_text) = (read(old), read(new));
    let (old_view, new_view) = (textconv(old), textconv(new));
    let raw = changed(&old_text, &new_text);
    let shown = changed(&old_view, &new_view);
    assert!(shown > 0, "{}: the view hides the change", new.display());
    assert!(
        shown <= raw,
        "{}: git shows {raw} changed lines, the view {shown}:\n{}",
        new.display(),
        first_diff_labeled(&old_view, &new_view, 60, "old view", "new view")
    );
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn case_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/view_cases")
        .join(name)
}

fn check_case(name: &str) {
    let dir = case_dir(name);
    view_no_noisier_than_git(&dir.join("old.ll"), &dir.join("new.ll"));
}

/// One store's `align 8` becomes `align 4`: the alloca it stores to keeps
/// its name (a name never says how a value is used).
#[test]
fn an_alignment_change_renames_nothing() {
    check_case("alloca-align");
}

/// A named struct gains a field: values of that type keep their names (a
/// type is named by its name, not its layout).
#[test]
fn a_struct_layout_change_renames_nothing() {
    check_case("struct-layout");
}

/// An attribute group gains a target feature: only its own line changes,
/// not the `#N` of every function that uses it.
#[test]
fn an_attribute_group_change_shows_once() {
    check_case("attribute-group");
}

/// Compiler output (tinygo's golden file of `defer`, one function): a new
/// block (`rundefers.block`, `rundefers.after`) renames no block below it,
/// and the names the compiler gave (`%deferPtr`, `rundefers.loophead`)
/// stay in the view.
#[test]
fn compiler_names_survive_a_new_block() {
    check_case("compiler-names-new-block");
    let view = textconv(&case_dir("compiler-names-new-block").join("new.ll"));
    for name in ["%deferPtr = ", "\nrundefers.loophead:", "%stackIsNil = "] {
        assert!(view.contains(name), "{name:?} is not in the view:\n{view}");
    }
}

/// A private global with a name of its own (tinygo's type codes) keeps it
/// in the view when it changes from external to private: the change is its
/// own line, not a content hash on every line that names it.
#[test]
fn a_private_global_keeps_its_own_name() {
    check_case("private-global-names");
}

/// A function added that sorts first in the module takes over the first
/// use of the groups it names: their numbers stay (before: every `define`
/// naming `{ nounwind ... }` changed, 9 changed lines became 59).
#[test]
fn a_new_function_renumbers_no_attribute_group() {
    check_case("attribute-new-user");
}

/// A hand-written test gains its first `RUN:` line (as klee's tests did
/// when they moved to lit): IR that a person wrote is shown in its own
/// order and names with or without the line, so only the new lines show
/// (before: the declaration, the instructions, the operands and the entry
/// block's name all moved, 2 changed lines became 14).
#[test]
fn a_first_run_line_changes_only_itself() {
    check_case("run-line-added");
}

/// A called function gains a parameter (tinygo's `runtime.alloc`): the
/// calls change, and the values computed from their results keep their
/// names (a value is named by its role, not by its operands' content).
#[test]
fn a_call_that_gains_an_argument_renames_nothing() {
    check_case("call-gains-argument");
}

/// A literal struct's field changes type: the addresses into it change,
/// the loads from them keep their names.
#[test]
fn a_gep_source_type_change_renames_nothing() {
    check_case("gep-source-type");
}

/// A numbered struct name loses its suffix (`%main.Point.0` becomes
/// `%main.Point`): the lines that spell the type change, no value is
/// renamed for it.
#[test]
fn a_renamed_struct_renames_no_value() {
    check_case("struct-renamed");
}

/// A call that stores into a stack slot gains an argument: the slot (an
/// unnamed alloca) keeps its name (a name never says how a value is used).
#[test]
fn a_use_of_a_stack_slot_renames_nothing() {
    check_case("stack-slot-argument");
}

/// A target feature added to every attribute group of a module, groups of
/// the same kinds among them (told apart by their `"tinygo-methods"`):
/// each `attributes` line changes, no `#N` on a declaration does.
#[test]
fn a_target_feature_of_every_group_renumbers_none() {
    check_case("shared-target-features");
}

/// A test's declaration gains `willreturn` (intel-graphics-compiler): its
/// `readonly` calls are no longer outputs, and the values they compute,
/// and their users, keep their names (before: 4 changed lines became 24).
/// The view shows the declaration's `#N` and its `attributes` line, which
/// the test writes inline: the function's body is what must not change.
#[test]
fn a_callee_attribute_renames_no_call() {
    let dir = case_dir("callee-attributes");
    let (old, new) = (textconv(&dir.join("old.ll")), textconv(&dir.join("new.ll")));
    let body = |view: &str| -> String {
        let start = view.find("define ").expect("a define in the view");
        let end = start + view[start..].find("\n}\n").expect("the end of the define");
        view[start..end].to_string()
    };
    assert_eq!(
        body(&old),
        body(&new),
        "{}",
        first_diff_labeled(&old, &new, 40, "old view", "new view")
    );
    assert!(
        new.contains("willreturn"),
        "the change does not show:\n{new}"
    );
}

/// A test moved to opaque pointers (intel-graphics-compiler): its target
/// intrinsic's name loses the pointee (`.p2490373i8` becomes `.p2490373`);
/// the calls' values and their users keep their names (before: 16 changed
/// lines became 24).
#[test]
fn opaque_pointer_mangling_renames_no_call() {
    check_case("opaque-pointer-mangling");
}

/// Two subprograms gain a `type:` (SPIRV-LLVM-Translator): they keep
/// their numbers, so the `!dbg` of their functions, their lexical blocks
/// and locations do not change (before: 6 changed lines became 18).
#[test]
fn a_subprogram_type_renumbers_nothing() {
    check_case("subprogram-type");
}

/// A compile unit loses its `imports:` and a subprogram's
/// `retainedNodes:` gains the import (SPIRV-LLVM-Translator): the compile
/// unit and the lists it names keep their numbers (before: 6 changed
/// lines became 11).
#[test]
fn compile_unit_imports_renumber_nothing() {
    check_case("compile-unit-imports");
}

/// Every allocation of a function gains a user (tinygo's
/// `runtime.trackPointer` after each `runtime.alloc`): the calls of one
/// callee, told apart by their arguments, keep their names (before: each
/// one after the first was renamed with its users, 5 changed lines
/// became 9).
#[test]
fn a_call_that_gains_a_user_keeps_its_name() {
    check_case("call-gains-a-user");
}

/// Functions of tinygo's golden file of pragmas gain and lose wasm import
/// and export attributes, each in an attribute group of its own: every
/// such group keeps its number, so only its `attributes` line changes,
/// not the `define` of its function nor the other groups (before: 16
/// changed lines became 24).
#[test]
fn a_group_of_one_function_keeps_its_number() {
    check_case("attribute-group-of-one-function");
}

/// A location that a debug record uses changes (SPIRV-LLVM-Translator:
/// `line: 0` becomes `line: 1`): the record's line changes, and the
/// instruction after it keeps its step (before: 11 changed lines became
/// 13).
#[test]
fn a_debug_record_location_moves_no_step() {
    check_case("debug-record-location");
}

/// `%name` replaced by `%to` wherever it is a whole name in `text`.
fn rename(text: &str, name: &str, to: &str) -> String {
    let from = format!("%{name}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&from) {
        let after = &rest[at + from.len()..];
        let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || "._$-".contains(c));
        out.push_str(&rest[..at]);
        out.push_str(if whole { to } else { &from });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The names a file has are its text: renaming one value shows on every
/// line that names it, and two values swapping names show, as git shows
/// them (the view must never hide a real change).
#[test]
fn a_rename_or_a_swap_of_compiler_names_shows() {
    let dir = tempfile::tempdir().unwrap();
    let original = read(&case_dir("compiler-names-new-block").join("old.ll"));
    let renamed = rename(&original, "stackIsNil", "%stackIsEmpty");
    let swapped = rename(
        &rename(&original, "deferPtr", "%swap.tmp"),
        "defer.alloca",
        "%deferPtr",
    );
    let swapped = rename(&swapped, "swap.tmp", "%defer.alloca");
    for (what, text) in [("rename", renamed), ("swap", swapped)] {
        assert_ne!(text, original, "{what}: the edit changed nothing");
        let (old, new) = (
            dir.path().join("old.ll"),
            dir.path().join(format!("{what}.ll")),
        );
        std::fs::write(&old, &original).unwrap();
        std::fs::write(&new, &text).unwrap();
        let (raw, shown) = (
            changed(&original, &text),
            changed(&textconv(&old), &textconv(&new)),
        );
        assert!(shown > 0, "{what}: the view hides it");
        assert!(
            shown <= raw,
            "{what}: git shows {raw} lines, the view {shown}"
        );
    }
}

/// The same C source with `-g`, compiled by clang-22 in two checkouts (the
/// `DIFile`'s `directory:` differs): the view shows no more than git does.
#[test]
fn another_checkout_directory_shows_as_git_shows_it() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/loops.c");
    let root = tempfile::tempdir().expect("temporary directory");
    let mut outputs = Vec::new();
    for checkout in ["one", "second/checkout"] {
        let dir = root.path().join(checkout);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(&source, dir.join("x.c")).unwrap();
        let status = Command::new(CLANG)
            .current_dir(&dir)
            .args(["-g", "-O0", "-S", "-emit-llvm", "-w", "x.c", "-o", "x.ll"])
            .status()
            .expect("run clang-22");
        assert!(status.success(), "clang-22 failed in {}", dir.display());
        outputs.push(dir.join("x.ll"));
    }
    assert_ne!(
        read(&outputs[0]),
        read(&outputs[1]),
        "the two checkouts compile to the same text: nothing to test"
    );
    view_no_noisier_than_git(&outputs[0], &outputs[1]);
}

/// What the view is for must still hold: two printings of one module that
/// differ only in numbering and order (every perturbation kind of
/// `irgit_testkit::perturb` but the renames, which change names the view
/// keeps, on every corpus module; and all of them one after the other)
/// show no diff.
#[test]
fn the_view_is_invariant_under_every_perturbation() {
    use irgit_testkit::perturb::Kind;
    let modules = common::corpus();
    let kinds: Vec<Kind> = Kind::ALL.into_iter().filter(|k| !k.renames()).collect();
    let failures: Vec<String> = common::par_map(modules, |m| {
        let base = common::view(&m.text);
        let mut differ = Vec::new();
        let mut all = m.text.clone();
        let mut check = |what: &str, perturbed: &str| {
            let shown = common::view(perturbed);
            if shown != base {
                differ.push(format!(
                    "{} under {what}:\n{}",
                    m.name,
                    first_diff_labeled(&base, &shown, 24, "view(m)", "view(π(m))")
                ));
            }
        };
        for &kind in &kinds {
            if let Ok(perturbed) = common::perturbed(&m.text, &m.name, kind, 1) {
                check(kind.name(), &perturbed);
            }
            if let Ok(next) = common::perturbed(&all, &m.name, kind, 2) {
                all = next;
            }
        }
        check("every kind but the renames, one after the other", &all);
        differ
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "{} (module, perturbation) views differ; first:\n{}",
        failures.len(),
        failures[0]
    );
}

/// A test input with neither a compiler's header nor a `RUN:` line (a
/// transform's input, tinygo f24a93c51d8b): every call to a runtime
/// function gains an argument. Its unnamed values are named by role and
/// place, so the calls change on their own lines only.
#[test]
fn a_header_less_file_names_values_by_role() {
    check_case("headerless-call-gains-argument");
}

/// A hand-written file's placeholders move from `undef` to `poison` (as
/// LLVM's own did): the two shuffles of one vector, told apart by their
/// masks, keep their names, so only the changed lines show (before, the
/// second shuffle was renamed and the call that uses it showed too: 16
/// changed lines became 22 in Halide's runtime).
#[test]
fn undef_becoming_poison_renames_nothing() {
    check_case("undef-becomes-poison");
}

/// Compiler output in the syntax of LLVM 3.5 (loads' types implicit,
/// `metadata !{...}` nodes, an intrinsic's value wrapped in a node), which
/// LLVM 22 rejects, is modernized in the commit that also gives a call its
/// location: both versions are read, so the view shows what changed, not
/// one version canonical and the other as written (emscripten's test
/// cases: 39 changed lines became 206).
#[test]
fn old_metadata_syntax_is_read_for_the_view() {
    check_case("old-metadata-modernized");
    let dir = case_dir("old-metadata-modernized");
    let (old, new) = (textconv(&dir.join("old.ll")), textconv(&dir.join("new.ll")));
    assert!(
        changed(&old, &new) <= 4,
        "{}",
        first_diff_labeled(&old, &new, 40, "old view", "new view")
    );
}

/// Compiler output kept by hand since (its declarations write `nounwind`
/// inline, which no printer since LLVM 3.3 does) has a callee renamed
/// throughout: the view is the file's own text, so the renamed lines show
/// where they are, not every declaration moved to where the new name
/// sorts (emscripten's test cases: 10 changed lines became 18).
#[test]
fn kept_compiler_output_shows_a_renamed_callee_in_place() {
    check_case("kept-case-callee-renamed");
    let dir = case_dir("kept-case-callee-renamed");
    let view = textconv(&dir.join("new.ll"));
    assert_eq!(
        view,
        read(&dir.join("new.ll")),
        "a kept file is its own view"
    );
}

/// The same kind of file modernized by a script that dropped its debug
/// locations and joined lines: the older version, in syntax LLVM 22
/// rejects, is shown as LLVM reads it, and the change shows no more than
/// git's (emscripten's test cases: 317 changed lines became 444).
#[test]
fn kept_compiler_output_modernized_shows_no_more_than_git() {
    check_case("kept-case-lines-joined");
}

/// An inline `asm` operand of an indirect constraint (`=*m`) gains the
/// `elementtype` LLVM 15 made it need: the older version, which LLVM 22
/// rejects, is read with it written out, so its numbered values get the
/// same names as the newer one's (Halide's x86 runtime: 8 changed lines
/// became 72).
#[test]
fn an_asm_operand_without_its_element_type_is_read_for_the_view() {
    check_case("asm-operand-element-type");
}
