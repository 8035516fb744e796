declare void @log(i32)

define i32 @f(i32 %x) {
entry:
  %0 = add i32 %x, 2
  call void @log(i32 %0)
  %1 = mul i32 %0, 3
  call void @log(i32 %1)
  ret i32 %1
}
