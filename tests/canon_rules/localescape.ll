; `llvm.localescape` may only appear in the entry block (once), and only
; for static allocas; a funclet or outlined helper reaches them with
; `llvm.localrecover`. The entry block stays first and keeps its allocas.
; RUN: irgit canon %s | FileCheck %s

declare void @llvm.localescape(...)
declare ptr @llvm.localrecover(ptr, ptr, i32)
declare ptr @llvm.frameaddress.p0(i32)
declare void @use(ptr)

define void @helper() {
; CHECK-LABEL: define void @helper(
; CHECK: call ptr @llvm.localrecover(ptr @parent, ptr {{.*}}, i32 1)
entry:
  %fp = call ptr @llvm.frameaddress.p0(i32 1)
  %slot = call ptr @llvm.localrecover(ptr @parent, ptr %fp, i32 1)
  call void @use(ptr %slot)
  ret void
}

define void @parent(i32 %x) {
; CHECK-LABEL: define void @parent(
; CHECK-NEXT: entry:
; CHECK-NEXT: [[A:%.*]] = alloca i32
; CHECK-NEXT: [[B:%.*]] = alloca i64
; CHECK: call void (...) @llvm.localescape(ptr [[A]], ptr [[B]])
entry:
  %a = alloca i32
  %b = alloca i64
  %y = add i32 %x, 1
  call void (...) @llvm.localescape(ptr %a, ptr %b)
  store i32 %y, ptr %a
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %then, label %done

then:
  call void @use(ptr %b)
  br label %done

done:
  ret void
}

