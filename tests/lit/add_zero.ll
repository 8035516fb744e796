; RUN: opt -S -passes=instcombine %s | FileCheck %s
;
; instcombine folds x + 0 and x * 1; the checks are written the way
; update_test_checks.py writes them, on top of each function body.

define i32 @add_zero(i32 %x) {
; CHECK-LABEL: @add_zero(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret i32 [[X:%.*]]
;
entry:
  %a = add i32 %x, 0 ; folds to %x
  ret i32 %a
}

define i32 @mul_one_then_add(i32 %x, i32 %y) {
; CHECK-LABEL: @mul_one_then_add(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[S:%.*]] = add i32 [[X:%.*]], [[Y:%.*]]
; CHECK-NEXT:    ret i32 [[S]]
;
entry:
  ; the multiply is the identity
  %m = mul i32 %x, 1
  %s = add i32 %m, %y   ; only this add survives
  ret i32 %s
  ; nothing after the return
}

; End of the file: both functions are checked above.
