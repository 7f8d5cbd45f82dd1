; Corpus: reduction / vector-slot instructions.
; Exercises: DOT4 (llvm.r600.dot4, issued across the four vector slots with
; one real destination), CUBE (llvm.r600.cube, four CUBE ops with the
; swizzled operand pattern), DOT4 with constant-buffer and literal operands,
; dot products built from plain fmul/fadd (MULADD_IEEE chains for comparison).
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @dot4(float addrspace(1)* %out, <4 x float> %a, <4 x float> %b) {
  %d = call float @llvm.r600.dot4(<4 x float> %a, <4 x float> %b)
  store float %d, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @dot4_const(float addrspace(1)* %out, <4 x float> %a) {
  %d = call float @llvm.r600.dot4(<4 x float> %a, <4 x float> <float 1.0, float 2.0, float 0.5, float -3.0>)
  store float %d, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @dot4_loaded(float addrspace(1)* %out, <4 x float> addrspace(1)* %in) {
  %a = load <4 x float>, <4 x float> addrspace(1)* %in
  %p = getelementptr <4 x float>, <4 x float> addrspace(1)* %in, i32 1
  %b = load <4 x float>, <4 x float> addrspace(1)* %p
  %d = call float @llvm.r600.dot4(<4 x float> %a, <4 x float> %b)
  %e = call float @llvm.r600.dot4(<4 x float> %a, <4 x float> %a)
  %s = fadd float %d, %e
  store float %s, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cube(<4 x float> addrspace(1)* %out, <4 x float> %v) {
  %c = call <4 x float> @llvm.r600.cube(<4 x float> %v)
  store <4 x float> %c, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cube_coords(<2 x float> addrspace(1)* %out, float %x, float %y, float %z) {
  %v0 = insertelement <4 x float> undef, float %z, i32 0
  %v1 = insertelement <4 x float> %v0, float %z, i32 1
  %v2 = insertelement <4 x float> %v1, float %x, i32 2
  %v3 = insertelement <4 x float> %v2, float %y, i32 3
  %c = call <4 x float> @llvm.r600.cube(<4 x float> %v3)
  %tc = extractelement <4 x float> %c, i32 0
  %sc = extractelement <4 x float> %c, i32 1
  %ma = extractelement <4 x float> %c, i32 2
  %id = extractelement <4 x float> %c, i32 3
  %ama = call float @llvm.fabs.f32(float %ma)
  %inv = fdiv float 1.0, %ama
  %s = fmul float %sc, %inv
  %t = fmul float %tc, %inv
  %s2 = fadd float %s, %id
  %r0 = insertelement <2 x float> undef, float %s2, i32 0
  %r1 = insertelement <2 x float> %r0, float %t, i32 1
  store <2 x float> %r1, <2 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @manual_dot3(float addrspace(1)* %out, <4 x float> %a, <4 x float> %b) {
  %m = fmul <4 x float> %a, %b
  %x = extractelement <4 x float> %m, i32 0
  %y = extractelement <4 x float> %m, i32 1
  %z = extractelement <4 x float> %m, i32 2
  %s = fadd float %x, %y
  %t = fadd float %s, %z
  store float %t, float addrspace(1)* %out
  ret void
}

declare float @llvm.r600.dot4(<4 x float>, <4 x float>)
declare <4 x float> @llvm.r600.cube(<4 x float>)
declare float @llvm.fabs.f32(float)
