declare void @use(i32)

define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  %y = mul i32 %a, 2
  %s = sub i32 %x, %y
  call void asm sideeffect "nop
}
define void @g() {
", ""()
  call void @use(i32 0)
  call void @use(i32 1)
  ret i32 %s
}
