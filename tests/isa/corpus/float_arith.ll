; Corpus: basic f32 arithmetic on the R600 family backend.
; Exercises: ADD (fadd/fsub with neg modifier), MUL_IEEE (fmul), fdiv
; (RECIP_IEEE + MUL_IEEE), MAX/MIN (legacy select-based), MAX_DX10/MIN_DX10
; (llvm.maxnum/minnum), FRACT (llvm.amdgcn.fract), FLOOR, CEIL, TRUNC, RNDNE
; (rint/nearbyint), MULADD_IEEE (fmuladd -> fmad, llvm.amdgcn.fmad.ftz), FMA (llvm.fma where the
; subtarget has FMA), MOV with abs/neg source modifiers (fabs/fneg), BFI_INT
; (copysign), literal constants and inline constants (0.5, 1.0, 0.0).
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @fadd_fsub(float addrspace(1)* %out, float %a, float %b) {
  %s = fadd float %a, %b
  %d = fsub float %a, %b
  %r = fmul float %s, %d
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @fmul_literal(float addrspace(1)* %out, float %a) {
  %m = fmul float %a, 3.25
  %h = fmul float %m, 0.5
  %o = fadd float %h, 1.0
  store float %o, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @fdiv_f32(float addrspace(1)* %out, float %a, float %b) {
  %q = fdiv float %a, %b
  store float %q, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @rcp_fast(float addrspace(1)* %out, float %a) {
  %q = fdiv arcp float 1.0, %a
  store float %q, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @fneg_fabs(float addrspace(1)* %out, float %a, float %b) {
  %n = fneg float %a
  %ab = call float @llvm.fabs.f32(float %b)
  %nab = fneg float %ab
  %x = fmul float %n, %ab
  %y = fadd float %x, %nab
  store float %y, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @legacy_min_max(float addrspace(1)* %out, float %a, float %b) {
  %c1 = fcmp olt float %a, %b
  %mn = select i1 %c1, float %a, float %b
  %c2 = fcmp ogt float %a, %b
  %mx = select i1 %c2, float %a, float %b
  %r = fadd float %mn, %mx
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @minnum_maxnum(float addrspace(1)* %out, float %a, float %b) {
  %mn = call float @llvm.minnum.f32(float %a, float %b)
  %mx = call float @llvm.maxnum.f32(float %a, float %b)
  %r = fmul float %mn, %mx
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @rounding(<4 x float> addrspace(1)* %out, float %a) {
  %f = call float @llvm.floor.f32(float %a)
  %c = call float @llvm.ceil.f32(float %a)
  %t = call float @llvm.trunc.f32(float %a)
  %r = call float @llvm.rint.f32(float %a)
  %v0 = insertelement <4 x float> undef, float %f, i32 0
  %v1 = insertelement <4 x float> %v0, float %c, i32 1
  %v2 = insertelement <4 x float> %v1, float %t, i32 2
  %v3 = insertelement <4 x float> %v2, float %r, i32 3
  store <4 x float> %v3, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @nearbyint_round(float addrspace(1)* %out, float %a) {
  %n = call float @llvm.nearbyint.f32(float %a)
  %r = call float @llvm.round.f32(float %a)
  %s = fadd float %n, %r
  store float %s, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @fract_intrinsic(float addrspace(1)* %out, float %a) {
  %f = call float @llvm.amdgcn.fract.f32(float %a)
  store float %f, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @fmuladd_f32(float addrspace(1)* %out, float %a, float %b, float %c) {
  %r = call float @llvm.fmuladd.f32(float %a, float %b, float %c)
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @fmad_ftz(float addrspace(1)* %out, float %a, float %b, float %c) {
  %r = call float @llvm.amdgcn.fmad.ftz.f32(float %a, float %b, float %c)
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mul_add_contract(float addrspace(1)* %out, float %a, float %b, float %c) {
  %m = fmul contract float %a, %b
  %r = fadd contract float %m, %c
  %n = fneg float %r
  %m2 = fmul contract float %n, %c
  %r2 = fsub contract float %m2, %a
  store float %r2, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @copysign_f32(float addrspace(1)* %out, float %a, float %b) {
  %r = call float @llvm.copysign.f32(float %a, float %b)
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @vec4_fadd(<4 x float> addrspace(1)* %out, <4 x float> %a, <4 x float> %b) {
  %r = fadd <4 x float> %a, %b
  %m = fmul <4 x float> %r, %b
  store <4 x float> %m, <4 x float> addrspace(1)* %out
  ret void
}

; FMA is only legal when the subtarget has the fmaf feature (cypress and
; cayman do by default, barts does not), so request it per function.
define amdgpu_kernel void @fma_f32(float addrspace(1)* %out, float %a, float %b, float %c) #0 {
  %r = call float @llvm.fma.f32(float %a, float %b, float %c)
  store float %r, float addrspace(1)* %out
  ret void
}

declare float @llvm.fma.f32(float, float, float)
declare float @llvm.fabs.f32(float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.floor.f32(float)
declare float @llvm.ceil.f32(float)
declare float @llvm.trunc.f32(float)
declare float @llvm.rint.f32(float)
declare float @llvm.nearbyint.f32(float)
declare float @llvm.round.f32(float)
declare float @llvm.amdgcn.fract.f32(float)
declare float @llvm.fmuladd.f32(float, float, float)
declare float @llvm.amdgcn.fmad.ftz.f32(float, float, float)
declare float @llvm.copysign.f32(float, float)

attributes #0 = { "target-features"="+fmaf" }
