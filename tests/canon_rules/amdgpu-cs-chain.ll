; `llvm.amdgcn.cs.chain` hands the wave over to another shader and never
; returns; the verifier wants it followed directly by `unreachable` (or by
; `llvm.amdgcn.unreachable`). Computations used nowhere in the block must
; not be parked between the two.
; RUN: irgit canon %s | FileCheck %s

target triple = "amdgcn--amdpal"

declare amdgpu_cs_chain void @next_shader(<3 x i32> inreg, { i32, ptr addrspace(5), i32, i32 })
declare void @llvm.amdgcn.cs.chain.p0.i32.v3i32.sl_i32p5i32i32s(ptr, i32, <3 x i32>, { i32, ptr addrspace(5), i32, i32 }, i32 immarg, ...)
declare void @llvm.amdgcn.unreachable()

define amdgpu_cs_chain void @chain_in_a_branch(<3 x i32> inreg %sgpr, { i32, ptr addrspace(5), i32, i32 } %vgpr, i32 %x) {
; CHECK-LABEL: define amdgpu_cs_chain void @chain_in_a_branch(
; CHECK: call void (ptr, i32, <3 x i32>, { i32, ptr addrspace(5), i32, i32 }, i32, ...) @llvm.amdgcn.cs.chain.p0.i32.v3i32.sl_i32p5i32i32s(
; CHECK-NEXT: call void @llvm.amdgcn.unreachable()
entry:
  %go = icmp ne i32 %x, 0
  br i1 %go, label %chain, label %done

chain:
  %half = lshr i32 %x, 1
  call void (ptr, i32, <3 x i32>, { i32, ptr addrspace(5), i32, i32 }, i32, ...) @llvm.amdgcn.cs.chain.p0.i32.v3i32.sl_i32p5i32i32s(ptr @next_shader, i32 -1, <3 x i32> inreg %sgpr, { i32, ptr addrspace(5), i32, i32 } %vgpr, i32 0)
  call void @llvm.amdgcn.unreachable()
  %after = xor i32 %half, 5
  br label %done

done:
  ret void
}

define amdgpu_cs_chain void @chain_then_unreachable(<3 x i32> inreg %sgpr, { i32, ptr addrspace(5), i32, i32 } %vgpr, i32 %x) {
; CHECK-LABEL: define amdgpu_cs_chain void @chain_then_unreachable(
; CHECK: call void (ptr, i32, <3 x i32>, { i32, ptr addrspace(5), i32, i32 }, i32, ...) @llvm.amdgcn.cs.chain.p0.i32.v3i32.sl_i32p5i32i32s(
; CHECK-NEXT: unreachable
entry:
  %mask = add i32 %x, -1
  %unused = mul i32 %x, 3
  call void (ptr, i32, <3 x i32>, { i32, ptr addrspace(5), i32, i32 }, i32, ...) @llvm.amdgcn.cs.chain.p0.i32.v3i32.sl_i32p5i32i32s(ptr @next_shader, i32 %mask, <3 x i32> inreg %sgpr, { i32, ptr addrspace(5), i32, i32 } %vgpr, i32 0)
  unreachable
}

