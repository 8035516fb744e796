define i32 @f(i32 %x) {
entry:
  %0 = icmp sgt i32 %x, 0
  br i1 %0, label %then, label %else

then:
  %1 = mul i32 %x, 3
  br label %join

else:
  %2 = sub i32 0, %x
  br label %join

join:
  %3 = phi i32 [ %1, %then ], [ %2, %else ]
  ret i32 %3
}
