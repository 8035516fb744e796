define void @f() {
entry:
  call void asm sideeffect "x
{ ", ""()
  ret void
}
declare void @ext(i32)
module asm "a
}
"

define void @k() {
entry:
  call void @ext(i32 5)
  ret void
}

define void @m() {
entry:
  call void @ext(i32 7)
  ret void
}
