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
  %arraydecay = getelementptr inbounds [8 x i8], [8 x i8]* %buf, i32 0, i32 0  call void @llvm.memcpy.p0i8.p0i8.i32(i8* %arraydecay, i8* getelementptr inbounds ([8 x i8], [8 x i8]* @.str, i32 0, i32 0), i32 3, i32 4, i1 false)  %call = call i32 @puts(i8* %arraydecay)  call void @llvm.memcpy.p0i8.p0i8.i32(i8* %arraydecay, i8* getelementptr inbounds ([8 x i8], [8 x i8]* @.str, i32 0, i32 0), i32 5, i32 4, i1 false)  %call1 = call i32 @puts(i8* %arraydecay)
  %0 = load i32, i32* %retval  ret i32 %0}

; [#uses=2]
declare void @llvm.memcpy.p0i8.p0i8.i32(i8* nocapture, i8* nocapture, i32, i32, i1) nounwind

; [#uses=2]
declare i32 @puts(i8*)
