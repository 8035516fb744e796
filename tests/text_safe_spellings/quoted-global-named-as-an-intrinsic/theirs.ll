@"llvm.trap" = global i32 0
define void @k() {
entry:
  ret void
}

define void @m() {
entry:
  ret void
}
