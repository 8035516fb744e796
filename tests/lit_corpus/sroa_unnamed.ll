; RUN: opt -passes=sroa -S %s | FileCheck %s
; Clang's -O0 output with unnamed values (%0, %1, ...): SROA splits the struct
; and the arrays into scalars.
;
; CHECK-LABEL: define dso_local i32 @span(
; CHECK-NOT: alloca
; CHECK: ret i32
; CHECK-LABEL: define dso_local i32 @dot3(
;
; Written for irgit's test-edit benchmark (not taken from LLVM): clang-22 output of
; this C source, with the RUN and CHECK lines above added by hand:
;   struct pair { int lo, hi; };
;
;   int span(int a, int b) {
;     struct pair p;
;     p.lo = a < b ? a : b;
;     p.hi = a < b ? b : a;
;     return p.hi - p.lo;
;   }
;
;   int dot3(int x0, int x1, int x2, int y0, int y1, int y2) {
;     int v[3] = {x0, x1, x2};
;     int w[3] = {y0, y1, y2};
;     int s = 0;
;     for (int i = 0; i < 3; i++)
;       s += v[i] * w[i];
;     return s;
;   }

source_filename = "pair.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.pair = type { i32, i32 }

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @span(i32 noundef %0, i32 noundef %1) #0 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca %struct.pair, align 4
  store i32 %0, ptr %3, align 4
  store i32 %1, ptr %4, align 4
  %6 = load i32, ptr %3, align 4
  %7 = load i32, ptr %4, align 4
  %8 = icmp slt i32 %6, %7
  br i1 %8, label %9, label %11

9:                                                ; preds = %2
  %10 = load i32, ptr %3, align 4
  br label %13

11:                                               ; preds = %2
  %12 = load i32, ptr %4, align 4
  br label %13

13:                                               ; preds = %11, %9
  %14 = phi i32 [ %10, %9 ], [ %12, %11 ]
  %15 = getelementptr inbounds nuw %struct.pair, ptr %5, i32 0, i32 0
  store i32 %14, ptr %15, align 4
  %16 = load i32, ptr %3, align 4
  %17 = load i32, ptr %4, align 4
  %18 = icmp slt i32 %16, %17
  br i1 %18, label %19, label %21

19:                                               ; preds = %13
  %20 = load i32, ptr %4, align 4
  br label %23

21:                                               ; preds = %13
  %22 = load i32, ptr %3, align 4
  br label %23

23:                                               ; preds = %21, %19
  %24 = phi i32 [ %20, %19 ], [ %22, %21 ]
  %25 = getelementptr inbounds nuw %struct.pair, ptr %5, i32 0, i32 1
  store i32 %24, ptr %25, align 4
  %26 = getelementptr inbounds nuw %struct.pair, ptr %5, i32 0, i32 1
  %27 = load i32, ptr %26, align 4
  %28 = getelementptr inbounds nuw %struct.pair, ptr %5, i32 0, i32 0
  %29 = load i32, ptr %28, align 4
  %30 = sub nsw i32 %27, %29
  ret i32 %30
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @dot3(i32 noundef %0, i32 noundef %1, i32 noundef %2, i32 noundef %3, i32 noundef %4, i32 noundef %5) #0 {
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca [3 x i32], align 4
  %14 = alloca [3 x i32], align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  store i32 %0, ptr %7, align 4
  store i32 %1, ptr %8, align 4
  store i32 %2, ptr %9, align 4
  store i32 %3, ptr %10, align 4
  store i32 %4, ptr %11, align 4
  store i32 %5, ptr %12, align 4
  %17 = load i32, ptr %7, align 4
  store i32 %17, ptr %13, align 4
  %18 = getelementptr inbounds i32, ptr %13, i64 1
  %19 = load i32, ptr %8, align 4
  store i32 %19, ptr %18, align 4
  %20 = getelementptr inbounds i32, ptr %13, i64 2
  %21 = load i32, ptr %9, align 4
  store i32 %21, ptr %20, align 4
  %22 = load i32, ptr %10, align 4
  store i32 %22, ptr %14, align 4
  %23 = getelementptr inbounds i32, ptr %14, i64 1
  %24 = load i32, ptr %11, align 4
  store i32 %24, ptr %23, align 4
  %25 = getelementptr inbounds i32, ptr %14, i64 2
  %26 = load i32, ptr %12, align 4
  store i32 %26, ptr %25, align 4
  store i32 0, ptr %15, align 4
  store i32 0, ptr %16, align 4
  br label %27

27:                                               ; preds = %42, %6
  %28 = load i32, ptr %16, align 4
  %29 = icmp slt i32 %28, 3
  br i1 %29, label %30, label %45

30:                                               ; preds = %27
  %31 = load i32, ptr %16, align 4
  %32 = sext i32 %31 to i64
  %33 = getelementptr inbounds [3 x i32], ptr %13, i64 0, i64 %32
  %34 = load i32, ptr %33, align 4
  %35 = load i32, ptr %16, align 4
  %36 = sext i32 %35 to i64
  %37 = getelementptr inbounds [3 x i32], ptr %14, i64 0, i64 %36
  %38 = load i32, ptr %37, align 4
  %39 = mul nsw i32 %34, %38
  %40 = load i32, ptr %15, align 4
  %41 = add nsw i32 %40, %39
  store i32 %41, ptr %15, align 4
  br label %42

42:                                               ; preds = %30
  %43 = load i32, ptr %16, align 4
  %44 = add nsw i32 %43, 1
  store i32 %44, ptr %16, align 4
  br label %27, !llvm.loop !6

45:                                               ; preds = %27
  %46 = load i32, ptr %15, align 4
  ret i32 %46
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
