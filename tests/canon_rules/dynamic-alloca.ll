; Dynamic allocas inside a loop body are released by a stack restore at the
; end of each iteration; the save, the alloca, its uses and the restore
; keep their order. The program prints the same before and after.
; RUN: irgit canon %s | FileCheck %s

@.fmt = private constant [4 x i8] c"%d\0A\00"

declare i32 @printf(ptr, ...)
declare ptr @llvm.stacksave.p0()
declare void @llvm.stackrestore.p0(ptr)

define i32 @main() {
; CHECK-LABEL: define i32 @main(
; CHECK: [[SP:%.*]] = call ptr @llvm.stacksave.p0()
; CHECK: [[BUF:%.*]] = alloca i32, i32 [[N:%.*]]
; CHECK: call void @llvm.stackrestore.p0(ptr [[SP]])
entry:
  br label %loop

loop:
  %i = phi i32 [ 1, %entry ], [ %i.next, %loop ]
  %total = phi i32 [ 0, %entry ], [ %total.next, %loop ]
  %sp = call ptr @llvm.stacksave.p0()
  %count = add i32 %i, 2
  %buf = alloca i32, i32 %count
  %last = getelementptr i32, ptr %buf, i32 %i
  store i32 %i, ptr %buf
  store i32 %count, ptr %last
  %first.v = load i32, ptr %buf
  %last.v = load i32, ptr %last
  call void @llvm.stackrestore.p0(ptr %sp)
  %both = mul i32 %first.v, %last.v
  %total.next = add i32 %total, %both
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, 6
  br i1 %more, label %loop, label %exit

exit:
  %shown = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %total.next)
  ret i32 0
}
