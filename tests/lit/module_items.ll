; RUN: opt -S %s | FileCheck %s
; Module-level items keep their comments too: globals, declarations,
; attribute groups and metadata.

target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"

; CHECK: @table = constant [3 x i32] [i32 1, i32 2, i32 3]
@table = constant [3 x i32] [i32 1, i32 2, i32 3] ; lookup table
@.str = private unnamed_addr constant [6 x i8] c"a;b;c\00" ; not a comment inside

; the external helper
declare void @helper(ptr) #0

; CHECK-LABEL: define void @use(
; CHECK: call void @helper(ptr @.str{{.*}})
define void @use() #0 {
  call void @helper(ptr @.str), !annotation !0 ; annotated call
  ret void
}

; CHECK: attributes #0 = { nounwind }
attributes #0 = { nounwind } ; shared by both

; metadata for the call
!0 = !{!"note"}
