define void @k() {
entry:
  call void @llvm.trap()
  ret void
}

define void @m() {
entry:
  ret void
}
