; RUN: opt -passes=mem2reg -S %s | FileCheck %s
; mem2reg turns the locals of clamp and absdiff into PHIs and their
; #dbg_declare records into #dbg_value.
;
; CHECK-LABEL: define dso_local i32 @clamp(
; CHECK-NOT: alloca
; CHECK: #dbg_value(i32 %v,
; CHECK: %r.0 = phi i32
; CHECK: %r.1 = phi i32
; CHECK-LABEL: define dso_local i32 @absdiff(
; CHECK: %d.0 = phi i32
;
; Written for irgit's test-edit benchmark (not taken from LLVM): clang-22 output of
; this C source, with the RUN and CHECK lines above added by hand:
;   int clamp(int v, int lo, int hi) {
;     int r = v;
;     if (r < lo)
;       r = lo;
;     if (r > hi)
;       r = hi;
;     return r;
;   }
;
;   int absdiff(int a, int b) {
;     int d = a - b;
;     if (d < 0)
;       d = -d;
;     return d;
;   }

source_filename = "clamp.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @clamp(i32 noundef %v, i32 noundef %lo, i32 noundef %hi) #0 !dbg !10 {
entry:
  %v.addr = alloca i32, align 4
  %lo.addr = alloca i32, align 4
  %hi.addr = alloca i32, align 4
  %r = alloca i32, align 4
  store i32 %v, ptr %v.addr, align 4
    #dbg_declare(ptr %v.addr, !15, !DIExpression(), !16)
  store i32 %lo, ptr %lo.addr, align 4
    #dbg_declare(ptr %lo.addr, !17, !DIExpression(), !18)
  store i32 %hi, ptr %hi.addr, align 4
    #dbg_declare(ptr %hi.addr, !19, !DIExpression(), !20)
    #dbg_declare(ptr %r, !21, !DIExpression(), !22)
  %0 = load i32, ptr %v.addr, align 4, !dbg !23
  store i32 %0, ptr %r, align 4, !dbg !22
  %1 = load i32, ptr %r, align 4, !dbg !24
  %2 = load i32, ptr %lo.addr, align 4, !dbg !26
  %cmp = icmp slt i32 %1, %2, !dbg !27
  br i1 %cmp, label %if.then, label %if.end, !dbg !27

if.then:                                          ; preds = %entry
  %3 = load i32, ptr %lo.addr, align 4, !dbg !28
  store i32 %3, ptr %r, align 4, !dbg !29
  br label %if.end, !dbg !30

if.end:                                           ; preds = %if.then, %entry
  %4 = load i32, ptr %r, align 4, !dbg !31
  %5 = load i32, ptr %hi.addr, align 4, !dbg !33
  %cmp1 = icmp sgt i32 %4, %5, !dbg !34
  br i1 %cmp1, label %if.then2, label %if.end3, !dbg !34

if.then2:                                         ; preds = %if.end
  %6 = load i32, ptr %hi.addr, align 4, !dbg !35
  store i32 %6, ptr %r, align 4, !dbg !36
  br label %if.end3, !dbg !37

if.end3:                                          ; preds = %if.then2, %if.end
  %7 = load i32, ptr %r, align 4, !dbg !38
  ret i32 %7, !dbg !39
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @absdiff(i32 noundef %a, i32 noundef %b) #0 !dbg !40 {
entry:
  %a.addr = alloca i32, align 4
  %b.addr = alloca i32, align 4
  %d = alloca i32, align 4
  store i32 %a, ptr %a.addr, align 4
    #dbg_declare(ptr %a.addr, !43, !DIExpression(), !44)
  store i32 %b, ptr %b.addr, align 4
    #dbg_declare(ptr %b.addr, !45, !DIExpression(), !46)
    #dbg_declare(ptr %d, !47, !DIExpression(), !48)
  %0 = load i32, ptr %a.addr, align 4, !dbg !49
  %1 = load i32, ptr %b.addr, align 4, !dbg !50
  %sub = sub nsw i32 %0, %1, !dbg !51
  store i32 %sub, ptr %d, align 4, !dbg !48
  %2 = load i32, ptr %d, align 4, !dbg !52
  %cmp = icmp slt i32 %2, 0, !dbg !54
  br i1 %cmp, label %if.then, label %if.end, !dbg !54

if.then:                                          ; preds = %entry
  %3 = load i32, ptr %d, align 4, !dbg !55
  %sub1 = sub nsw i32 0, %3, !dbg !56
  store i32 %sub1, ptr %d, align 4, !dbg !57
  br label %if.end, !dbg !58

if.end:                                           ; preds = %if.then, %entry
  %4 = load i32, ptr %d, align 4, !dbg !59
  ret i32 %4, !dbg !60
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "clamp.c", directory: "/irgit-tests", checksumkind: CSK_MD5, checksum: "f8c031148daaa72c9159c8c820e95665")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!10 = distinct !DISubprogram(name: "clamp", scope: !1, file: !1, line: 1, type: !11, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !13, !13, !13}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !{}
!15 = !DILocalVariable(name: "v", arg: 1, scope: !10, file: !1, line: 1, type: !13)
!16 = !DILocation(line: 1, column: 15, scope: !10)
!17 = !DILocalVariable(name: "lo", arg: 2, scope: !10, file: !1, line: 1, type: !13)
!18 = !DILocation(line: 1, column: 22, scope: !10)
!19 = !DILocalVariable(name: "hi", arg: 3, scope: !10, file: !1, line: 1, type: !13)
!20 = !DILocation(line: 1, column: 30, scope: !10)
!21 = !DILocalVariable(name: "r", scope: !10, file: !1, line: 2, type: !13)
!22 = !DILocation(line: 2, column: 7, scope: !10)
!23 = !DILocation(line: 2, column: 11, scope: !10)
!24 = !DILocation(line: 3, column: 7, scope: !25)
!25 = distinct !DILexicalBlock(scope: !10, file: !1, line: 3, column: 7)
!26 = !DILocation(line: 3, column: 11, scope: !25)
!27 = !DILocation(line: 3, column: 9, scope: !25)
!28 = !DILocation(line: 4, column: 9, scope: !25)
!29 = !DILocation(line: 4, column: 7, scope: !25)
!30 = !DILocation(line: 4, column: 5, scope: !25)
!31 = !DILocation(line: 5, column: 7, scope: !32)
!32 = distinct !DILexicalBlock(scope: !10, file: !1, line: 5, column: 7)
!33 = !DILocation(line: 5, column: 11, scope: !32)
!34 = !DILocation(line: 5, column: 9, scope: !32)
!35 = !DILocation(line: 6, column: 9, scope: !32)
!36 = !DILocation(line: 6, column: 7, scope: !32)
!37 = !DILocation(line: 6, column: 5, scope: !32)
!38 = !DILocation(line: 7, column: 10, scope: !10)
!39 = !DILocation(line: 7, column: 3, scope: !10)
!40 = distinct !DISubprogram(name: "absdiff", scope: !1, file: !1, line: 10, type: !41, scopeLine: 10, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!41 = !DISubroutineType(types: !42)
!42 = !{!13, !13, !13}
!43 = !DILocalVariable(name: "a", arg: 1, scope: !40, file: !1, line: 10, type: !13)
!44 = !DILocation(line: 10, column: 17, scope: !40)
!45 = !DILocalVariable(name: "b", arg: 2, scope: !40, file: !1, line: 10, type: !13)
!46 = !DILocation(line: 10, column: 24, scope: !40)
!47 = !DILocalVariable(name: "d", scope: !40, file: !1, line: 11, type: !13)
!48 = !DILocation(line: 11, column: 7, scope: !40)
!49 = !DILocation(line: 11, column: 11, scope: !40)
!50 = !DILocation(line: 11, column: 15, scope: !40)
!51 = !DILocation(line: 11, column: 13, scope: !40)
!52 = !DILocation(line: 12, column: 7, scope: !53)
!53 = distinct !DILexicalBlock(scope: !40, file: !1, line: 12, column: 7)
!54 = !DILocation(line: 12, column: 9, scope: !53)
!55 = !DILocation(line: 13, column: 10, scope: !53)
!56 = !DILocation(line: 13, column: 9, scope: !53)
!57 = !DILocation(line: 13, column: 7, scope: !53)
!58 = !DILocation(line: 13, column: 5, scope: !53)
!59 = !DILocation(line: 14, column: 10, scope: !40)
!60 = !DILocation(line: 14, column: 3, scope: !40)
