declare void @use(i32)

define i32 @f(i32 %a) {
entry:
  %y = add i32 %a, 1
  %x = mul i32 %a, 2
  %s = sub i32 %y, %x
  call void @use(i32 0)
  call void @use(i32 1)
  call void @use(i32 2)
  ret i32 %s
}
