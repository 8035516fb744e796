; RUN: opt -passes=sroa -S %s | FileCheck %s
; Clang's -O0 -g output with unnamed values: SROA promotes the struct and the
; arrays and turns their #dbg_declare records into #dbg_value.
;
; CHECK-LABEL: define dso_local i32 @span(
; CHECK-NOT: alloca
; CHECK: #dbg_value(
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
define dso_local i32 @span(i32 noundef %0, i32 noundef %1) #0 !dbg !10 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca %struct.pair, align 4
  store i32 %0, ptr %3, align 4
    #dbg_declare(ptr %3, !15, !DIExpression(), !16)
  store i32 %1, ptr %4, align 4
    #dbg_declare(ptr %4, !17, !DIExpression(), !18)
    #dbg_declare(ptr %5, !19, !DIExpression(), !24)
  %6 = load i32, ptr %3, align 4, !dbg !25
  %7 = load i32, ptr %4, align 4, !dbg !26
  %8 = icmp slt i32 %6, %7, !dbg !27
  br i1 %8, label %9, label %11, !dbg !25

9:                                                ; preds = %2
  %10 = load i32, ptr %3, align 4, !dbg !28
  br label %13, !dbg !25

11:                                               ; preds = %2
  %12 = load i32, ptr %4, align 4, !dbg !29
  br label %13, !dbg !25

13:                                               ; preds = %11, %9
  %14 = phi i32 [ %10, %9 ], [ %12, %11 ], !dbg !25
  %15 = getelementptr inbounds nuw %struct.pair, ptr %5, i32 0, i32 0, !dbg !30
  store i32 %14, ptr %15, align 4, !dbg !31
  %16 = load i32, ptr %3, align 4, !dbg !32
  %17 = load i32, ptr %4, align 4, !dbg !33
  %18 = icmp slt i32 %16, %17, !dbg !34
  br i1 %18, label %19, label %21, !dbg !32

19:                                               ; preds = %13
  %20 = load i32, ptr %4, align 4, !dbg !35
  br label %23, !dbg !32

21:                                               ; preds = %13
  %22 = load i32, ptr %3, align 4, !dbg !36
  br label %23, !dbg !32

23:                                               ; preds = %21, %19
  %24 = phi i32 [ %20, %19 ], [ %22, %21 ], !dbg !32
  %25 = getelementptr inbounds nuw %struct.pair, ptr %5, i32 0, i32 1, !dbg !37
  store i32 %24, ptr %25, align 4, !dbg !38
  %26 = getelementptr inbounds nuw %struct.pair, ptr %5, i32 0, i32 1, !dbg !39
  %27 = load i32, ptr %26, align 4, !dbg !39
  %28 = getelementptr inbounds nuw %struct.pair, ptr %5, i32 0, i32 0, !dbg !40
  %29 = load i32, ptr %28, align 4, !dbg !40
  %30 = sub nsw i32 %27, %29, !dbg !41
  ret i32 %30, !dbg !42
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @dot3(i32 noundef %0, i32 noundef %1, i32 noundef %2, i32 noundef %3, i32 noundef %4, i32 noundef %5) #0 !dbg !43 {
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
    #dbg_declare(ptr %7, !46, !DIExpression(), !47)
  store i32 %1, ptr %8, align 4
    #dbg_declare(ptr %8, !48, !DIExpression(), !49)
  store i32 %2, ptr %9, align 4
    #dbg_declare(ptr %9, !50, !DIExpression(), !51)
  store i32 %3, ptr %10, align 4
    #dbg_declare(ptr %10, !52, !DIExpression(), !53)
  store i32 %4, ptr %11, align 4
    #dbg_declare(ptr %11, !54, !DIExpression(), !55)
  store i32 %5, ptr %12, align 4
    #dbg_declare(ptr %12, !56, !DIExpression(), !57)
    #dbg_declare(ptr %13, !58, !DIExpression(), !62)
  %17 = load i32, ptr %7, align 4, !dbg !63
  store i32 %17, ptr %13, align 4, !dbg !64
  %18 = getelementptr inbounds i32, ptr %13, i64 1, !dbg !64
  %19 = load i32, ptr %8, align 4, !dbg !65
  store i32 %19, ptr %18, align 4, !dbg !64
  %20 = getelementptr inbounds i32, ptr %13, i64 2, !dbg !64
  %21 = load i32, ptr %9, align 4, !dbg !66
  store i32 %21, ptr %20, align 4, !dbg !64
    #dbg_declare(ptr %14, !67, !DIExpression(), !68)
  %22 = load i32, ptr %10, align 4, !dbg !69
  store i32 %22, ptr %14, align 4, !dbg !70
  %23 = getelementptr inbounds i32, ptr %14, i64 1, !dbg !70
  %24 = load i32, ptr %11, align 4, !dbg !71
  store i32 %24, ptr %23, align 4, !dbg !70
  %25 = getelementptr inbounds i32, ptr %14, i64 2, !dbg !70
  %26 = load i32, ptr %12, align 4, !dbg !72
  store i32 %26, ptr %25, align 4, !dbg !70
    #dbg_declare(ptr %15, !73, !DIExpression(), !74)
  store i32 0, ptr %15, align 4, !dbg !74
    #dbg_declare(ptr %16, !75, !DIExpression(), !77)
  store i32 0, ptr %16, align 4, !dbg !77
  br label %27, !dbg !78

27:                                               ; preds = %42, %6
  %28 = load i32, ptr %16, align 4, !dbg !79
  %29 = icmp slt i32 %28, 3, !dbg !81
  br i1 %29, label %30, label %45, !dbg !82

30:                                               ; preds = %27
  %31 = load i32, ptr %16, align 4, !dbg !83
  %32 = sext i32 %31 to i64, !dbg !84
  %33 = getelementptr inbounds [3 x i32], ptr %13, i64 0, i64 %32, !dbg !84
  %34 = load i32, ptr %33, align 4, !dbg !84
  %35 = load i32, ptr %16, align 4, !dbg !85
  %36 = sext i32 %35 to i64, !dbg !86
  %37 = getelementptr inbounds [3 x i32], ptr %14, i64 0, i64 %36, !dbg !86
  %38 = load i32, ptr %37, align 4, !dbg !86
  %39 = mul nsw i32 %34, %38, !dbg !87
  %40 = load i32, ptr %15, align 4, !dbg !88
  %41 = add nsw i32 %40, %39, !dbg !88
  store i32 %41, ptr %15, align 4, !dbg !88
  br label %42, !dbg !89

42:                                               ; preds = %30
  %43 = load i32, ptr %16, align 4, !dbg !90
  %44 = add nsw i32 %43, 1, !dbg !90
  store i32 %44, ptr %16, align 4, !dbg !90
  br label %27, !dbg !91, !llvm.loop !92

45:                                               ; preds = %27
  %46 = load i32, ptr %15, align 4, !dbg !95
  ret i32 %46, !dbg !96
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "pair.c", directory: "/irgit-tests", checksumkind: CSK_MD5, checksum: "97da56102ec66785b49727daec919522")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!10 = distinct !DISubprogram(name: "span", scope: !1, file: !1, line: 3, type: !11, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !13, !13}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !{}
!15 = !DILocalVariable(name: "a", arg: 1, scope: !10, file: !1, line: 3, type: !13)
!16 = !DILocation(line: 3, column: 14, scope: !10)
!17 = !DILocalVariable(name: "b", arg: 2, scope: !10, file: !1, line: 3, type: !13)
!18 = !DILocation(line: 3, column: 21, scope: !10)
!19 = !DILocalVariable(name: "p", scope: !10, file: !1, line: 4, type: !20)
!20 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "pair", file: !1, line: 1, size: 64, elements: !21)
!21 = !{!22, !23}
!22 = !DIDerivedType(tag: DW_TAG_member, name: "lo", scope: !20, file: !1, line: 1, baseType: !13, size: 32)
!23 = !DIDerivedType(tag: DW_TAG_member, name: "hi", scope: !20, file: !1, line: 1, baseType: !13, size: 32, offset: 32)
!24 = !DILocation(line: 4, column: 15, scope: !10)
!25 = !DILocation(line: 5, column: 10, scope: !10)
!26 = !DILocation(line: 5, column: 14, scope: !10)
!27 = !DILocation(line: 5, column: 12, scope: !10)
!28 = !DILocation(line: 5, column: 18, scope: !10)
!29 = !DILocation(line: 5, column: 22, scope: !10)
!30 = !DILocation(line: 5, column: 5, scope: !10)
!31 = !DILocation(line: 5, column: 8, scope: !10)
!32 = !DILocation(line: 6, column: 10, scope: !10)
!33 = !DILocation(line: 6, column: 14, scope: !10)
!34 = !DILocation(line: 6, column: 12, scope: !10)
!35 = !DILocation(line: 6, column: 18, scope: !10)
!36 = !DILocation(line: 6, column: 22, scope: !10)
!37 = !DILocation(line: 6, column: 5, scope: !10)
!38 = !DILocation(line: 6, column: 8, scope: !10)
!39 = !DILocation(line: 7, column: 12, scope: !10)
!40 = !DILocation(line: 7, column: 19, scope: !10)
!41 = !DILocation(line: 7, column: 15, scope: !10)
!42 = !DILocation(line: 7, column: 3, scope: !10)
!43 = distinct !DISubprogram(name: "dot3", scope: !1, file: !1, line: 10, type: !44, scopeLine: 10, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!44 = !DISubroutineType(types: !45)
!45 = !{!13, !13, !13, !13, !13, !13, !13}
!46 = !DILocalVariable(name: "x0", arg: 1, scope: !43, file: !1, line: 10, type: !13)
!47 = !DILocation(line: 10, column: 14, scope: !43)
!48 = !DILocalVariable(name: "x1", arg: 2, scope: !43, file: !1, line: 10, type: !13)
!49 = !DILocation(line: 10, column: 22, scope: !43)
!50 = !DILocalVariable(name: "x2", arg: 3, scope: !43, file: !1, line: 10, type: !13)
!51 = !DILocation(line: 10, column: 30, scope: !43)
!52 = !DILocalVariable(name: "y0", arg: 4, scope: !43, file: !1, line: 10, type: !13)
!53 = !DILocation(line: 10, column: 38, scope: !43)
!54 = !DILocalVariable(name: "y1", arg: 5, scope: !43, file: !1, line: 10, type: !13)
!55 = !DILocation(line: 10, column: 46, scope: !43)
!56 = !DILocalVariable(name: "y2", arg: 6, scope: !43, file: !1, line: 10, type: !13)
!57 = !DILocation(line: 10, column: 54, scope: !43)
!58 = !DILocalVariable(name: "v", scope: !43, file: !1, line: 11, type: !59)
!59 = !DICompositeType(tag: DW_TAG_array_type, baseType: !13, size: 96, elements: !60)
!60 = !{!61}
!61 = !DISubrange(count: 3)
!62 = !DILocation(line: 11, column: 7, scope: !43)
!63 = !DILocation(line: 11, column: 15, scope: !43)
!64 = !DILocation(line: 11, column: 14, scope: !43)
!65 = !DILocation(line: 11, column: 19, scope: !43)
!66 = !DILocation(line: 11, column: 23, scope: !43)
!67 = !DILocalVariable(name: "w", scope: !43, file: !1, line: 12, type: !59)
!68 = !DILocation(line: 12, column: 7, scope: !43)
!69 = !DILocation(line: 12, column: 15, scope: !43)
!70 = !DILocation(line: 12, column: 14, scope: !43)
!71 = !DILocation(line: 12, column: 19, scope: !43)
!72 = !DILocation(line: 12, column: 23, scope: !43)
!73 = !DILocalVariable(name: "s", scope: !43, file: !1, line: 13, type: !13)
!74 = !DILocation(line: 13, column: 7, scope: !43)
!75 = !DILocalVariable(name: "i", scope: !76, file: !1, line: 14, type: !13)
!76 = distinct !DILexicalBlock(scope: !43, file: !1, line: 14, column: 3)
!77 = !DILocation(line: 14, column: 12, scope: !76)
!78 = !DILocation(line: 14, column: 8, scope: !76)
!79 = !DILocation(line: 14, column: 19, scope: !80)
!80 = distinct !DILexicalBlock(scope: !76, file: !1, line: 14, column: 3)
!81 = !DILocation(line: 14, column: 21, scope: !80)
!82 = !DILocation(line: 14, column: 3, scope: !76)
!83 = !DILocation(line: 15, column: 12, scope: !80)
!84 = !DILocation(line: 15, column: 10, scope: !80)
!85 = !DILocation(line: 15, column: 19, scope: !80)
!86 = !DILocation(line: 15, column: 17, scope: !80)
!87 = !DILocation(line: 15, column: 15, scope: !80)
!88 = !DILocation(line: 15, column: 7, scope: !80)
!89 = !DILocation(line: 15, column: 5, scope: !80)
!90 = !DILocation(line: 14, column: 27, scope: !80)
!91 = !DILocation(line: 14, column: 3, scope: !80)
!92 = distinct !{!92, !82, !93, !94}
!93 = !DILocation(line: 15, column: 20, scope: !76)
!94 = !{!"llvm.loop.mustprogress"}
!95 = !DILocation(line: 16, column: 10, scope: !43)
!96 = !DILocation(line: 16, column: 3, scope: !43)
