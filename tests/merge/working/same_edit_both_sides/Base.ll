declare void @log(i32)

define i32 @f(i32 %x) {
entry:
  %0 = add i32 %x, 1
  call void @log(i32 %0)
  %1 = mul i32 %0, 3
  ret i32 %1
}
