; ModuleID = 'basic.go'
source_filename = "basic.go"
target datalayout = "e-m:e-p:32:32-p10:8:8-p20:8:8-i64:64-n32:64-S128-ni:1:10:20"
target triple = "wasm32-unknown-wasi"

%main.kv.0 = type { i8, i32, i32, i32 }

declare void @runtime.trackPointer(ptr nocapture readonly, ptr) #0

; Function Attrs: nounwind
define hidden void @main.foo(ptr %context) unnamed_addr #1 {
entry:
  %complit = alloca %main.kv.0, align 8
  store %main.kv.0 zeroinitializer, ptr %complit, align 8
  call void @runtime.trackPointer(ptr nonnull %complit, ptr undef) #2
  call void @"main.foo$1"(%main.kv.0 zeroinitializer, ptr undef)
  ret void
}

; Function Attrs: nounwind
define internal void @"main.foo$1"(%main.kv.0 %b, ptr %context) unnamed_addr #1 {
entry:
  %b1 = alloca %main.kv.0, align 8
  store %main.kv.0 zeroinitializer, ptr %b1, align 8
  call void @runtime.trackPointer(ptr nonnull %b1, ptr undef) #2
  store %main.kv.0 %b, ptr %b1, align 8
  ret void
}

attributes #0 = { "target-features"="+bulk-memory,+nontrapping-fptoint,+sign-ext" }
attributes #1 = { nounwind "target-features"="+bulk-memory,+nontrapping-fptoint,+sign-ext" }
attributes #2 = { nounwind }
