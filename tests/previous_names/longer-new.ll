; ModuleID = '/tmp/.tmpVbCJi4/clang-input.c'
source_filename = "/tmp/.tmpVbCJi4/clang-input.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [16 x i8] c"sum_to(100)=%d\0A\00", align 1
@.str.1 = private unnamed_addr constant [18 x i8] c"triangle(40)=%ld\0A\00", align 1

; Function Attrs: nofree noreturn nounwind uwtable
define dso_local noundef i32 @main() local_unnamed_addr #0 {
  %1 = tail call i32 (ptr, ...) @printf(ptr noundef nonnull dereferenceable(1) @.str, i32 noundef 338251)
  br label %2

2:                                                ; preds = %40, %0
  %3 = phi i32 [ 1, %0 ], [ %43, %40 ]
  %4 = phi i32 [ 0, %0 ], [ %42, %40 ]
  %5 = phi i64 [ 0, %0 ], [ %41, %40 ]
  %6 = icmp samesign ult i32 %3, 4
  br i1 %6, label %37, label %7

7:                                                ; preds = %2
  %8 = and i32 %3, 2147483644
  %9 = insertelement <2 x i64> <i64 poison, i64 0>, i64 %5, i64 0
  %10 = insertelement <2 x i32> poison, i32 %4, i64 0
  %11 = shufflevector <2 x i32> %10, <2 x i32> poison, <2 x i32> zeroinitializer
  br label %12

12:                                               ; preds = %12, %7
  %13 = phi i32 [ 0, %7 ], [ %30, %12 ]
  %14 = phi <2 x i32> [ <i32 0, i32 1>, %7 ], [ %31, %12 ]
  %15 = phi <2 x i64> [ %9, %7 ], [ %28, %12 ]
  %16 = phi <2 x i64> [ zeroinitializer, %7 ], [ %29, %12 ]
  %17 = add <2 x i32> %14, splat (i32 2)
  %18 = xor <2 x i32> %14, %11
  %19 = xor <2 x i32> %17, %11
  %20 = and <2 x i32> %14, %11
  %21 = and <2 x i32> %17, %11
  %22 = shl nuw nsw <2 x i32> %20, splat (i32 1)
  %23 = shl nuw nsw <2 x i32> %21, splat (i32 1)
  %24 = add nuw nsw <2 x i32> %22, %18
  %25 = add nuw nsw <2 x i32> %23, %19
  %26 = zext nneg <2 x i32> %24 to <2 x i64>
  %27 = zext nneg <2 x i32> %25 to <2 x i64>
  %28 = add <2 x i64> %15, %26
  %29 = add <2 x i64> %16, %27
  %30 = add nuw i32 %13, 4
  %31 = add <2 x i32> %14, splat (i32 4)
  %32 = icmp eq i32 %30, %8
  br i1 %32, label %33, label %12, !llvm.loop !9

33:                                               ; preds = %12
  %34 = add <2 x i64> %29, %28
  %35 = tail call i64 @llvm.vector.reduce.add.v2i64(<2 x i64> %34)
  %36 = icmp eq i32 %3, %8
  br i1 %36, label %40, label %37

37:                                               ; preds = %2, %33
  %38 = phi i32 [ 0, %2 ], [ %8, %33 ]
  %39 = phi i64 [ %5, %2 ], [ %35, %33 ]
  br label %45

40:                                               ; preds = %45, %33
  %41 = phi i64 [ %35, %33 ], [ %53, %45 ]
  %42 = add nuw nsw i32 %4, 1
  %43 = add nuw nsw i32 %3, 1
  %44 = icmp eq i32 %42, 40
  br i1 %44, label %56, label %2, !llvm.loop !13

45:                                               ; preds = %37, %45
  %46 = phi i32 [ %54, %45 ], [ %38, %37 ]
  %47 = phi i64 [ %53, %45 ], [ %39, %37 ]
  %48 = xor i32 %46, %4
  %49 = and i32 %46, %4
  %50 = shl nuw nsw i32 %49, 1
  %51 = add nuw nsw i32 %50, %48
  %52 = zext nneg i32 %51 to i64
  %53 = add nsw i64 %47, %52
  %54 = add nuw nsw i32 %46, 1
  %55 = icmp eq i32 %54, %3
  br i1 %55, label %40, label %45, !llvm.loop !14

56:                                               ; preds = %40
  %57 = tail call i32 (ptr, ...) @printf(ptr noundef nonnull dereferenceable(1) @.str.1, i64 noundef %41)
  br label %58

58:                                               ; preds = %58, %56
  br label %58
}

; Function Attrs: nofree nounwind
declare noundef i32 @printf(ptr noundef readonly captures(none), ...) local_unnamed_addr #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.vector.reduce.add.v2i64(<2 x i64>) #2

attributes #0 = { nofree noreturn nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
!llvm.errno.tbaa = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = distinct !{!9, !10, !11, !12}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{!"llvm.loop.isvectorized", i32 1}
!12 = !{!"llvm.loop.unroll.runtime.disable"}
!13 = distinct !{!13, !10}
!14 = distinct !{!14, !10, !12, !11}
