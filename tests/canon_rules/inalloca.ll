; An `inalloca` argument is an alloca made just for one call, between a
; stack save and a stack restore: the save, the allocas, the stores that
; fill the argument memory, the call and the restore keep their order.
; RUN: irgit canon %s | FileCheck %s

target triple = "i686-pc-windows-msvc"

%Pair = type { i32, i32 }

declare void @consume(ptr inalloca(<{ %Pair, i32 }>))
declare ptr @llvm.stacksave.p0()
declare void @llvm.stackrestore.p0(ptr)

define void @pass_by_inalloca(i32 %a, i32 %b) {
; CHECK-LABEL: define void @pass_by_inalloca(
; CHECK: [[SP:%.*]] = call ptr @llvm.stacksave.p0()
; CHECK-NEXT: [[ARGS:%.*]] = alloca inalloca <{ %Pair, i32 }>
; CHECK: store i32 {{.*}}, ptr [[ARGS]]
; CHECK: call void @consume(ptr inalloca(<{ %Pair, i32 }>) [[ARGS]])
; CHECK-NEXT: call void @llvm.stackrestore.p0(ptr [[SP]])
entry:
  %sum = add i32 %a, %b
  %sp = call ptr @llvm.stacksave.p0()
  %args = alloca inalloca <{ %Pair, i32 }>
  %second = getelementptr <{ %Pair, i32 }>, ptr %args, i32 0, i32 0, i32 1
  %last = getelementptr <{ %Pair, i32 }>, ptr %args, i32 0, i32 1
  store i32 %a, ptr %args
  store i32 %b, ptr %second
  store i32 %sum, ptr %last
  call void @consume(ptr inalloca(<{ %Pair, i32 }>) %args)
  call void @llvm.stackrestore.p0(ptr %sp)
  %diff = sub i32 %a, %b
  call void @consume(ptr inalloca(<{ %Pair, i32 }>) null)
  ret void
}
