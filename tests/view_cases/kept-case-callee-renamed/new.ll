; ModuleID = '/tmp/build/a.out.bc'
target datalayout = "e-p:32:32:32-i64:64:64-n32-S128"
target triple = "asmjs-unknown-emscripten"

@.fmt = private unnamed_addr constant [10 x i8] c"sid = %d\0A\00", align 1
@.fmt2 = private unnamed_addr constant [8 x i8] c"g = %d\0A\00", align 1

define internal i32 @_Z1gi(i32) noinline {
  %2 = tail call i32 @setsid()
  %3 = icmp sgt i32 %2, %0
  br i1 %3, label %4, label %6

; <label>:4                                       ; preds = %1
  %5 = tail call i32 @setsid()
  br label %6

; <label>:6                                       ; preds = %4, %1
  %.0 = phi i32 [ 2, %4 ], [ 3, %1 ]
  ret i32 %.0
}

declare i32 @setsid()

define i32 @main() {
  %1 = tail call i32 @setsid()
  %2 = tail call i32 (i8*, ...) @printf(i8* getelementptr inbounds ([10 x i8], [10 x i8]* @.fmt, i32 0, i32 0), i32 %1)
  %3 = tail call i32 @_Z1gi(i32 %1)
  %4 = tail call i32 (i8*, ...) @printf(i8* getelementptr inbounds ([8 x i8], [8 x i8]* @.fmt2, i32 0, i32 0), i32 %3)
  ret i32 0
}

declare i32 @printf(i8* nocapture, ...) nounwind
