//! The edit generators of the real-edit and test-edit benchmarks
//! (`tests/common/c_edits.rs`, `tests/common/ll_edits.rs`) make the edits
//! they claim to make, and the IR ones give valid IR.

mod common;

use common::c_edits::{apply_edits, c_functions, candidates, CEditKind};
use common::ll_edits::{is_valid_ir, ll_candidates, LlEditKind};

const C: &str = "\
static int sum(int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * 3;
  s++;
  return s;
}

int main(void) {
  int v[2] = {1, 2};
  return sum(v, 2);
}
";

#[test]
fn c_functions_are_found_with_their_first_parameter() {
    let fs = c_functions(C);
    let names: Vec<(&str, Option<&str>)> = fs
        .iter()
        .map(|f| (f.name.as_str(), f.first_param.as_deref()))
        .collect();
    assert_eq!(names, [("sum", Some("a")), ("main", None)]);
}

#[test]
fn c_edits_change_what_their_kind_says() {
    let first = |k| candidates(C, k).into_iter().next().expect("a candidate");
    let constant = first(CEditKind::Constant);
    assert_eq!(constant.inserted, ["  int s = 1;"]);
    let op = first(CEditKind::Operator);
    assert_eq!(op.inserted, ["  for (int i = 0; i <= n; i++)"]);
    // The unbraced loop body is no statement of its own; `s++;` is.
    let ins = first(CEditKind::InsertStatement);
    assert_eq!((ins.start, ins.inserted.len()), (4, 2));
    let del = first(CEditKind::DeleteStatement);
    assert_eq!((del.start, del.inserted.len()), (4, 0));
    let guard = first(CEditKind::AddIf);
    assert_eq!(guard.inserted, ["  if (a != 0) s++;"]);
    // `main` has no parameter to test.
    assert!(candidates(C, CEditKind::AddIf)
        .iter()
        .all(|e| e.func == "sum"));
}

#[test]
fn two_c_edits_combine_in_either_order() {
    let a = &candidates(C, CEditKind::DeleteStatement)[0];
    let b = candidates(C, CEditKind::Constant)
        .into_iter()
        .find(|e| e.func == "main")
        .unwrap();
    let both = apply_edits(C, &[a, &b]);
    assert_eq!(both, apply_edits(C, &[&b, a]));
    assert!(!both.contains("  s++;") && both.contains("int v[3] = {1, 2};"));
}

const LL: &str = "\
; RUN: opt -S %s | FileCheck %s
; CHECK-LABEL: @f(
define i32 @f(i32 %0, i32 %x) {
  %2 = add nsw i32 %0, 1
  %sum = mul i32 %2, %x
  %dead = xor i32 %x, 7
  %3 = sub i32 %sum, 3
  br label %4

4:
  %5 = add i32 %3, %2
  ret i32 %5
}
";

#[test]
fn unnamed_insert_renumbers_the_values_below_it() {
    let edits = ll_candidates(LL, LlEditKind::UnnamedInsert);
    let first = edits.first().expect("an unnamed insert");
    assert!(
        first.contains("  %3 = add i32 %2, 1\n  %sum = mul i32 %2, %x\n  %dead = xor i32 %x, 7\n  %4 = sub i32 %sum, 3\n  br label %5\n\n5:\n  %6 = add i32 %4, %2"),
        "{first}"
    );
    assert!(edits.iter().all(|e| is_valid_ir(e)), "{edits:?}");
}

#[test]
fn ir_edits_of_each_kind_are_valid_and_differ() {
    assert!(is_valid_ir(LL));
    for kind in LlEditKind::ALL {
        let valid: Vec<String> = ll_candidates(LL, kind)
            .into_iter()
            .filter(|e| is_valid_ir(e))
            .collect();
        // No function calls @f, so deleting it is valid too.
        assert!(!valid.is_empty(), "no valid {kind:?} edit");
        assert!(valid.iter().all(|e| e != LL), "{kind:?} changed nothing");
    }
    let renamed = &ll_candidates(LL, LlEditKind::Rename)[0];
    assert!(renamed.contains("%sum.renamed = mul") && renamed.contains("; CHECK-LABEL: @f("));
    let copied = &ll_candidates(LL, LlEditKind::CopyFunction)[0];
    assert!(copied.contains("; CHECK-LABEL: @f.copy(\ndefine i32 @f.copy("));
    let deleted = &ll_candidates(LL, LlEditKind::DeleteFunction)[0];
    assert!(!deleted.contains("CHECK-LABEL") && !deleted.contains("define"));
    assert!(
        deleted.starts_with("; RUN:"),
        "the RUN line stays: {deleted}"
    );
}
