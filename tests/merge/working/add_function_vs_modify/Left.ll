@counter = global i32 0

define i32 @f(i32 %x) {
entry:
  %0 = load i32, ptr @counter
  %1 = add i32 %0, %x
  store i32 %1, ptr @counter
  ret i32 %1
}

define void @reset() {
entry:
  store i32 0, ptr @counter
  ret void
}
