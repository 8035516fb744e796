define i32 @f(i32 %x) {
entry:
  %0 = add i32 %x, 1
  ret i32 %0
}
