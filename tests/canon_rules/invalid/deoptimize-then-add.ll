; Invalid: an instruction between llvm.experimental.deoptimize and its ret.
; LLVM rejects it ("calls to experimental_deoptimize must be followed by a
; return"), so canon must refuse it cleanly.
declare void @llvm.experimental.deoptimize.isVoid(...)

define void @f(i32 %x) {
entry:
  call void (...) @llvm.experimental.deoptimize.isVoid() [ "deopt"() ]
  %y = add i32 %x, 1
  ret void
}
