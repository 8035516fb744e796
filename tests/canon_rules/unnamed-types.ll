; Unnamed struct types are printed by number (`%0`, `%1`), in the order the
; printer first meets them: a position, not an identity. Canonical names
; must not depend on it (nor on the address LLVM prints for such a type
; outside a module), so canonicalizing twice changes nothing.
; RUN: irgit canon %s | FileCheck %s

%0 = type { i32, i64 }
%1 = type { %0, ptr }
%2 = type { i8, %0 }
%named = type { %1, i16 }

@.fmt = private constant [8 x i8] c"%d %ld\0A\00"
@table = global %1 { %0 { i32 7, i64 11 }, ptr @.fmt }
@spare = global %2 { i8 1, %0 { i32 2, i64 3 } }
@wrap = global %named zeroinitializer

declare i32 @printf(ptr, ...)

define internal i64 @field_sum(ptr %p) {
; CHECK-LABEL: define internal i64 @field_sum(
; CHECK: load [[T:%[0-9]+]], ptr
; CHECK: getelementptr [[T]], ptr
entry:
  %cell = alloca %1
  %inner = getelementptr %0, ptr %p, i32 0, i32 1
  %wide = load i64, ptr %inner
  %whole = load %0, ptr %p
  %narrow = extractvalue %0 %whole, 0
  %narrow.w = sext i32 %narrow to i64
  store %0 %whole, ptr %cell
  %back = load i64, ptr %inner
  %sum = add i64 %wide, %narrow.w
  %total = add i64 %sum, %back
  ret i64 %total
}

define i32 @main() {
entry:
  %a = call i64 @field_sum(ptr @table)
  %b.p = getelementptr %2, ptr @spare, i32 0, i32 1
  %b = call i64 @field_sum(ptr %b.p)
  %c = load i32, ptr @table
  %d = add i64 %a, %b
  %shown = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %c, i64 %d)
  ret i32 0
}
