; RUN: opt -S -passes=gvn %s | FileCheck %s
; GVN removes the second load of the same address when nothing is stored
; in between, but keeps the one after the store.

@counter = global i32 0 ; shared state

; CHECK-LABEL: @twice(
; CHECK: load i32, ptr @counter
; CHECK-NOT: load i32, ptr @counter
; CHECK: store i32
; CHECK: ret i32
define i32 @twice() {
  %a = load i32, ptr @counter, align 4
  %b = load i32, ptr @counter, align 4 ; redundant
  %s = add i32 %a, %b
  store i32 %s, ptr @counter, align 4
  ret i32 %s
}

; CHECK-LABEL: @after_store(
; CHECK: store i32 1, ptr @counter
; CHECK-NEXT: ret i32 1
define i32 @after_store() {
  store i32 1, ptr @counter, align 4
  ; forwarded from the store
  %v = load i32, ptr @counter, align 4
  ret i32 %v
}
