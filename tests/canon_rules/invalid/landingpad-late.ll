; Invalid: the landingpad is not the first non-PHI instruction of its block.
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

define i32 @f(i32 %x) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw()
          to label %ok unwind label %lpad

ok:
  ret i32 0

lpad:
  %y = add i32 %x, 1
  %lp = landingpad { ptr, i32 }
          cleanup
  ret i32 %y
}
