//! Numbering and LLVM's own text in the canonical form, on real clang-22 and
//! opt-22 output:
//!
//! - attribute groups (`#N`) and metadata (`!N`) are numbered by identity:
//!   a function added to the C source adds lines, and changes no line of the
//!   functions that were there;
//! - every comment LLVM 22's printer writes is recognized as LLVM's own, so
//!   `canon` is idempotent on files that carry them (`; Unknown intrinsic`
//!   was taken for a user comment and printed twice).

mod common;

use std::path::Path;
use std::process::Command;

use common::{canon, clang_to_ll, diff_size, first_diff_labeled};

/// `opt-22 ARGS` on `input`, returning stdout as text.
fn opt(args: &[&str], input: &Path) -> String {
    let out = Command::new("opt-22")
        .args(args)
        .arg(input)
        .output()
        .expect("run opt-22");
    assert!(
        out.status.success(),
        "opt-22 {args:?} {}: {}",
        input.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("opt prints UTF-8")
}

/// A corpus C file with `prefix` put before its text, compiled by clang-22.
/// The C file always has the same path (the module's `source_filename` is
/// content), so callers compile one version after the other.
fn compile_with_prefix(dir: &Path, name: &str, prefix: &str, opt: &str, extra: &[&str]) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name);
    let text = std::fs::read_to_string(&src).unwrap();
    let c = dir.join(name);
    std::fs::write(&c, format!("{prefix}{text}")).unwrap();
    let tag = format!(
        "{:x}",
        common::fnv(format!("{prefix}{opt}{extra:?}").as_bytes())
    );
    let ll = dir.join(format!("{name}.{tag}.ll"));
    clang_to_ll(&c, &ll, opt, extra);
    std::fs::read_to_string(ll).unwrap()
}

/// Lines of `before`'s canonical form missing from `after`'s, for a source
/// edit that only added a function.
fn removed_lines(before: &str, after: &str) -> (usize, String) {
    let a = canon(before, "before.ll").unwrap();
    let b = canon(after, "after.ll").unwrap();
    let (removed, _) = diff_size(&a, &b);
    (removed, first_diff_labeled(&a, &b, 30, "before", "after"))
}

#[test]
fn an_added_function_with_new_attributes_changes_no_other_line() {
    let dir = tempfile::tempdir().unwrap();
    let added = "__attribute__((cold, noinline)) int aaa_added(int x) { return x * 3; }\n";
    for opt in ["-O0", "-O2"] {
        for file in ["loops.c", "structs.c", "strings.c"] {
            let before = compile_with_prefix(dir.path(), file, "", opt, &[]);
            let after = compile_with_prefix(dir.path(), file, added, opt, &[]);
            let (removed, diff) = removed_lines(&before, &after);
            assert_eq!(removed, 0, "{file} {opt}: lines changed\n{diff}");
        }
    }
}

/// Files LLVM 22's printer writes with its own comments in them.
fn printer_outputs(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/canon_rules");
    let unknown = dir.join("unknown.ll");
    std::fs::write(
        &unknown,
        "declare void @llvm.irgit.unknown(i32) nounwind\n\
         define void @f() {\n  call void @llvm.irgit.unknown(i32 1)\n  ret void\n}\n",
    )
    .unwrap();
    out.push(("unknown intrinsic".into(), opt(&["-S"], &unknown)));
    out.push((
        "gc.relocate".into(),
        opt(&["-S"], &rules.join("statepoint.ll")),
    ));
    let c = dir.join("loops.ll");
    clang_to_ll(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/loops.c"),
        &c,
        "-O2",
        &[],
    );
    out.push((
        "use-list orders".into(),
        opt(&["-S", "--preserve-ll-uselistorder"], &c),
    ));
    let bc = dir.join("summary.bc");
    let status = Command::new("opt-22")
        .args(["-module-summary", "-o"])
        .arg(&bc)
        .arg(&c)
        .status()
        .unwrap();
    assert!(status.success());
    let dis = Command::new("llvm-dis-22")
        .arg(&bc)
        .arg("-o")
        .arg("-")
        .output()
        .unwrap();
    out.push((
        "module summary".into(),
        String::from_utf8(dis.stdout).unwrap(),
    ));
    out
}

