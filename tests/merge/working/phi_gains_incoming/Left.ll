define i32 @f(i32 %x, i32 %y) {
entry:
  switch i32 %x, label %join [
    i32 0, label %zero
    i32 1, label %one
  ]

zero:
  %0 = add i32 %y, 1
  br label %join

one:
  %1 = mul i32 %y, 2
  br label %join

join:
  %2 = phi i32 [ %0, %zero ], [ %1, %one ], [ %x, %entry ]
  %3 = add i32 %2, %y
  ret i32 %3
}
