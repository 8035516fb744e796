; A statepoint and the gc.result / gc.relocate calls tied to its token.
; The statepoint reads and writes all memory; the relocates and the result
; follow it in their order, with nothing moved in between, and the pointers
; they return are the only valid ones after the safepoint.
; RUN: irgit canon %s | FileCheck %s

declare i32 @compute(ptr addrspace(1))
declare void @store_back(ptr addrspace(1), i32)

define ptr addrspace(1) @safepoint(ptr addrspace(1) %obj, ptr addrspace(1) %other) gc "statepoint-example" {
; CHECK-LABEL: define ptr addrspace(1) @safepoint(
; CHECK: [[SP:%.*]] = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(
; CHECK-NEXT: {{%.*}} = call i32 @llvm.experimental.gc.result.i32(token [[SP]])
; CHECK-NEXT: {{%.*}} = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token [[SP]], i32 0, i32 0)
; CHECK-NEXT: {{%.*}} = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token [[SP]], i32 1, i32 1)
entry:
  %field = getelementptr i8, ptr addrspace(1) %obj, i64 16
  %sp = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(i32 (ptr addrspace(1))) @compute, i32 1, i32 0, ptr addrspace(1) %field, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %obj, ptr addrspace(1) %other) ]
  %res = call i32 @llvm.experimental.gc.result.i32(token %sp)
  %obj.moved = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %sp, i32 0, i32 0)
  %other.moved = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %sp, i32 1, i32 1)
  %doubled = shl i32 %res, 1
  call void @store_back(ptr addrspace(1) %other.moved, i32 %doubled)
  ret ptr addrspace(1) %obj.moved
}

declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare i32 @llvm.experimental.gc.result.i32(token)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
