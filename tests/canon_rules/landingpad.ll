; A landing pad block starts with its PHIs, then the `landingpad`: the
; verifier wants it to be the first non-PHI instruction. `invoke` ends its
; block like any terminator. What the handler computes is ordered as usual,
; after the landingpad.
; RUN: irgit canon %s | FileCheck %s

@_ZTIi = external constant ptr
@.fmt = private constant [11 x i8] c"got %d %d\0A\00"

declare ptr @__cxa_allocate_exception(i64)
declare void @__cxa_throw(ptr, ptr, ptr)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
declare i32 @__gxx_personality_v0(...)
declare i32 @llvm.eh.typeid.for.p0(ptr)
declare i32 @printf(ptr, ...)

define internal void @thrower(i32 %v) {
entry:
  %ex = call ptr @__cxa_allocate_exception(i64 4)
  store i32 %v, ptr %ex
  call void @__cxa_throw(ptr %ex, ptr @_ZTIi, ptr null)
  unreachable
}

define i32 @main() personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define i32 @main(
; CHECK: invoke void @thrower(i32 41)
; CHECK: invoke void @thrower(i32 42)
; CHECK: [[P:%.*]] = phi i32
; CHECK-NEXT: {{%.*}} = landingpad { ptr, i32 }
entry:
  invoke void @thrower(i32 41)
          to label %next unwind label %handler

next:
  invoke void @thrower(i32 42)
          to label %done unwind label %handler

done:
  ret i32 1

handler:
  %from = phi i32 [ 1, %entry ], [ 2, %next ]
  %lp = landingpad { ptr, i32 }
          catch ptr @_ZTIi
  %exn = extractvalue { ptr, i32 } %lp, 0
  %sel = extractvalue { ptr, i32 } %lp, 1
  %want = call i32 @llvm.eh.typeid.for.p0(ptr @_ZTIi)
  %is_int = icmp eq i32 %sel, %want
  br i1 %is_int, label %catch, label %resume

catch:
  %payload = call ptr @__cxa_begin_catch(ptr %exn)
  %value = load i32, ptr %payload
  %shown = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %from, i32 %value)
  call void @__cxa_end_catch()
  ret i32 0

resume:
  resume { ptr, i32 } %lp
}
