; `llvm.experimental.convergence.loop` is the heart of a cycle: it sits in
; the cycle's header, after the PHIs and before any convergent operation
; of that block, and takes the token of the enclosing region.
; RUN: irgit canon %s | FileCheck %s

declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.loop()
declare i32 @ballot(i1) convergent nounwind memory(none)

define i32 @loop_heart(i32 %n) convergent {
; CHECK-LABEL: define i32 @loop_heart(
; CHECK: phi i32
; CHECK: phi i32
; CHECK-NEXT: [[H:%.*]] = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token [[E:%.*]]) ]
; CHECK: call i32 @ballot(i1 {{.*}}) [ "convergencectrl"(token [[H]]) ]
entry:
  %tok = call token @llvm.experimental.convergence.entry()
  br label %header

header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %header ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %header ]
  %heart = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %tok) ]
  %i.next = add i32 %i, 1
  %odd = trunc i32 %i to i1
  %votes = call i32 @ballot(i1 %odd) [ "convergencectrl"(token %heart) ]
  %acc.next = add i32 %acc, %votes
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %header, label %exit

exit:
  ret i32 %acc.next
}
