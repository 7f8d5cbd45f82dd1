; Corpus: relative (indirect) GPR addressing.
; Exercises: MOVA_INT (address register load) and ALU instructions with
; relative destination / source GPRs (T[n+AR.x]) produced by: private
; (alloca) arrays indexed with a dynamic index (register-backed stack),
; dynamic extractelement / insertelement on v4i32 / v4f32 / v2i32 vectors,
; private byte / short accesses (read-modify-write of the containing dword).
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @private_array(i32 addrspace(1)* %out, i32 %i, i32 %j, i32 %v) {
  %arr = alloca [8 x i32], align 4, addrspace(5)
  %p0 = getelementptr [8 x i32], [8 x i32] addrspace(5)* %arr, i32 0, i32 0
  store i32 1, i32 addrspace(5)* %p0
  %p1 = getelementptr [8 x i32], [8 x i32] addrspace(5)* %arr, i32 0, i32 1
  store i32 2, i32 addrspace(5)* %p1
  %pi = getelementptr [8 x i32], [8 x i32] addrspace(5)* %arr, i32 0, i32 %i
  store i32 %v, i32 addrspace(5)* %pi
  %pj = getelementptr [8 x i32], [8 x i32] addrspace(5)* %arr, i32 0, i32 %j
  %r = load i32, i32 addrspace(5)* %pj
  store i32 %r, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @private_array_loop(float addrspace(1)* %out, i32 %n, i32 %k) {
entry:
  %arr = alloca [16 x float], align 4, addrspace(5)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %f = sitofp i32 %i to float
  %p = getelementptr [16 x float], [16 x float] addrspace(5)* %arr, i32 0, i32 %i
  store float %f, float addrspace(5)* %p
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, 16
  br i1 %c, label %loop, label %exit
exit:
  %q = getelementptr [16 x float], [16 x float] addrspace(5)* %arr, i32 0, i32 %k
  %r = load float, float addrspace(5)* %q
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @private_bytes(i32 addrspace(1)* %out, i32 %i, i32 %v) {
  %arr = alloca [16 x i8], align 4, addrspace(5)
  %b = bitcast [16 x i8] addrspace(5)* %arr to i32 addrspace(5)*
  store i32 0, i32 addrspace(5)* %b
  %b1 = getelementptr i32, i32 addrspace(5)* %b, i32 1
  store i32 0, i32 addrspace(5)* %b1
  %p = getelementptr [16 x i8], [16 x i8] addrspace(5)* %arr, i32 0, i32 %i
  %t = trunc i32 %v to i8
  store i8 %t, i8 addrspace(5)* %p
  %q = getelementptr [16 x i8], [16 x i8] addrspace(5)* %arr, i32 0, i32 3
  %r = load i8, i8 addrspace(5)* %q
  %e = sext i8 %r to i32
  store i32 %e, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @extract_dynamic(<2 x float> addrspace(1)* %out, <4 x i32> %v, <4 x float> %f, i32 %i) {
  %e = extractelement <4 x i32> %v, i32 %i
  %g = extractelement <4 x float> %f, i32 %i
  %ef = bitcast i32 %e to float
  %r0 = insertelement <2 x float> undef, float %ef, i32 0
  %r1 = insertelement <2 x float> %r0, float %g, i32 1
  store <2 x float> %r1, <2 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @insert_dynamic(<4 x i32> addrspace(1)* %out, <4 x i32> %v, i32 %x, i32 %i) {
  %r = insertelement <4 x i32> %v, i32 %x, i32 %i
  store <4 x i32> %r, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @insert_extract_v2(<2 x i32> addrspace(1)* %out, <2 x i32> %v, i32 %x, i32 %i, i32 %j) {
  %r = insertelement <2 x i32> %v, i32 %x, i32 %i
  %e = extractelement <2 x i32> %r, i32 %j
  %s = insertelement <2 x i32> %r, i32 %e, i32 0
  store <2 x i32> %s, <2 x i32> addrspace(1)* %out
  ret void
}
