; Unnamed globals and functions (`@0`, `@1`) are printed by their position
; in the module. Canonical names of the values that use them, and the
; order of the module, come from what they are (kind, linkage, type,
; initializer; a function's signature and body), not from their numbers.
; RUN: irgit canon %s | FileCheck %s

%0 = type { i32, ptr }

@0 = internal global i32 5
@1 = internal global i32 9
@2 = internal constant %0 { i32 3, ptr @1 }
@3 = global ptr @0
@.fmt = private constant [10 x i8] c"%d %d %d\0A\00"

declare i32 @printf(ptr, ...)

define internal i32 @4(i32 %x) {
entry:
  %y = mul i32 %x, 2
  ret i32 %y
}

define internal i32 @5(i32 %x) {
entry:
  %y = add i32 %x, 100
  ret i32 %y
}

define i32 @main() {
; CHECK-LABEL: define i32 @main(
; CHECK: load i32, ptr @{{[0-9]+}}
; CHECK: call i32 @{{[0-9]+}}(i32
entry:
  %a = load i32, ptr @0
  %b = load i32, ptr @1
  %p = load ptr, ptr @3
  %c = load i32, ptr %p
  %q = getelementptr %0, ptr @2, i32 0, i32 1
  %qq = load ptr, ptr %q
  %d = load i32, ptr %qq
  %e = call i32 @4(i32 %a)
  %f = call i32 @5(i32 %b)
  %g = add i32 %c, %d
  %shown = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %e, i32 %f, i32 %g)
  ret i32 0
}
