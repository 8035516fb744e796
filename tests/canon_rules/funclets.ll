; Funclet EH pads (catchswitch, catchpad, cleanuppad) must each be the
; first non-PHI instruction of their block; a catchswitch block holds
; nothing but PHIs and the catchswitch. Calls inside a funclet carry its
; token in a "funclet" operand bundle.
; RUN: irgit canon %s | FileCheck %s

target triple = "x86_64-pc-windows-msvc"

declare i32 @__CxxFrameHandler3(...)
declare void @may_throw(i32)
declare void @release(ptr)
declare i32 @observe(i32)

define i32 @guarded(i32 %x, ptr %res) personality ptr @__CxxFrameHandler3 {
; CHECK-LABEL: define i32 @guarded(
; CHECK: [[CS:%.*]] = catchswitch within none [label %{{.*}}] unwind label %{{.*}}
; CHECK: {{^}}bb.{{.*}}:
; CHECK-NEXT: [[CL:%.*]] = cleanuppad within none []
; CHECK: call void @release(ptr {{.*}}) [ "funclet"(token [[CL]]) ]
; CHECK-NEXT: cleanupret from [[CL]] unwind to caller
; CHECK: {{^}}bb.{{.*}}:
; CHECK-NEXT: [[CP:%.*]] = catchpad within [[CS]] [ptr null, i32 64, ptr null]
entry:
  %twice = shl i32 %x, 1
  invoke void @may_throw(i32 %twice)
          to label %ok unwind label %dispatch

ok:
  %plus = add i32 %x, 1
  invoke void @may_throw(i32 %plus)
          to label %done unwind label %dispatch

dispatch:
  %which = phi i32 [ 1, %entry ], [ 2, %ok ]
  %cs = catchswitch within none [label %catch] unwind label %cleanup

catch:
  %cp = catchpad within %cs [ptr null, i32 64, ptr null]
  %noted = call i32 @observe(i32 %which) [ "funclet"(token %cp) ]
  catchret from %cp to label %done

cleanup:
  %cl = cleanuppad within none []
  %slot = getelementptr i8, ptr %res, i64 8
  call void @release(ptr %slot) [ "funclet"(token %cl) ]
  cleanupret from %cl unwind to caller

done:
  %r = phi i32 [ 0, %ok ], [ 3, %catch ]
  ret i32 %r
}
