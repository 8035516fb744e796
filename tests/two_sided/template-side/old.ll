; RUN: opt -S -passes=instcombine %s | FileCheck %s

define i32 @fold(i32 %x) {
; CHECK-LABEL: @fold(
; CHECK: ret i32 %x
entry:
  %0 = add i32 %x, 0
  %1 = mul i32 %0, 1
  %2 = or i32 %1, 0
  %3 = xor i32 %2, @MASK@
  call void @llvm.dbg.value(metadata i32 %3, metadata !1, metadata !DIExpression()), !dbg !7
  ret i32 %3
}

define i32 @keep(i32 %a, i32 %b) {
; CHECK-LABEL: @keep(
; CHECK: add i32 %a, %b
entry:
  %0 = add i32 %a, %b
  %1 = sub i32 %0, 0
  ret i32 %1
}

declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5, !6}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !2, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DILocalVariable(name: "r", scope: !3, file: !2, line: 3, type: !4)
!2 = !DIFile(filename: "t.c", directory: "/src")
!3 = distinct !DISubprogram(name: "fold", scope: !2, file: !2, line: 1, type: !8, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !{i32 7, !"Dwarf Version", i32 5}
!7 = !DILocation(line: 3, column: 1, scope: !3)
!8 = !DISubroutineType(types: !9)
!9 = !{!4}
