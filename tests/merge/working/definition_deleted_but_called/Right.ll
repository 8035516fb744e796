define i32 @f(i32 %a) {
  %b = add i32 %a, 1
  ret i32 %b
}

define i32 @g(i32 %a) {
  %b = sub i32 %a, 2
  ret i32 %b
}
