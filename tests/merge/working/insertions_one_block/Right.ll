declare void @log(i32)

define i32 @f(i32 %x, i32 %y) {
entry:
  %0 = add i32 %x, %y
  call void @log(i32 %0)
  %1 = mul i32 %0, %x
  call void @log(i32 %1)
  %2 = sub i32 %1, %y
  call void @log(i32 %2)
  %3 = shl i32 %2, 1
  call void @log(i32 %3)
  ret i32 %2
}
