; Private constants are named by content (`.str.<hash>`), whatever their
; input numbering. A private table that points at other private constants
; is hashed by what they hold, not by their names: names are being
; rewritten in the same pass, and the table's name must not depend on
; whether its strings were renamed before it.
; RUN: irgit canon %s | FileCheck %s

@.names = private constant [3 x ptr] [ptr @.str.7, ptr @.str.2, ptr @.str.7]
@.str.7 = private constant [6 x i8] c"alpha\00"
@.str.2 = private constant [5 x i8] c"beta\00"
@.str.4 = private constant [4 x i8] c"%s\0A\00"
@.picked = private constant ptr @.names

declare i32 @printf(ptr, ...)

define i32 @main() {
; CHECK-LABEL: define i32 @main(
; CHECK: call i32 (ptr, ...) @printf(ptr @.str.{{[0-9a-f]+}}, ptr
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %table = load ptr, ptr @.picked
  %slot = getelementptr [3 x ptr], ptr %table, i64 0, i64 %i
  %name = load ptr, ptr %slot
  %shown = call i32 (ptr, ...) @printf(ptr @.str.4, ptr %name)
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 3
  br i1 %more, label %loop, label %done

done:
  ret i32 0
}
