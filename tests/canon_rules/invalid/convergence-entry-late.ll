; Invalid: a convergent operation precedes llvm.experimental.convergence.entry.
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.anchor()
declare i32 @lane_sum(i32) convergent nounwind memory(none)

define i32 @f(i32 %x) convergent {
entry:
  %a = call token @llvm.experimental.convergence.anchor()
  %e = call token @llvm.experimental.convergence.entry()
  %s = call i32 @lane_sum(i32 %x) [ "convergencectrl"(token %e) ]
  ret i32 %s
}
