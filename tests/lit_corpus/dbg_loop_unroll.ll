; RUN: opt -passes=loop-unroll -unroll-count=2 -S %s | FileCheck %s
; Two counted loops at -O1 with debug info, unrolled twice.
;
; CHECK-LABEL: define dso_local i64 @sum_squares(
; CHECK: for.body:
; CHECK: mul nsw i64
; CHECK-LABEL: define dso_local void @scale(
;
; Written for irgit's test-edit benchmark (not taken from LLVM): clang-22 output of
; this C source, with the RUN and CHECK lines above added by hand:
;   long sum_squares(const int *v, int n) {
;     long s = 0;
;     for (int i = 0; i < n; i++)
;       s += (long)v[i] * v[i];
;     return s;
;   }
;
;   void scale(int *v, int n, int k) {
;     for (int i = 0; i < n; i++)
;       v[i] = v[i] * k + 1;
;   }

source_filename = "loopsum.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @sum_squares(ptr noundef readonly captures(none) %v, i32 noundef %n) local_unnamed_addr #0 !dbg !16 {
entry:
    #dbg_value(ptr %v, !23, !DIExpression(), !28)
    #dbg_value(i32 %n, !24, !DIExpression(), !28)
    #dbg_value(i64 0, !25, !DIExpression(), !28)
    #dbg_value(i32 0, !26, !DIExpression(), !29)
  %cmp9 = icmp sgt i32 %n, 0, !dbg !30
  br i1 %cmp9, label %for.body.preheader, label %for.cond.cleanup, !dbg !32

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64, !dbg !33
  br label %for.body, !dbg !34

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %for.body ], !dbg !28
  ret i64 %s.0.lcssa, !dbg !35

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.010 = phi i64 [ 0, %for.body.preheader ], [ %add, %for.body ]
    #dbg_value(i64 %indvars.iv, !26, !DIExpression(), !29)
    #dbg_value(i64 %s.010, !25, !DIExpression(), !28)
  %arrayidx = getelementptr inbounds nuw i32, ptr %v, i64 %indvars.iv, !dbg !36
  %0 = load i32, ptr %arrayidx, align 4, !dbg !36, !tbaa !12
  %conv = sext i32 %0 to i64, !dbg !37
  %mul = mul nsw i64 %conv, %conv, !dbg !38
  %add = add nuw nsw i64 %mul, %s.010, !dbg !39
    #dbg_value(i64 %add, !25, !DIExpression(), !28)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1, !dbg !40
    #dbg_value(i64 %indvars.iv.next, !26, !DIExpression(), !29)
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count, !dbg !33
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body, !dbg !41, !llvm.loop !42
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @scale(ptr noundef captures(none) %v, i32 noundef %n, i32 noundef %k) local_unnamed_addr #1 !dbg !46 {
entry:
    #dbg_value(ptr %v, !51, !DIExpression(), !56)
    #dbg_value(i32 %n, !52, !DIExpression(), !56)
    #dbg_value(i32 %k, !53, !DIExpression(), !56)
    #dbg_value(i32 0, !54, !DIExpression(), !57)
  %cmp7 = icmp sgt i32 %n, 0, !dbg !58
  br i1 %cmp7, label %for.body.preheader, label %for.cond.cleanup, !dbg !60

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64, !dbg !61
  br label %for.body, !dbg !62

for.cond.cleanup:                                 ; preds = %for.body, %entry
  ret void, !dbg !63

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
    #dbg_value(i64 %indvars.iv, !54, !DIExpression(), !57)
  %arrayidx = getelementptr inbounds nuw i32, ptr %v, i64 %indvars.iv, !dbg !64
  %0 = load i32, ptr %arrayidx, align 4, !dbg !64, !tbaa !12
  %mul = mul nsw i32 %0, %k, !dbg !65
  %add = add nsw i32 %mul, 1, !dbg !66
  store i32 %add, ptr %arrayidx, align 4, !dbg !67, !tbaa !12
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1, !dbg !68
    #dbg_value(i64 %indvars.iv.next, !54, !DIExpression(), !57)
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count, !dbg !61
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body, !dbg !69, !llvm.loop !70
}

