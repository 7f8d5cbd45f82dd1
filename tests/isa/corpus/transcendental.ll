; Corpus: transcendental (trans-unit / cayman vector-replicated) f32 ops.
; Exercises: RECIPSQRT_IEEE (llvm.r600.recipsqrt.ieee, llvm.amdgcn.rsq),
; RECIPSQRT_CLAMPED (llvm.r600.recipsqrt.clamped, llvm.amdgcn.rsq.clamp), RECIP_IEEE
; (llvm.amdgcn.rcp, sqrt expansion), EXP_IEEE (llvm.exp2, llvm.exp),
; LOG_IEEE (llvm.log2, llvm.log, llvm.log10), MUL NON-IEEE (llvm.pow ->
; LOG_IEEE/MUL/EXP_IEEE), SIN/COS (llvm.sin/llvm.cos, range-reduced with
; FRACT), llvm.sqrt (RECIPSQRT_IEEE + RECIP_IEEE).
; On cayman every transcendental op is replicated into the four vector slots.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @rsq_ieee(float addrspace(1)* %out, float %a) {
  %r = call float @llvm.r600.recipsqrt.ieee.f32(float %a)
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @rsq_clamped(float addrspace(1)* %out, float %a) {
  %r = call float @llvm.r600.recipsqrt.clamped.f32(float %a)
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @amdgcn_rsq_clamp(float addrspace(1)* %out, float %a) {
  %r = call float @llvm.amdgcn.rsq.clamp.f32(float %a)
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @amdgcn_rsq_rcp(float addrspace(1)* %out, float %a, float %b) {
  %r = call float @llvm.amdgcn.rsq.f32(float %a)
  %c = call float @llvm.amdgcn.rcp.f32(float %b)
  %s = fadd float %r, %c
  store float %s, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @sqrt_f32(float addrspace(1)* %out, float %a) {
  %r = call float @llvm.sqrt.f32(float %a)
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @exp2_log2(float addrspace(1)* %out, float %a, float %b) {
  %e = call float @llvm.exp2.f32(float %a)
  %l = call float @llvm.log2.f32(float %b)
  %s = fadd float %e, %l
  store float %s, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @exp_log_log10(float addrspace(1)* %out, float %a, float %b, float %c) {
  %e = call float @llvm.exp.f32(float %a)
  %l = call float @llvm.log.f32(float %b)
  %t = call float @llvm.log10.f32(float %c)
  %s = fadd float %e, %l
  %u = fadd float %s, %t
  store float %u, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @pow_f32(float addrspace(1)* %out, float %a, float %b) {
  %r = call float @llvm.pow.f32(float %a, float %b)
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @sin_cos(float addrspace(1)* %out, float %a) {
  %s = call float @llvm.sin.f32(float %a)
  %c = call float @llvm.cos.f32(float %a)
  %r = fmul float %s, %c
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @vec_rsq(<4 x float> addrspace(1)* %out, <4 x float> %a) {
  %r = call <4 x float> @llvm.sqrt.v4f32(<4 x float> %a)
  store <4 x float> %r, <4 x float> addrspace(1)* %out
  ret void
}

declare float @llvm.r600.recipsqrt.ieee.f32(float)
declare float @llvm.r600.recipsqrt.clamped.f32(float)
declare float @llvm.amdgcn.rsq.f32(float)
declare float @llvm.amdgcn.rsq.clamp.f32(float)
declare float @llvm.amdgcn.rcp.f32(float)
declare float @llvm.sqrt.f32(float)
declare <4 x float> @llvm.sqrt.v4f32(<4 x float>)
declare float @llvm.exp2.f32(float)
declare float @llvm.log2.f32(float)
declare float @llvm.exp.f32(float)
declare float @llvm.log.f32(float)
declare float @llvm.log10.f32(float)
declare float @llvm.pow.f32(float, float)
declare float @llvm.sin.f32(float)
declare float @llvm.cos.f32(float)
