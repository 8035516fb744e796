; Invalid: a musttail call that is not followed by its ret.
declare i32 @g(i32)

define i32 @f(i32 %x) {
entry:
  %r = musttail call i32 @g(i32 %x)
  %s = add i32 %r, 1
  ret i32 %s
}
