declare void @log(i32)

define i32 @f(i32 %x, i32 %y) {
entry:
  br label %join

join:
  %0 = add i32 %x, %y
  ret i32 %0
}
