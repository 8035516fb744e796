declare void @log(i32)

define i32 @f(i32 %x, i32 %y) {
entry:
  %0 = icmp slt i32 %x, 0
  br i1 %0, label %neg, label %join

neg:
  %1 = sub i32 0, %x
  call void @log(i32 %1)
  call void @log(i32 4242)
  br label %join

join:
  %2 = phi i32 [ %1, %neg ], [ %x, %entry ]
  %3 = add i32 %2, %y
  ret i32 %3
}
