; PHIs are grouped at the top of their block. Their order among themselves
; carries no meaning (they are sorted), nor does the order of incoming
; pairs; what follows them is ordered by the def-use walk. The entry
; block's leading allocas stay first, in their order.
; RUN: irgit canon %s | FileCheck %s

@.fmt = private constant [7 x i8] c"%d %d\0A\00"

declare i32 @printf(ptr, ...)

define i32 @main() {
; CHECK-LABEL: define i32 @main(
; CHECK-NEXT: entry:
; CHECK-NEXT: alloca i32
; CHECK-NEXT: alloca i64
; CHECK: {{.*}}:
; CHECK-NEXT: phi i32
; CHECK-NEXT: phi i32
; CHECK-NEXT: phi i32
; CHECK-NOT: = phi
; CHECK: ret i32 0
entry:
  %slot = alloca i32
  %wide = alloca i64
  store i32 3, ptr %slot
  store i64 0, ptr %wide
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %fib.a = phi i32 [ 0, %entry ], [ %fib.b, %body ]
  %fib.b = phi i32 [ 1, %entry ], [ %fib.c, %body ]
  %i.next = add i32 %i, 1
  %limit = load i32, ptr %slot
  %more = icmp slt i32 %i, 10
  br i1 %more, label %body, label %exit

body:
  %fib.c = add i32 %fib.a, %fib.b
  %w = load i64, ptr %wide
  %w.next = add i64 %w, 1
  store i64 %w.next, ptr %wide
  br label %loop

exit:
  %count = load i64, ptr %wide
  %c32 = trunc i64 %count to i32
  %extra = mul i32 %limit, %c32
  %shown = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %fib.a, i32 %extra)
  ret i32 0
}
