define void @k() {
entry:
  ret void
}

define void @m() {
entry:
  ret void
}
