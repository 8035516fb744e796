; A `musttail` call must be followed by the `ret` (optionally with one
; bitcast of the call's result in between), and that `ret` must return
; the call's (bitcast) result. Nothing else may be placed between them;
; the rest of the block is canonicalized as usual.
; RUN: irgit canon %s | FileCheck %s

@.fmt = private constant [4 x i8] c"%d\0A\00"

declare i32 @printf(ptr, ...)

define internal i32 @count_down(i32 %n, i32 %acc) {
; CHECK-LABEL: define internal i32 @count_down(
; CHECK: [[R:%.*]] = musttail call i32 @count_down(i32 [[A:%.*]], i32 [[B:%.*]])
; CHECK-NEXT: ret i32 [[R]]
entry:
  %done = icmp eq i32 %n, 0
  br i1 %done, label %finish, label %again

finish:
  ret i32 %acc

again:
  %next = sub i32 %n, 1
  %scaled = mul i32 %acc, 3
  %unused = xor i32 %n, %acc
  %sum = add i32 %scaled, %n
  %r = musttail call i32 @count_down(i32 %next, i32 %sum)
  ret i32 %r
}

define internal ptr @pick(ptr %a, ptr %b, i1 %which) {
; CHECK-LABEL: define internal ptr @pick(
; CHECK: [[R:%.*]] = musttail call ptr @choose(ptr [[X:%.*]], ptr [[Y:%.*]], i1 [[W:%.*]])
; CHECK-NEXT: [[C:%.*]] = bitcast ptr [[R]] to ptr
; CHECK-NEXT: ret ptr [[C]]
entry:
  %flip = xor i1 %which, true
  %other = getelementptr i8, ptr %a, i64 1
  %r = musttail call ptr @choose(ptr %other, ptr %b, i1 %flip)
  %c = bitcast ptr %r to ptr
  ret ptr %c
}

define internal ptr @choose(ptr %a, ptr %b, i1 %which) {
entry:
  %r = select i1 %which, ptr %a, ptr %b
  ret ptr %r
}

define i32 @main() {
entry:
  %v = call i32 @count_down(i32 5, i32 1)
  %x = alloca [2 x i8]
  %y = alloca i8
  %p = call ptr @pick(ptr %x, ptr %y, i1 true)
  %same = icmp eq ptr %p, %y
  %z = zext i1 %same to i32
  %out = add i32 %v, %z
  %ignored = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %out)
  ret i32 0
}
