; ModuleID = '/tmp/build/a.out.bc'
target datalayout = "e-p:32:32:32-i64:64:64-n32-S128"
target triple = "asmjs-unknown-emscripten"

; Copies of a few sizes at a stronger alignment than their size

@.str = private unnamed_addr constant [8 x i8] c"abcdefg\00", align 1 ; [#uses=1 type=[8 x i8]*]

; [#uses=0]
define i32 @main() {
entry:
  %retval = alloca i32, align 4                   ; [#uses=2 type=i32*]
  %buf = alloca [8 x i8], align 4                 ; [#uses=4 type=[8 x i8]*]
  store i32 0, i32* %retval
  %arraydecay = getelementptr inbounds [8 x i8]* %buf, i32 0, i32 0, !dbg !10 ; [#uses=3 type=i8*] [debug line = 5:3]
  call void @llvm.memcpy.p0i8.p0i8.i32(i8* %arraydecay, i8* getelementptr inbounds ([8 x i8]* @.str, i32 0, i32 0), i32 3, i32 4, i1 false), !dbg !10 ; [debug line = 5:3]
  %call = call i32 @puts(i8* %arraydecay), !dbg !11 ; [#uses=0 type=i32] [debug line = 6:3]
  call void @llvm.memcpy.p0i8.p0i8.i32(i8* %arraydecay, i8* getelementptr inbounds ([8 x i8]* @.str, i32 0, i32 0), i32 5, i32 4, i1 false), !dbg !12 ; [debug line = 7:3]
  %call1 = call i32 @puts(i8* %arraydecay), !dbg !13 ; [#uses=0 type=i32] [debug line = 8:3]
  %0 = load i32* %retval, !dbg !14                ; [#uses=1 type=i32] [debug line = 9:1]
  ret i32 %0, !dbg !14                            ; [debug line = 9:1]
}

; [#uses=2]
declare void @llvm.memcpy.p0i8.p0i8.i32(i8* nocapture, i8* nocapture, i32, i32, i1) nounwind

; [#uses=2]
declare i32 @puts(i8*)

!llvm.dbg.cu = !{!0}

!0 = metadata !{i32 786449, i32 0, i32 12, metadata !"copies.c", metadata !"/tmp", metadata !"clang version 3.2", i1 true, i1 false, metadata !"", i32 0}
!1 = metadata !{i32 786478, i32 0, metadata !2, metadata !"main", metadata !"main", metadata !"", metadata !2, i32 4, null, i1 false, i1 true, i32 0, i32 0, null, i32 0, i1 false, i32 ()* @main, null, null, null, i32 4}
!2 = metadata !{i32 786473, metadata !"copies.c", metadata !"/tmp", null}
!10 = metadata !{i32 5, i32 3, metadata !3, null}
!3 = metadata !{i32 786443, metadata !1, i32 4, i32 12, metadata !2, i32 0}
!11 = metadata !{i32 6, i32 3, metadata !3, null}
!12 = metadata !{i32 7, i32 3, metadata !3, null}
!13 = metadata !{i32 8, i32 3, metadata !3, null}
!14 = metadata !{i32 9, i32 1, metadata !3, null}
