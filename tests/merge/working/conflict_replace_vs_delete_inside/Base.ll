declare void @log(i32)

define void @f() {
entry:
  call void @log(i32 1)
  call void @log(i32 2)
  call void @log(i32 3)
  call void @log(i32 4)
  call void @log(i32 5)
  ret void
}
