; Corpus: texture fetch instructions.
; Exercises: TEX_SAMPLE (llvm.r600.tex) and TEX_SAMPLE_C (llvm.r600.texc) with
; different resource / sampler ids, normalized and unnormalized coordinate
; types (CT field), texel offsets, source swizzles produced by the swizzle
; optimizer (constant 0.0 / 1.0 coordinates and repeated components), several
; fetches in one clause, and dependent fetches (a second TEX clause).
; LLVM 14 cannot select llvm.r600.txl/txlc/txb/txbc/txf/txq/ddx/ddy (see notes).
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @tex_sample(<4 x float> addrspace(1)* %out, <4 x float> %c) {
  %r = call <4 x float> @llvm.r600.tex(<4 x float> %c, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1)
  store <4 x float> %r, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @tex_sample_ids_unnorm(<4 x float> addrspace(1)* %out, <4 x float> %c) {
  %r = call <4 x float> @llvm.r600.tex(<4 x float> %c, i32 0, i32 0, i32 0, i32 7, i32 3, i32 0, i32 0, i32 1, i32 1)
  store <4 x float> %r, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @tex_sample_offsets(<4 x float> addrspace(1)* %out, <4 x float> %c) {
  %r = call <4 x float> @llvm.r600.tex(<4 x float> %c, i32 1, i32 -2, i32 3, i32 2, i32 5, i32 1, i32 1, i32 0, i32 1)
  store <4 x float> %r, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @tex_sample_c(<4 x float> addrspace(1)* %out, <4 x float> %c) {
  %r = call <4 x float> @llvm.r600.texc(<4 x float> %c, i32 0, i32 0, i32 0, i32 4, i32 1, i32 1, i32 1, i32 1, i32 1)
  store <4 x float> %r, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @tex_swizzle_consts(<4 x float> addrspace(1)* %out, float %u, float %v) {
  %c0 = insertelement <4 x float> undef, float %u, i32 0
  %c1 = insertelement <4 x float> %c0, float %v, i32 1
  %c2 = insertelement <4 x float> %c1, float 0.0, i32 2
  %c3 = insertelement <4 x float> %c2, float 1.0, i32 3
  %r = call <4 x float> @llvm.r600.tex(<4 x float> %c3, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1)
  store <4 x float> %r, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @tex_swizzle_repeat(<4 x float> addrspace(1)* %out, float %u, float %v) {
  %c0 = insertelement <4 x float> undef, float %v, i32 0
  %c1 = insertelement <4 x float> %c0, float %u, i32 1
  %c2 = insertelement <4 x float> %c1, float %u, i32 2
  %c3 = insertelement <4 x float> %c2, float %v, i32 3
  %r = call <4 x float> @llvm.r600.texc(<4 x float> %c3, i32 0, i32 0, i32 0, i32 2, i32 2, i32 1, i32 1, i32 1, i32 1)
  store <4 x float> %r, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @tex_two_fetches(<4 x float> addrspace(1)* %out, <4 x float> %c, <4 x float> %d) {
  %r = call <4 x float> @llvm.r600.tex(<4 x float> %c, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1)
  %s = call <4 x float> @llvm.r600.texc(<4 x float> %d, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1)
  %t = fadd <4 x float> %r, %s
  store <4 x float> %t, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @tex_dependent(<4 x float> addrspace(1)* %out, <4 x float> %c) {
  %r = call <4 x float> @llvm.r600.tex(<4 x float> %c, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1)
  %m = fmul <4 x float> %r, <float 2.0, float 2.0, float 2.0, float 2.0>
  %s = call <4 x float> @llvm.r600.tex(<4 x float> %m, i32 0, i32 0, i32 0, i32 3, i32 3, i32 1, i32 1, i32 1, i32 1)
  store <4 x float> %s, <4 x float> addrspace(1)* %out
  ret void
}

declare <4 x float> @llvm.r600.tex(<4 x float>, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare <4 x float> @llvm.r600.texc(<4 x float>, i32, i32, i32, i32, i32, i32, i32, i32, i32)
