declare void @use(i32)

define void @f() #0 {
entry:
  call void @use(i32 1)
  ret void
}

attributes #0 = { noinline nounwind }
attributes #00 = { cold }

!llvm.x = !{!0}
!0 = !{i32 1}
