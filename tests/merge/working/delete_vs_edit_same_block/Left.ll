declare void @log(i32)

define i32 @f(i32 %x, i32 %y) {
entry:
  %0 = add i32 %x, %y
  call void @log(i32 %0)
  %1 = mul i32 %0, %y
  call void @log(i32 %1)
  %2 = sub i32 %1, %x
  ret i32 %2
}
