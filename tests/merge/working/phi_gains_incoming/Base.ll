define i32 @f(i32 %x, i32 %y) {
entry:
  switch i32 %x, label %join [
    i32 0, label %zero
  ]

zero:
  %0 = add i32 %y, 1
  br label %join

join:
  %1 = phi i32 [ %0, %zero ], [ %x, %entry ]
  %2 = add i32 %1, %y
  ret i32 %2
}
