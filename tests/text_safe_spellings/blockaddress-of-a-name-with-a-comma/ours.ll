@slot = global ptr null

declare void @x(i32)

define void @"a,b"(i1 %c) {
entry:
  br i1 %c, label %b, label %a
b:
  call void @x(i32 1)
  ret void
a:
  call void @x(i32 2)
  ret void
}

define void @k() {
entry:
  call void @x(i32 7)
  ret void
}
