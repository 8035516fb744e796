declare void @log(i32)

define i32 @f(i32 %x, i32 %y) {
entry:
  %m = mul i32 %x, %y
  call void @log(i32 %m)
  %a = add i32 %x, %y
  br label %next

next:
  %b = add i32 %a, 1
  %c = add i32 %b, 2
  %d = add i32 %c, 3
  %e = add i32 %d, %m
  ret i32 %e
}

define i32 @g(i32 %z) {
entry:
  %h = shl i32 %z, 2
  ret i32 %h
}
