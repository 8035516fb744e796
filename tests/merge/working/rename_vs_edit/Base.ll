define i32 @f(i32 %x, i32 %y) {
entry:
  %0 = add i32 %x, 1
  %1 = mul i32 %0, %y
  %2 = icmp sgt i32 %1, 100
  br i1 %2, label %big, label %small

big:
  %3 = sub i32 %1, 100
  ret i32 %3

small:
  %4 = xor i32 %1, 5
  ret i32 %4
}

define i32 @main(i32 %a) {
entry:
  %0 = call i32 @f(i32 %a, i32 3)
  %1 = call i32 @f(i32 %0, i32 %a)
  ret i32 %1
}
