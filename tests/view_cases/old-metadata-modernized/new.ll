; ModuleID = 'longjmp.bc'
target datalayout = "e-p:32:32-i64:64-n32-S128"
target triple = "i386-pc-linux-gnu"

@.str = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define i32 @main(i32 %argc, i8** %argv) {
entry:
  %0 = load i8*, i8** %argv, align 4
  %1 = getelementptr inbounds i8, i8* %0, i32 1
  %2 = load i8, i8* %1, align 1
  %3 = sext i8 %2 to i32
  call void @llvm.dbg.value(metadata i32 %3, i64 0, metadata !3), !dbg !4
  %4 = add i32 %3, %argc
  %call = call i32 (i8*, ...) @printf(i8* getelementptr inbounds ([4 x i8], [4 x i8]* @.str, i32 0, i32 0), i32 %4)
  ret i32 0
}

declare i32 @printf(i8*, ...)

declare void @llvm.dbg.value(metadata, i64, metadata) nounwind readnone

!llvm.ident = !{!0}

!0 = !{!"clang version 3.5.0"}
!1 = !{i32 786449, !"a.c", !"/src", i32 12}
!2 = !{i32 786478, !1, !"main", i32 3}
!3 = !{i32 786688, !2, !"c", i32 4}
!4 = !{i32 4, i32 3, !2, null}