attributes #0 = { nofree norecurse nosync nounwind memory(argmem: read) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4, !5, !6, !7, !8, !9, !10}
!llvm.ident = !{!11}
!llvm.errno.tbaa = !{!12}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "loopsum.c", directory: "/irgit-tests", checksumkind: CSK_MD5, checksum: "bc36120145a60ce492b35f6f1de2c837")
!2 = !{!3}
!3 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !{i32 1, !"wchar_size", i32 4}
!7 = !{i32 8, !"PIC Level", i32 2}
!8 = !{i32 7, !"PIE Level", i32 2}
!9 = !{i32 7, !"uwtable", i32 2}
!10 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!11 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!12 = !{!13, !13, i64 0}
!13 = !{!"int", !14, i64 0}
!14 = !{!"omnipotent char", !15, i64 0}
!15 = !{!"Simple C/C++ TBAA"}
!16 = distinct !DISubprogram(name: "sum_squares", scope: !1, file: !1, line: 1, type: !17, scopeLine: 1, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !22, keyInstructions: true)
!17 = !DISubroutineType(types: !18)
!18 = !{!3, !19, !21}
!19 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !20, size: 64)
!20 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !21)
!21 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!22 = !{!23, !24, !25, !26}
!23 = !DILocalVariable(name: "v", arg: 1, scope: !16, file: !1, line: 1, type: !19)
!24 = !DILocalVariable(name: "n", arg: 2, scope: !16, file: !1, line: 1, type: !21)
!25 = !DILocalVariable(name: "s", scope: !16, file: !1, line: 2, type: !3)
!26 = !DILocalVariable(name: "i", scope: !27, file: !1, line: 3, type: !21)
!27 = distinct !DILexicalBlock(scope: !16, file: !1, line: 3, column: 3)
!28 = !DILocation(line: 0, scope: !16)
!29 = !DILocation(line: 0, scope: !27)
!30 = !DILocation(line: 3, column: 21, scope: !31, atomGroup: 10, atomRank: 1)
!31 = distinct !DILexicalBlock(scope: !27, file: !1, line: 3, column: 3)
!32 = !DILocation(line: 3, column: 3, scope: !27, atomGroup: 11, atomRank: 1)
!33 = !DILocation(line: 3, column: 21, scope: !31, atomGroup: 3, atomRank: 1)
!34 = !DILocation(line: 3, column: 3, scope: !27)
!35 = !DILocation(line: 5, column: 3, scope: !16, atomGroup: 9, atomRank: 1)
!36 = !DILocation(line: 4, column: 16, scope: !31)
!37 = !DILocation(line: 4, column: 10, scope: !31)
!38 = !DILocation(line: 4, column: 21, scope: !31)
!39 = !DILocation(line: 4, column: 7, scope: !31, atomGroup: 5, atomRank: 2)
!40 = !DILocation(line: 3, column: 27, scope: !31, atomGroup: 6, atomRank: 2)
!41 = !DILocation(line: 3, column: 3, scope: !27, atomGroup: 4, atomRank: 1)
!42 = distinct !{!42, !34, !43, !44, !45}
!43 = !DILocation(line: 4, column: 26, scope: !27)
!44 = !{!"llvm.loop.mustprogress"}
!45 = !{!"llvm.loop.unroll.disable"}
!46 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 8, type: !47, scopeLine: 8, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !50, keyInstructions: true)
!47 = !DISubroutineType(types: !48)
!48 = !{null, !49, !21, !21}
!49 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !21, size: 64)
!50 = !{!51, !52, !53, !54}
!51 = !DILocalVariable(name: "v", arg: 1, scope: !46, file: !1, line: 8, type: !49)
!52 = !DILocalVariable(name: "n", arg: 2, scope: !46, file: !1, line: 8, type: !21)
!53 = !DILocalVariable(name: "k", arg: 3, scope: !46, file: !1, line: 8, type: !21)
!54 = !DILocalVariable(name: "i", scope: !55, file: !1, line: 9, type: !21)
!55 = distinct !DILexicalBlock(scope: !46, file: !1, line: 9, column: 3)
!56 = !DILocation(line: 0, scope: !46)
!57 = !DILocation(line: 0, scope: !55)
!58 = !DILocation(line: 9, column: 21, scope: !59, atomGroup: 12, atomRank: 1)
!59 = distinct !DILexicalBlock(scope: !55, file: !1, line: 9, column: 3)
!60 = !DILocation(line: 9, column: 3, scope: !55, atomGroup: 13, atomRank: 1)
!61 = !DILocation(line: 9, column: 21, scope: !59, atomGroup: 2, atomRank: 1)
!62 = !DILocation(line: 9, column: 3, scope: !55)
!63 = !DILocation(line: 11, column: 1, scope: !46, atomGroup: 7, atomRank: 1)
!64 = !DILocation(line: 10, column: 12, scope: !59)
!65 = !DILocation(line: 10, column: 17, scope: !59)
!66 = !DILocation(line: 10, column: 21, scope: !59, atomGroup: 4, atomRank: 2)
!67 = !DILocation(line: 10, column: 10, scope: !59, atomGroup: 4, atomRank: 1)
!68 = !DILocation(line: 9, column: 27, scope: !59, atomGroup: 5, atomRank: 2)
!69 = !DILocation(line: 9, column: 3, scope: !55, atomGroup: 3, atomRank: 1)
!70 = distinct !{!70, !62, !71, !44, !45}
!71 = !DILocation(line: 10, column: 23, scope: !55)
