; Convergence control tokens (ConvergentOperations.rst). The verifier
; requires that `llvm.experimental.convergence.entry` is not preceded by
; a convergent operation in the entry block, and that token regions nest:
; a token may only be used while no token defined after it is still in use.
; Both depend on the order of the convergent operations, although each of
; them is `memory(none)`; they keep their relative order.
; RUN: irgit canon %s | FileCheck %s

declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.anchor()
declare i32 @lane_sum(i32) convergent nounwind memory(none)
declare i32 @lane_first(i32) convergent nounwind memory(none)

define i32 @nested(i32 %x, i32 %y) convergent {
; CHECK-LABEL: define i32 @nested(
; CHECK-NEXT: entry:
; CHECK-NEXT: [[E:%.*]] = call token @llvm.experimental.convergence.entry()
; CHECK: [[A:%.*]] = call token @llvm.experimental.convergence.anchor()
; CHECK: call i32 @lane_sum(i32 {{.*}}) [ "convergencectrl"(token [[A]]) ]
; CHECK: call i32 @lane_first(i32 {{.*}}) [ "convergencectrl"(token [[E]]) ]
entry:
  %t.entry = call token @llvm.experimental.convergence.entry()
  %t.inner = call token @llvm.experimental.convergence.anchor()
  %scaled = mul i32 %x, 5
  %s = call i32 @lane_sum(i32 %scaled) [ "convergencectrl"(token %t.inner) ]
  %mixed = add i32 %s, %y
  %f = call i32 @lane_first(i32 %mixed) [ "convergencectrl"(token %t.entry) ]
  %r = sub i32 %f, %x
  ret i32 %r
}

define i32 @two_anchors(i32 %x) convergent {
; CHECK-LABEL: define i32 @two_anchors(
; CHECK: [[A1:%.*]] = call token @llvm.experimental.convergence.anchor()
; CHECK-NEXT: [[A2:%.*]] = call token @llvm.experimental.convergence.anchor()
; CHECK: call i32 @lane_sum(i32 {{.*}}) [ "convergencectrl"(token [[A2]]) ]
; CHECK: call i32 @lane_sum(i32 {{.*}}) [ "convergencectrl"(token [[A1]]) ]
entry:
  %a1 = call token @llvm.experimental.convergence.anchor()
  %a2 = call token @llvm.experimental.convergence.anchor()
  %inner = call i32 @lane_sum(i32 %x) [ "convergencectrl"(token %a2) ]
  %outer = call i32 @lane_sum(i32 %inner) [ "convergencectrl"(token %a1) ]
  ret i32 %outer
}