#[test]
fn llvm_printer_comments_are_never_user_comments() {
    let dir = tempfile::tempdir().unwrap();
    for (what, text) in printer_outputs(dir.path()) {
        assert!(
            text.contains("; ")
                && text
                    .lines()
                    .any(|l| l.contains(" ; ") || l.starts_with("; ")),
            "{what}: expected LLVM's comments in the printed text"
        );
        assert!(
            !irgit::comments::has_user_comments(&text),
            "{what}: a comment LLVM printed is taken for the user's:\n{text}"
        );
        let once = canon(&text, "printed.ll").unwrap();
        let twice = canon(&once, "printed.ll").unwrap();
        assert_eq!(
            once,
            twice,
            "{what}: canon is not idempotent\n{}",
            first_diff_labeled(&once, &twice, 20, "once", "twice")
        );
    }
}

#[test]
fn an_unknown_intrinsic_is_announced_once() {
    let text = "; Unknown intrinsic\ndeclare void @llvm.irgit.unknown(i32)\n";
    let once = canon(text, "u.ll").unwrap();
    let twice = canon(&once, "u.ll").unwrap();
    assert_eq!(once.matches("; Unknown intrinsic").count(), 1, "{once}");
    assert_eq!(once, twice);
}

/// The lines of `a` missing from `b` (a multiset difference).
fn lines_missing(a: &str, b: &str) -> Vec<String> {
    let mut have: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for l in b.lines() {
        *have.entry(l).or_default() += 1;
    }
    a.lines()
        .filter(|l| match have.get_mut(l) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn a_function_added_with_debug_info_renumbers_no_metadata() {
    let dir = tempfile::tempdir().unwrap();
    for opt in ["-O0", "-O2"] {
        for file in ["loops.c", "structs.c", "strings.c"] {
            let before = compile_with_prefix(dir.path(), file, "", opt, &["-g"]);
            // Added at the end: no line of the others moves.
            let src = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/corpus")
                .join(file);
            let text = std::fs::read_to_string(&src).unwrap();
            let c = dir.path().join(file);
            std::fs::write(
                &c,
                format!("{text}\nint zzz_added(int x) {{ return x * 3; }}\n"),
            )
            .unwrap();
            let ll = dir.path().join(format!("{file}.{opt}.added.ll"));
            clang_to_ll(&c, &ll, opt, &["-g"]);
            let after = std::fs::read_to_string(ll).unwrap();
            let a = canon(&before, "before.ll").unwrap();
            let b = canon(&after, "after.ll").unwrap();
            // Only the file's checksum may change: it hashes the source.
            let gone: Vec<String> = lines_missing(&a, &b)
                .into_iter()
                .filter(|l| !l.contains("!DIFile("))
                .collect();
            // A node that now collides with a new one of equal local shape
            // (two functions of one C type) is told apart by its
            // neighbours, and renumbered: a few lines at most, never the
            // cascade of print-order numbering (hundreds).
            assert!(
                gone.len() <= 3,
                "{file} {opt} -g: {} line(s) changed, first: {:?}",
                gone.len(),
                &gone[..gone.len().min(5)]
            );
        }
    }
}

/// `irgit ARGS FILE` as a child process, killed after `limit`: its exit
/// status, or `None` when it did not finish in time.
fn irgit_within(args: &[&str], file: &Path, limit: std::time::Duration) -> Option<bool> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_irgit"))
        .args(args)
        .arg(file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run irgit");
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().expect("wait for irgit") {
            return Some(status.success());
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// More attribute groups than the usual numbers (10,000) have room for:
/// the numbering gives each its own number instead of searching forever
/// for a free one (it hung, and so did any module with more than a million
/// metadata nodes, such as 49 linked copies of Lua at -O2 -g).
#[test]
fn more_attribute_groups_than_the_usual_numbers_all_get_one() {
    const GROUPS: usize = 10_500;
    let mut text = String::from("target triple = \"x86_64-pc-linux-gnu\"\n\n");
    for k in 0..GROUPS {
        text.push_str(&format!("declare void @f{k}() #{k}\n"));
    }
    for k in 0..GROUPS {
        text.push_str(&format!("attributes #{k} = {{ \"group\"=\"{k}\" }}\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("groups.ll");
    std::fs::write(&file, &text).unwrap();
    let limit = std::time::Duration::from_secs(120);
    for args in [&["canon"][..], &["canon", "--view"]] {
        assert_eq!(
            irgit_within(args, &file, limit),
            Some(true),
            "irgit {args:?} on {GROUPS} attribute groups did not finish in {limit:?}"
        );
    }
    let canonical = canon(&text, "groups.ll").unwrap();
    let numbers: std::collections::HashSet<&str> = canonical
        .lines()
        .filter_map(|l| l.strip_prefix("attributes #")?.split_once(' '))
        .map(|(n, _)| n)
        .collect();
    assert_eq!(numbers.len(), GROUPS, "every group has its own number");
}
