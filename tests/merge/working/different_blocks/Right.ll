define i32 @f(i32 %x) {
entry:
  %0 = icmp sgt i32 %x, 0
  br i1 %0, label %then, label %else

then:
  %1 = mul i32 %x, 3
  br label %join

else:
  %2 = sub i32 0, %x
  %3 = add i32 %2, 1
  br label %join

join:
  %4 = phi i32 [ %1, %then ], [ %3, %else ]
  ret i32 %4
}
