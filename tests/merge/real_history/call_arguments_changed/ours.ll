target datalayout = "e-m:e-p:32:32-i64:64-n32:64-S128"
target triple = "wasm32-unknown-unknown-wasm"

%runtime.stackChainObject = type { %runtime.stackChainObject*, i32 }

@runtime.stackChainStart = internal global %runtime.stackChainObject* null
@someGlobal = global i8 3
@ptrGlobal = global i8** null

declare void @runtime.trackPointer(i8* nocapture readonly)

declare noalias nonnull i8* @runtime.alloc(i32, i8*)

declare void @someArbitraryFunction()

define i8* @needsStackSlots() {
  %gc.stackobject = alloca { %runtime.stackChainObject*, i32, i8* }, align 8
  store { %runtime.stackChainObject*, i32, i8* } { %runtime.stackChainObject* null, i32 1, i8* null }, { %runtime.stackChainObject*, i32, i8* }* %gc.stackobject, align 4
  %1 = load %runtime.stackChainObject*, %runtime.stackChainObject** @runtime.stackChainStart, align 4
  %2 = getelementptr { %runtime.stackChainObject*, i32, i8* }, { %runtime.stackChainObject*, i32, i8* }* %gc.stackobject, i32 0, i32 0
  store %runtime.stackChainObject* %1, %runtime.stackChainObject** %2, align 4
  %3 = bitcast { %runtime.stackChainObject*, i32, i8* }* %gc.stackobject to %runtime.stackChainObject*
  store %runtime.stackChainObject* %3, %runtime.stackChainObject** @runtime.stackChainStart, align 4
  %ptr = call i8* @runtime.alloc(i32 4, i8* null)
  %4 = getelementptr { %runtime.stackChainObject*, i32, i8* }, { %runtime.stackChainObject*, i32, i8* }* %gc.stackobject, i32 0, i32 2
  store i8* %ptr, i8** %4, align 4
  call void @someArbitraryFunction()
  %val = load i8, i8* @someGlobal, align 1
  store %runtime.stackChainObject* %1, %runtime.stackChainObject** @runtime.stackChainStart, align 4
  ret i8* %ptr
}
