; Invalid: a PHI below an ordinary instruction.
define i32 @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %a, label %b

a:
  br label %b

b:
  %y = add i32 %x, 1
  %p = phi i32 [ 0, %entry ], [ 1, %a ]
  ret i32 %p
}
