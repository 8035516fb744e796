define i32 @g(i32 %n) {
start:
  %iszero = icmp eq i32 %n, 0
  br i1 %iszero, label %is_zero, label %nonzero

nonzero:
  %quot = udiv i32 100, %n
  br label %exit

is_zero:
  br label %exit

exit:
  %r = phi i32 [ %quot, %nonzero ], [ 7, %is_zero ]
  ret i32 %r
}

define i32 @f(i32 %p, i32 %q) {
entry:
  %twice = mul i32 %q, 2
  %inc = add i32 %p, 1
  %diff = sub i32 %inc, %twice
  ret i32 %diff
}
