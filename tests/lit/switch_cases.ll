; RUN: opt -S -passes=simplifycfg %s | FileCheck %s
; simplifycfg turns a switch that only selects constants into a lookup or a
; select; either way the function keeps returning the same values.

; CHECK-LABEL: @classify(
; CHECK-NOT: switch i32
; CHECK: ret i32
define i32 @classify(i32 %c) {
entry:
  switch i32 %c, label %other [
    i32 0, label %zero ; the zero case
    i32 1, label %one
  ]

zero:
  br label %done

one:
  br label %done

other:
  br label %done

done:
  ; merge point of the three cases
  %r = phi i32 [ 10, %zero ], [ 20, %one ], [ 30, %other ]
  ret i32 %r
}
