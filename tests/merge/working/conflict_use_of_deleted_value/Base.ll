declare void @log(i32)

define i32 @f(i32 %x, i32 %y) {
entry:
  %0 = mul i32 %x, %y
  call void @log(i32 %0)
  %1 = add i32 %x, %y
  ret i32 %1
}
