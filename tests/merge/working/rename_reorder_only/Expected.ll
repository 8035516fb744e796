define i32 @f(i32 %a, i32 %b) {
entry:
  %0 = add i32 %a, 1
  %1 = mul i32 %b, 4
  %2 = sub i32 %0, %1
  ret i32 %2
}

define i32 @g(i32 %x) {
entry:
  %0 = icmp eq i32 %x, 0
  br i1 %0, label %zero, label %other

zero:
  br label %done

other:
  %1 = udiv i32 100, %x
  %2 = add i32 %1, 3
  br label %done

done:
  %3 = phi i32 [ 7, %zero ], [ %2, %other ]
  ret i32 %3
}
