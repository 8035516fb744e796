declare void @use(i32)

define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  %y = mul i32 %a, 2
  %s = sub i32 %x, %y
  call void @use(i32 0)
  call void @use(i32 1)
  call void @use(i32 %"\78")
  ret i32 %s
}
