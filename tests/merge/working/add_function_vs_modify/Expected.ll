@counter = global i32 0

define i32 @f(i32 %x) {
entry:
  %0 = load i32, ptr @counter
  %1 = mul i32 %x, 2
  %2 = add i32 %0, %1
  store i32 %2, ptr @counter
  ret i32 %2
}

define void @reset() {
entry:
  store i32 0, ptr @counter
  ret void
}
