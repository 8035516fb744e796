declare void @log(i32)

define i32 @f(i32 %x, i32 %y) {
entry:
  call void @log(i32 100)
  %0 = add i32 %x, %y
  call void @log(i32 %0)
  %1 = and i32 %0, 255
  call void @log(i32 %1)
  %2 = mul i32 %0, %x
  call void @log(i32 %2)
  %3 = sub i32 %2, %y
  call void @log(i32 %3)
  ret i32 %3
}
