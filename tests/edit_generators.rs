//! The edit generator of the real-edit benchmarks (`tests/common/c_edits.rs`)
//! makes the edits it claims to make.

mod common;

use common::c_edits::{apply_edits, c_functions, candidates, CEditKind};

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
