; RUN: opt -S -passes=instcombine %s | FileCheck %s

; A select between equal values is that value.
; CHECK-LABEL: @same_arms(
; CHECK-NEXT: entry:
; CHECK-NEXT: ret i32 [[Y:%.*]]
define i32 @same_arms(i1 %c, i32 %y) {
entry:
  %s = select i1 %c, i32 %y, i32 %y
  ret i32 %s
}

; Comparing a value with itself is always true.
; CHECK-LABEL: @self_compare(
; CHECK-NEXT: entry:
; CHECK-NEXT: ret i1 true
define i1 @self_compare(i32 %x) {
entry:
  %c = icmp eq i32 %x, %x ; always true
  ret i1 %c
}

; CHECK-LABEL: @not_not(
; CHECK-NEXT: entry:
; CHECK-NEXT: ret i32 [[X:%.*]]
define i32 @not_not(i32 %x) {
entry:
  %n = xor i32 %x, -1
  %nn = xor i32 %n, -1 ; double negation
  ret i32 %nn
}
