; RUN: opt -passes=gvn -S %s | FileCheck %s
; Written for irgit's test-edit benchmark: GVN removes a load that a store
; or an earlier load already gave, and a recomputed expression; the CHECK
; lines are in the style update_test_checks.py writes.

define i32 @store_then_load(ptr %p, i32 %v) {
; CHECK-LABEL: define i32 @store_then_load(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    store i32 [[V:%.*]], ptr [[P:%.*]], align 4
; CHECK-NEXT:    [[DOUBLED:%.*]] = shl i32 [[V]], 1
; CHECK-NEXT:    ret i32 [[DOUBLED]]
;
entry:
  store i32 %v, ptr %p, align 4
  %reload = load i32, ptr %p, align 4
  %doubled = shl i32 %reload, 1
  ret i32 %doubled
}

define i32 @load_twice(ptr %p) {
; CHECK-LABEL: define i32 @load_twice(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[FIRST:%.*]] = load i32, ptr [[P:%.*]], align 4
; CHECK-NEXT:    [[SUM:%.*]] = add i32 [[FIRST]], [[FIRST]]
; CHECK-NEXT:    ret i32 [[SUM]]
;
entry:
  %first = load i32, ptr %p, align 4
  %second = load i32, ptr %p, align 4
  %sum = add i32 %first, %second
  ret i32 %sum
}

define i32 @same_expression(i32 %a, i32 %b, i1 %c) {
; CHECK-LABEL: define i32 @same_expression(
; CHECK:       then:
; CHECK-NEXT:    [[Z:%.*]] = add i32 [[X:%.*]], 7
; CHECK-NEXT:    br label [[JOIN:%.*]]
; CHECK:       join:
; CHECK-NEXT:    [[R:%.*]] = phi i32
;
entry:
  %x = mul i32 %a, %b
  br i1 %c, label %then, label %join

then:
  %y = mul i32 %a, %b
  %z = add i32 %y, 7
  br label %join

join:
  %r = phi i32 [ %x, %entry ], [ %z, %then ]
  %out = xor i32 %r, %x
  ret i32 %out
}

define i64 @widen_and_mask(i32 %n) {
; CHECK-LABEL: define i64 @widen_and_mask(
; CHECK:         [[W:%.*]] = zext i32 [[N:%.*]] to i64
; CHECK-NOT:     zext
; CHECK:         ret i64
;
entry:
  %w = zext i32 %n to i64
  %w2 = zext i32 %n to i64
  %m = and i64 %w, 4095
  %s = add i64 %m, %w2
  ret i64 %s
}
