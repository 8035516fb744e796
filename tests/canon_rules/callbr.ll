; `callbr` (asm goto) is a terminator. In an indirect destination,
; `llvm.callbr.landingpad` must be the very first instruction: the verifier
; says no other instruction may precede it.
; RUN: irgit canon %s | FileCheck %s

declare i32 @llvm.callbr.landingpad.i32(i32)

define i32 @asm_goto(i32 %x) {
; CHECK-LABEL: define i32 @asm_goto(
; CHECK: [[OUT:%.*]] = callbr i32 asm "", "=r,r,!i"(i32 {{.*}})
; CHECK-NEXT: to label %{{.*}} [label %{{.*}}]
; CHECK: {{^}}bb.{{.*}}:
; CHECK-NEXT: mul i32 [[OUT]], 2
; CHECK: {{^}}bb.{{.*}}:
; CHECK-NEXT: {{%.*}} = call i32 @llvm.callbr.landingpad.i32(i32 [[OUT]])
entry:
  %in = add i32 %x, 1
  %out = callbr i32 asm "", "=r,r,!i"(i32 %in)
          to label %direct [label %indirect]

direct:
  %d = mul i32 %out, 2
  ret i32 %d

indirect:
  %lp = call i32 @llvm.callbr.landingpad.i32(i32 %out)
  %k = sub i32 %lp, %x
  %m = xor i32 %k, 3
  ret i32 %m
}
