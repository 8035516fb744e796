; A switch-resumed coroutine before CoroSplit. The coroutine intrinsics
; mark its structure: where the frame is made (id, size, alloc, begin),
; each suspend point (save, suspend), and where it ends (free, end). They
; keep their order, even those LLVM considers free of side effects
; (`llvm.coro.size`, `llvm.coro.frame`). A thread-local address taken
; after a suspend point is the resumed thread's, so
; `llvm.threadlocal.address` stays on its side of the suspend too.
; RUN: irgit canon %s | FileCheck %s

@.fmt = private constant [7 x i8] c"%d %d\0A\00"
@ticks = thread_local global i32 0

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

define internal ptr @counter(i32 %start) presplitcoroutine {
; CHECK-LABEL: define internal ptr @counter(
; CHECK: call token @llvm.coro.id(
; CHECK: call i64 @llvm.coro.size.i64()
; CHECK: call ptr @llvm.coro.begin(
; CHECK: call ptr @llvm.coro.frame()
; CHECK: call ptr @llvm.threadlocal.address.p0(ptr @ticks)
; CHECK: call token @llvm.coro.save(
; CHECK-NEXT: call i8 @llvm.coro.suspend(
; CHECK: call ptr @llvm.coro.free(
; CHECK: call void @llvm.coro.end(
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %frame = call ptr @llvm.coro.frame()
  %same = icmp eq ptr %frame, %hdl
  br label %loop

loop:
  %n = phi i32 [ %start, %entry ], [ %n.next, %resume ]
  %tls = call ptr @llvm.threadlocal.address.p0(ptr @ticks)
  %old = load i32, ptr %tls
  %bumped = add i32 %old, 1
  store i32 %bumped, ptr %tls
  %printed = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %n, i32 %bumped)
  %n.next = add i32 %n, 2
  %save = call token @llvm.coro.save(ptr %hdl)
  %s = call i8 @llvm.coro.suspend(token %save, i1 false)
  switch i8 %s, label %out [i8 0, label %resume
                            i8 1, label %cleanup]

resume:
  br i1 %same, label %loop, label %cleanup

cleanup:
  %to.free = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %to.free)
  br label %out

out:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
entry:
  %h = call ptr @counter(i32 10)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.frame()
declare token @llvm.coro.save(ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare void @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare ptr @llvm.threadlocal.address.p0(ptr)
