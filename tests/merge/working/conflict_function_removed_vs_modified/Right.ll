define i32 @f(i32 %x) {
entry:
  %0 = add i32 %x, 1
  ret i32 %0
}

define i32 @helper(i32 %x) {
entry:
  %0 = mul i32 %x, 3
  %1 = or i32 %0, 7777
  ret i32 %1
}
