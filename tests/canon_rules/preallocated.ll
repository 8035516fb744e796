; `llvm.call.preallocated.setup` makes the argument memory of one call;
; `llvm.call.preallocated.arg` hands out each argument's slot; the call
; names the setup token in a "preallocated" bundle. Setup, args, the
; stores into the slots and the call keep their order.
; RUN: irgit canon %s | FileCheck %s

%Big = type { i64, i64, i64 }

declare void @takes(ptr preallocated(%Big), ptr preallocated(%Big))
declare token @llvm.call.preallocated.setup(i32)
declare ptr @llvm.call.preallocated.arg(token, i32)

define void @caller(i64 %x) {
; CHECK-LABEL: define void @caller(
; CHECK: [[T:%.*]] = call token @llvm.call.preallocated.setup(i32 2)
; CHECK-NEXT: [[A0:%.*]] = call ptr @llvm.call.preallocated.arg(token [[T]], i32 0) #{{[0-9]+}}
; CHECK: [[A1:%.*]] = call ptr @llvm.call.preallocated.arg(token [[T]], i32 1) #{{[0-9]+}}
; CHECK: call void @takes(ptr preallocated(%Big) [[A0]], ptr preallocated(%Big) [[A1]]) [ "preallocated"(token [[T]]) ]
entry:
  %y = mul i64 %x, 3
  %t = call token @llvm.call.preallocated.setup(i32 2)
  %a0 = call ptr @llvm.call.preallocated.arg(token %t, i32 0) preallocated(%Big)
  store i64 %x, ptr %a0
  %a1 = call ptr @llvm.call.preallocated.arg(token %t, i32 1) preallocated(%Big)
  store i64 %y, ptr %a1
  call void @takes(ptr preallocated(%Big) %a0, ptr preallocated(%Big) %a1) [ "preallocated"(token %t) ]
  ret void
}
