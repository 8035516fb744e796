declare void @log(i32)

define i32 @f(i32 %x, i32 %y) {
entry:
  %0 = icmp eq i32 %x, 0
  br i1 %0, label %zero, label %join

zero:
  %1 = add i32 %y, 1
  br label %trace

trace:
  call void @log(i32 %1)
  br label %join

join:
  %2 = phi i32 [ %1, %trace ], [ %y, %entry ]
  %3 = mul i32 %2, %x
  %4 = xor i32 %3, 12345
  ret i32 %4
}
