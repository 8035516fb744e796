; RUN: opt -passes=instcombine -S %s | FileCheck %s
; Bit twiddling after mem2reg, with debug info: instcombine keeps the shifts and
; masks and the debug records that describe them.
;
; CHECK-LABEL: define dso_local i32 @mix(
; CHECK: %and = and i32 %xor, 255
; CHECK: %mul = mul i32 %or, 33
; CHECK-LABEL: define dso_local i32 @parity(
; CHECK: %p.0 = phi i32
; CHECK-LABEL: define dso_local i32 @select_max(
;
; Written for irgit's test-edit benchmark (not taken from LLVM): clang-22 output of
; this C source, with the RUN and CHECK lines above added by hand:
;   unsigned mix(unsigned x, unsigned y) {
;     unsigned a = x ^ (y << 3);
;     unsigned b = (a & 255) | (x >> 5);
;     unsigned c = b * 33 + y;
;     return c ^ (c >> 7);
;   }
;
;   int parity(unsigned x) {
;     int p = 0;
;     while (x) {
;       p ^= x & 1;
;       x >>= 1;
;     }
;     return p;
;   }
;
;   int select_max(int a, int b, int c) {
;     int m = a > b ? a : b;
;     return m > c ? m : c;
;   }

source_filename = "bits.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @mix(i32 noundef %x, i32 noundef %y) #0 !dbg !10 {
entry:
    #dbg_value(i32 %x, !15, !DIExpression(), !16)
    #dbg_value(i32 %y, !17, !DIExpression(), !16)
  %shl = shl i32 %y, 3, !dbg !18
  %xor = xor i32 %x, %shl, !dbg !19
    #dbg_value(i32 %xor, !20, !DIExpression(), !16)
  %and = and i32 %xor, 255, !dbg !21
  %shr = lshr i32 %x, 5, !dbg !22
  %or = or i32 %and, %shr, !dbg !23
    #dbg_value(i32 %or, !24, !DIExpression(), !16)
  %mul = mul i32 %or, 33, !dbg !25
  %add = add i32 %mul, %y, !dbg !26
    #dbg_value(i32 %add, !27, !DIExpression(), !16)
  %shr1 = lshr i32 %add, 7, !dbg !28
  %xor2 = xor i32 %add, %shr1, !dbg !29
  ret i32 %xor2, !dbg !30
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @parity(i32 noundef %x) #0 !dbg !31 {
entry:
    #dbg_value(i32 %x, !35, !DIExpression(), !36)
    #dbg_value(i32 0, !37, !DIExpression(), !36)
  br label %while.cond, !dbg !38

while.cond:                                       ; preds = %while.body, %entry
  %p.0 = phi i32 [ 0, %entry ], [ %xor, %while.body ], !dbg !36
  %x.addr.0 = phi i32 [ %x, %entry ], [ %shr, %while.body ]
    #dbg_value(i32 %x.addr.0, !35, !DIExpression(), !36)
    #dbg_value(i32 %p.0, !37, !DIExpression(), !36)
  %tobool = icmp ne i32 %x.addr.0, 0, !dbg !38
  br i1 %tobool, label %while.body, label %while.end, !dbg !38

while.body:                                       ; preds = %while.cond
  %and = and i32 %x.addr.0, 1, !dbg !39
  %xor = xor i32 %p.0, %and, !dbg !41
    #dbg_value(i32 %xor, !37, !DIExpression(), !36)
  %shr = lshr i32 %x.addr.0, 1, !dbg !42
    #dbg_value(i32 %shr, !35, !DIExpression(), !36)
  br label %while.cond, !dbg !38, !llvm.loop !43

while.end:                                        ; preds = %while.cond
  ret i32 %p.0, !dbg !46
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @select_max(i32 noundef %a, i32 noundef %b, i32 noundef %c) #0 !dbg !47 {
entry:
    #dbg_value(i32 %a, !50, !DIExpression(), !51)
    #dbg_value(i32 %b, !52, !DIExpression(), !51)
    #dbg_value(i32 %c, !53, !DIExpression(), !51)
  %cmp = icmp sgt i32 %a, %b, !dbg !54
  br i1 %cmp, label %cond.true, label %cond.false, !dbg !55

cond.true:                                        ; preds = %entry
  br label %cond.end, !dbg !55

cond.false:                                       ; preds = %entry
  br label %cond.end, !dbg !55

cond.end:                                         ; preds = %cond.false, %cond.true
  %cond = phi i32 [ %a, %cond.true ], [ %b, %cond.false ], !dbg !55
    #dbg_value(i32 %cond, !56, !DIExpression(), !51)
  %cmp1 = icmp sgt i32 %cond, %c, !dbg !57
  br i1 %cmp1, label %cond.true2, label %cond.false3, !dbg !58

cond.true2:                                       ; preds = %cond.end
  br label %cond.end4, !dbg !58

cond.false3:                                      ; preds = %cond.end
  br label %cond.end4, !dbg !58

cond.end4:                                        ; preds = %cond.false3, %cond.true2
  %cond5 = phi i32 [ %cond, %cond.true2 ], [ %c, %cond.false3 ], !dbg !58
  ret i32 %cond5, !dbg !59
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "bits.c", directory: "/irgit-tests", checksumkind: CSK_MD5, checksum: "4aecf2a4649587a5c651f86a760b3fe1")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!10 = distinct !DISubprogram(name: "mix", scope: !1, file: !1, line: 1, type: !11, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !13, !13}
!13 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!14 = !{}
!15 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 1, type: !13)
!16 = !DILocation(line: 0, scope: !10)
!17 = !DILocalVariable(name: "y", arg: 2, scope: !10, file: !1, line: 1, type: !13)
!18 = !DILocation(line: 2, column: 23, scope: !10)
!19 = !DILocation(line: 2, column: 18, scope: !10)
!20 = !DILocalVariable(name: "a", scope: !10, file: !1, line: 2, type: !13)
!21 = !DILocation(line: 3, column: 19, scope: !10)
!22 = !DILocation(line: 3, column: 31, scope: !10)
!23 = !DILocation(line: 3, column: 26, scope: !10)
!24 = !DILocalVariable(name: "b", scope: !10, file: !1, line: 3, type: !13)
!25 = !DILocation(line: 4, column: 18, scope: !10)
!26 = !DILocation(line: 4, column: 23, scope: !10)
!27 = !DILocalVariable(name: "c", scope: !10, file: !1, line: 4, type: !13)
!28 = !DILocation(line: 5, column: 17, scope: !10)
!29 = !DILocation(line: 5, column: 12, scope: !10)
!30 = !DILocation(line: 5, column: 3, scope: !10)
!31 = distinct !DISubprogram(name: "parity", scope: !1, file: !1, line: 8, type: !32, scopeLine: 8, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!32 = !DISubroutineType(types: !33)
!33 = !{!34, !13}
!34 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!35 = !DILocalVariable(name: "x", arg: 1, scope: !31, file: !1, line: 8, type: !13)
!36 = !DILocation(line: 0, scope: !31)
!37 = !DILocalVariable(name: "p", scope: !31, file: !1, line: 9, type: !34)
!38 = !DILocation(line: 10, column: 3, scope: !31)
!39 = !DILocation(line: 11, column: 12, scope: !40)
!40 = distinct !DILexicalBlock(scope: !31, file: !1, line: 10, column: 13)
!41 = !DILocation(line: 11, column: 7, scope: !40)
!42 = !DILocation(line: 12, column: 7, scope: !40)
!43 = distinct !{!43, !38, !44, !45}
!44 = !DILocation(line: 13, column: 3, scope: !31)
!45 = !{!"llvm.loop.mustprogress"}
!46 = !DILocation(line: 14, column: 3, scope: !31)
!47 = distinct !DISubprogram(name: "select_max", scope: !1, file: !1, line: 17, type: !48, scopeLine: 17, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!48 = !DISubroutineType(types: !49)
!49 = !{!34, !34, !34, !34}
!50 = !DILocalVariable(name: "a", arg: 1, scope: !47, file: !1, line: 17, type: !34)
!51 = !DILocation(line: 0, scope: !47)
!52 = !DILocalVariable(name: "b", arg: 2, scope: !47, file: !1, line: 17, type: !34)
!53 = !DILocalVariable(name: "c", arg: 3, scope: !47, file: !1, line: 17, type: !34)
!54 = !DILocation(line: 18, column: 13, scope: !47)
!55 = !DILocation(line: 18, column: 11, scope: !47)
!56 = !DILocalVariable(name: "m", scope: !47, file: !1, line: 18, type: !34)
!57 = !DILocation(line: 19, column: 12, scope: !47)
!58 = !DILocation(line: 19, column: 10, scope: !47)
!59 = !DILocation(line: 19, column: 3, scope: !47)
