; RUN: opt -S -passes=instcombine %s | FileCheck %s
; A counted loop: instcombine leaves the PHIs alone and folds the
; redundant mask inside the body.

; CHECK-LABEL: define i32 @sum(
; CHECK: phi i32
; CHECK-NOT: and i32 {{.*}}, -1
; CHECK: ret i32
define i32 @sum(i32 %n) {
entry:
  br label %loop

loop:                                   ; preds = %loop, %entry
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  ; masking with all ones does nothing
  %masked = and i32 %i, -1
  %acc.next = add i32 %acc, %masked
  %i.next = add nuw i32 %i, 1
  %done = icmp eq i32 %i.next, %n ; exit test
  br i1 %done, label %exit, label %loop

exit:                                   ; the only exit
  ret i32 %acc.next
}
