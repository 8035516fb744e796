; RUN: %S/run-test.py --tool=%tool %s

declare void @report(i32)

define i32 @main() {
	%low = select i1 false, i32 3, i32 4
	%high = select i1 true, i32 40, i32 30
	%sum = add i32 %low, %high
	%big = icmp ugt i32 %sum, 40
	br i1 %big, label %yes, label %no
yes:
	call void @report(i32 %sum)
	ret i32 0
no:
	call void @report(i32 0)
	ret i32 1
}
