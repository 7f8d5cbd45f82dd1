; Corpus: comparisons and selects.
; Exercises: SETE/SETGT/SETGE/SETNE (f32 compare producing 1.0/0.0),
; SETE_DX10/SETGT_DX10/SETGE_DX10/SETNE_DX10 (f32 compare producing -1/0),
; SETE_INT/SETNE_INT/SETGT_INT/SETGE_INT/SETGT_UINT/SETGE_UINT (i32 compares,
; including swapped lt/le forms), CNDE/CNDGT/CNDGE (f32 select against 0.0),
; CNDE_INT/CNDGT_INT/CNDGE_INT (i32 select against 0, with i32 and f32 data),
; and the generic two-step select_cc lowering.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @fset_float_result(<4 x float> addrspace(1)* %out, float %a, float %b) {
  %c0 = fcmp oeq float %a, %b
  %c1 = fcmp ogt float %a, %b
  %c2 = fcmp oge float %a, %b
  %c3 = fcmp une float %a, %b
  %r0 = select i1 %c0, float 1.0, float 0.0
  %r1 = select i1 %c1, float 1.0, float 0.0
  %r2 = select i1 %c2, float 1.0, float 0.0
  %r3 = select i1 %c3, float 1.0, float 0.0
  %v0 = insertelement <4 x float> undef, float %r0, i32 0
  %v1 = insertelement <4 x float> %v0, float %r1, i32 1
  %v2 = insertelement <4 x float> %v1, float %r2, i32 2
  %v3 = insertelement <4 x float> %v2, float %r3, i32 3
  store <4 x float> %v3, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @fset_dx10(<4 x i32> addrspace(1)* %out, float %a, float %b) {
  %c0 = fcmp oeq float %a, %b
  %c1 = fcmp ogt float %a, %b
  %c2 = fcmp oge float %a, %b
  %c3 = fcmp une float %a, %b
  %r0 = sext i1 %c0 to i32
  %r1 = sext i1 %c1 to i32
  %r2 = sext i1 %c2 to i32
  %r3 = sext i1 %c3 to i32
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @fset_lt_le(<4 x i32> addrspace(1)* %out, float %a, float %b) {
  %c0 = fcmp olt float %a, %b
  %c1 = fcmp ole float %a, %b
  %c2 = fcmp ueq float %a, %b
  %c3 = fcmp one float %a, %b
  %r0 = sext i1 %c0 to i32
  %r1 = sext i1 %c1 to i32
  %r2 = sext i1 %c2 to i32
  %r3 = sext i1 %c3 to i32
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @fcmp_unordered(<2 x i32> addrspace(1)* %out, float %a, float %b) {
  %c0 = fcmp uno float %a, %b
  %c1 = fcmp ord float %a, %b
  %r0 = sext i1 %c0 to i32
  %r1 = sext i1 %c1 to i32
  %v0 = insertelement <2 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %r1, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @iset_signed(<4 x i32> addrspace(1)* %out, i32 %a, i32 %b) {
  %c0 = icmp eq i32 %a, %b
  %c1 = icmp ne i32 %a, %b
  %c2 = icmp sgt i32 %a, %b
  %c3 = icmp sge i32 %a, %b
  %r0 = sext i1 %c0 to i32
  %r1 = sext i1 %c1 to i32
  %r2 = sext i1 %c2 to i32
  %r3 = sext i1 %c3 to i32
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @iset_unsigned(<4 x i32> addrspace(1)* %out, i32 %a, i32 %b) {
  %c0 = icmp ugt i32 %a, %b
  %c1 = icmp uge i32 %a, %b
  %c2 = icmp ult i32 %a, %b
  %c3 = icmp sle i32 %a, %b
  %r0 = sext i1 %c0 to i32
  %r1 = sext i1 %c1 to i32
  %r2 = sext i1 %c2 to i32
  %r3 = sext i1 %c3 to i32
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cnd_float(<4 x float> addrspace(1)* %out, float %a, float %b, float %c) {
  %c0 = fcmp oeq float %a, 0.0
  %c1 = fcmp ogt float %a, 0.0
  %c2 = fcmp oge float %a, 0.0
  %c3 = fcmp une float %a, 0.0
  %r0 = select i1 %c0, float %b, float %c
  %r1 = select i1 %c1, float %b, float %c
  %r2 = select i1 %c2, float %b, float %c
  %r3 = select i1 %c3, float %b, float %c
  %v0 = insertelement <4 x float> undef, float %r0, i32 0
  %v1 = insertelement <4 x float> %v0, float %r1, i32 1
  %v2 = insertelement <4 x float> %v1, float %r2, i32 2
  %v3 = insertelement <4 x float> %v2, float %r3, i32 3
  store <4 x float> %v3, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cnd_int(<4 x i32> addrspace(1)* %out, i32 %a, i32 %b, i32 %c) {
  %c0 = icmp eq i32 %a, 0
  %c1 = icmp sgt i32 %a, 0
  %c2 = icmp sge i32 %a, 0
  %c3 = icmp sgt i32 %a, -1
  %r0 = select i1 %c0, i32 %b, i32 %c
  %r1 = select i1 %c1, i32 %b, i32 %c
  %r2 = select i1 %c2, i32 %c, i32 %b
  %r3 = select i1 %c3, i32 %b, i32 %c
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cnd_int_float_data(<2 x float> addrspace(1)* %out, i32 %a, float %b, float %c) {
  %c0 = icmp sgt i32 %a, 0
  %c1 = icmp eq i32 %a, 0
  %r0 = select i1 %c0, float %b, float %c
  %r1 = select i1 %c1, float %b, float %c
  %v0 = insertelement <2 x float> undef, float %r0, i32 0
  %v1 = insertelement <2 x float> %v0, float %r1, i32 1
  store <2 x float> %v1, <2 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @select_generic(<2 x float> addrspace(1)* %out, float %a, float %b, float %c, i32 %i, i32 %j) {
  %c0 = fcmp ogt float %a, %b
  %r0 = select i1 %c0, float %c, float %a
  %c1 = icmp ult i32 %i, %j
  %r1 = select i1 %c1, float %b, float %c
  %v0 = insertelement <2 x float> undef, float %r0, i32 0
  %v1 = insertelement <2 x float> %v0, float %r1, i32 1
  store <2 x float> %v1, <2 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @bool_logic(i32 addrspace(1)* %out, i32 %a, i32 %b, float %x, float %y) {
  %c0 = icmp slt i32 %a, %b
  %c1 = fcmp olt float %x, %y
  %c = and i1 %c0, %c1
  %d = xor i1 %c, %c0
  %r = zext i1 %d to i32
  store i32 %r, i32 addrspace(1)* %out
  ret void
}
