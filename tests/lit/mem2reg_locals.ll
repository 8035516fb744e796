; RUN: opt -S -passes=mem2reg %s | FileCheck %s
; clang -O0 style code: every local lives in an alloca. mem2reg promotes
; them to SSA values.

; CHECK-LABEL: @max(
; CHECK-NOT: alloca
; CHECK: [[R:%.*]] = phi i32
; CHECK: ret i32 [[R]]
define i32 @max(i32 %a, i32 %b) {
entry:
  %a.addr = alloca i32, align 4
  %b.addr = alloca i32, align 4
  %r = alloca i32, align 4
  store i32 %a, ptr %a.addr, align 4
  store i32 %b, ptr %b.addr, align 4
  %0 = load i32, ptr %a.addr, align 4
  %1 = load i32, ptr %b.addr, align 4
  %cmp = icmp sgt i32 %0, %1 ; a > b ?
  br i1 %cmp, label %then, label %else

then:
  ; take a
  %2 = load i32, ptr %a.addr, align 4
  store i32 %2, ptr %r, align 4
  br label %end

else:
  %3 = load i32, ptr %b.addr, align 4
  store i32 %3, ptr %r, align 4
  br label %end

end:
  %4 = load i32, ptr %r, align 4
  ret i32 %4
  ; the result was stored on both paths
}
