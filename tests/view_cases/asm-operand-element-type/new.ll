define weak_odr void @x86_cpuid_halide(i32* %info) nounwind uwtable {
  %1 = getelementptr inbounds i32, i32* %info, i32 1
  %2 = load i32, i32* %1
  %3 = add i32 %2, 1
  call void asm sideeffect inteldialect "xchg ebx, esi\0A\09mov eax, dword ptr $$0 $0\0A\09cpuid\0A\09xchg ebx, esi", "=*m,~{eax},~{ebx},~{ecx},~{edx},~{esi},~{dirflag},~{fpsr},~{flags}"(i32* elementtype(i32) %info)
  store i32 %3, i32* %1
  ret void
}
