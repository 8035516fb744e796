; `blockaddress(@f, %bb)` names a block of a function by its label. Labels
; are renamed by canonicalization, function by function, so a hash that
; reads the label would see the input's label in one run and the canonical
; one in the next. A jump table (a private constant) and the functions using
; it must name the same no matter which function was canonicalized first.
; RUN: irgit canon %s | FileCheck %s

@.fmt = private constant [4 x i8] c"%d\0A\00"
@table = private constant [3 x ptr] [ptr blockaddress(@dispatch, %one), ptr blockaddress(@dispatch, %two), ptr blockaddress(@dispatch, %three)]

declare i32 @printf(ptr, ...)

define internal ptr @address_of_two() {
; CHECK-LABEL: define internal ptr @address_of_two(
; CHECK: ret ptr blockaddress(@dispatch, %[[TWO:bb\.[0-9a-f]+]])
entry:
  ret ptr blockaddress(@dispatch, %two)
}

define internal i32 @dispatch(i32 %which) {
; CHECK-LABEL: define internal i32 @dispatch(
; CHECK: indirectbr ptr {{%.*}}, [label %{{.*}}, label %{{.*}}, label %{{.*}}]
; CHECK: [[TWO]]:
; CHECK-NEXT: ret i32 20
entry:
  %slot = getelementptr [3 x ptr], ptr @table, i32 0, i32 %which
  %target = load ptr, ptr %slot
  indirectbr ptr %target, [label %one, label %two, label %three]

one:
  ret i32 10

two:
  ret i32 20

three:
  ret i32 30
}

define i32 @main() {
entry:
  %a = call i32 @dispatch(i32 0)
  %b = call i32 @dispatch(i32 2)
  %direct = call ptr @address_of_two()
  %same = icmp eq ptr %direct, blockaddress(@dispatch, %two)
  %bonus = zext i1 %same to i32
  %s = add i32 %a, %b
  %t = add i32 %s, %bonus
  %shown = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %t)
  ret i32 0
}
