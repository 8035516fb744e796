define i32 @f(i32 %x) {
entry:
  %0 = add i32 %x, 10
  %1 = mul i32 %0, 2
  ret i32 %1
}

define i32 @g(i32 %y) {
entry:
  %0 = sub i32 %y, 3
  %1 = xor i32 %0, 5
  ret i32 %1
}
