define i32 @helper(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @f(i32 %a) {
  %b = add i32 %a, 1
  %c = call i32 @helper(i32 %b)
  ret i32 %c
}

define i32 @g(i32 %a) {
  %b = sub i32 %a, 1
  ret i32 %b
}
