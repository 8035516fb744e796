@limit = global i32 64
@.str = private unnamed_addr constant [4 x i8] c"abc\00"

declare i32 @puts(ptr)

define i32 @f(i32 %x) {
entry:
  %0 = load i32, ptr @limit
  %1 = icmp slt i32 %x, %0
  %2 = select i1 %1, i32 %x, i32 %0
  %3 = call i32 @puts(ptr @.str)
  ret i32 %2
}
