@slot = global ptr null

declare void @x(i32)

define void @"a,b"(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  call void @x(i32 1)
  ret void
b:
  call void @x(i32 2)
  ret void
}

define void @k() {
entry:
  call void @x(i32 7)
  store ptr blockaddress(@"a,b", %a), ptr @slot
  ret void
}
