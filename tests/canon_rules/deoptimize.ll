; A call to @llvm.experimental.deoptimize must be followed directly by a
; `ret` (of its result, when it has one). The verifier rejects anything in
; between, so a computation that is used nowhere in the block must not be
; parked between the call and the return.
; RUN: irgit canon %s | FileCheck %s

declare void @llvm.experimental.deoptimize.isVoid(...)
declare i32 @llvm.experimental.deoptimize.i32(...)
declare void @sink(i32)

define i32 @deopt_value(i32 %a, i32 %b, i1 %c) {
; CHECK-LABEL: define i32 @deopt_value(
; CHECK: [[R:%.*]] = call i32 (...) @llvm.experimental.deoptimize.i32(i32 [[X:%.*]]) [ "deopt"(i32 [[Y:%.*]]) ]
; CHECK-NEXT: ret i32 [[R]]
entry:
  br i1 %c, label %slow, label %fast

fast:
  %sum = add i32 %a, %b
  ret i32 %sum

slow:
  %diff = sub i32 %a, %b
  %twice = shl i32 %diff, 1
  %other = mul i32 %a, 3
  call void @sink(i32 %other)
  %left = xor i32 %a, %b
  %r = call i32 (...) @llvm.experimental.deoptimize.i32(i32 %twice) [ "deopt"(i32 %diff) ]
  ret i32 %r
}

define void @deopt_void(i64 %wide, ptr %p) {
; CHECK-LABEL: define void @deopt_void(
; CHECK: call void (...) @llvm.experimental.deoptimize.isVoid(i32 0) [ "deopt"(i32 [[T:%.*]]) ]
; CHECK-NEXT: ret void
entry:
  %narrow = trunc i64 %wide to i32
  %unused = add i32 %narrow, 7
  %loaded = load i32, ptr %p
  call void (...) @llvm.experimental.deoptimize.isVoid(i32 0) [ "deopt"(i32 %loaded) ]
  ret void
}

