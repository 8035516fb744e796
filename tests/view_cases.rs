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
    // cannot canonicalize: that would make every comparison below vacuous.
    assert!(
        out.stderr.is_empty(),
        "irgit textconv {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let view = String::from_utf8(out.stdout).expect("the view is UTF-8");
    assert_ne!(view, read(file), "{}: no view", file.display());
    view
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
/// `irgit_testkit::perturb`, on every corpus module) show no diff.
#[test]
fn the_view_is_invariant_under_every_perturbation() {
    use irgit_testkit::perturb::Kind;
    let modules = common::corpus();
    let failures: Vec<String> = common::par_map(modules, |m| {
        let base = common::view(&m.text);
        let mut differ = Vec::new();
        for kind in Kind::ALL {
            let Ok(perturbed) = common::perturbed(&m.text, &m.name, kind, 1) else {
                continue;
            };
            let shown = common::view(&perturbed);
            if shown != base {
                differ.push(format!(
                    "{} under {}:\n{}",
                    m.name,
                    kind.name(),
                    first_diff_labeled(&base, &shown, 24, "view(m)", "view(π(m))")
                ));
            }
        }
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
