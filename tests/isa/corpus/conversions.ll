; Corpus: numeric conversions.
; Exercises: FLT_TO_INT (fptosi, preceded by TRUNC), FLT_TO_UINT (fptoui),
; INT_TO_FLT (sitofp), UINT_TO_FLT (uitofp), FLT32_TO_FLT16
; (fptrunc to half / llvm.convert.to.fp16), FLT16_TO_FLT32 (fpext from half /
; llvm.convert.from.fp16), i1 conversions, i64 <-> f32 expansions (FFBH_UINT,
; shifts, selects), uitofp of small integers, SET*_DX10 folding of
; fptosi(fneg(select 1.0/0.0)).
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @f2i(<2 x i32> addrspace(1)* %out, float %a) {
  %s = fptosi float %a to i32
  %u = fptoui float %a to i32
  %v0 = insertelement <2 x i32> undef, i32 %s, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %u, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @i2f(<2 x float> addrspace(1)* %out, i32 %a) {
  %s = sitofp i32 %a to float
  %u = uitofp i32 %a to float
  %v0 = insertelement <2 x float> undef, float %s, i32 0
  %v1 = insertelement <2 x float> %v0, float %u, i32 1
  store <2 x float> %v1, <2 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @f32_to_f16(i32 addrspace(1)* %out, float %a) {
  %h = fptrunc float %a to half
  %b = bitcast half %h to i16
  %z = zext i16 %b to i32
  store i32 %z, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @f16_to_f32(float addrspace(1)* %out, i32 %a) {
  %t = trunc i32 %a to i16
  %h = bitcast i16 %t to half
  %f = fpext half %h to float
  store float %f, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @convert_fp16_intrinsics(<2 x i32> addrspace(1)* %out, float %a, i32 %b) {
  %h = call i16 @llvm.convert.to.fp16.f32(float %a)
  %hz = zext i16 %h to i32
  %t = trunc i32 %b to i16
  %f = call float @llvm.convert.from.fp16.f32(i16 %t)
  %fi = bitcast float %f to i32
  %v0 = insertelement <2 x i32> undef, i32 %hz, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %fi, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @half_arith(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %ta = trunc i32 %a to i16
  %tb = trunc i32 %b to i16
  %ha = bitcast i16 %ta to half
  %hb = bitcast i16 %tb to half
  %s = fadd half %ha, %hb
  %r = bitcast half %s to i16
  %z = zext i16 %r to i32
  store i32 %z, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @i1_conversions(<4 x i32> addrspace(1)* %out, float %a, i32 %b) {
  %s = fptosi float %a to i1
  %u = fptoui float %a to i1
  %t = trunc i32 %b to i1
  %f = uitofp i1 %t to float
  %g = sitofp i1 %t to float
  %se = sext i1 %s to i32
  %ue = zext i1 %u to i32
  %fi = fptosi float %f to i32
  %gi = bitcast float %g to i32
  %v0 = insertelement <4 x i32> undef, i32 %se, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %ue, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %fi, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %gi, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @i64_to_f32(<2 x float> addrspace(1)* %out, i64 %a) {
  %s = sitofp i64 %a to float
  %u = uitofp i64 %a to float
  %v0 = insertelement <2 x float> undef, float %s, i32 0
  %v1 = insertelement <2 x float> %v0, float %u, i32 1
  store <2 x float> %v1, <2 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @f32_to_i64(<2 x i64> addrspace(1)* %out, float %a) {
  %s = fptosi float %a to i64
  %u = fptoui float %a to i64
  %v0 = insertelement <2 x i64> undef, i64 %s, i32 0
  %v1 = insertelement <2 x i64> %v0, i64 %u, i32 1
  store <2 x i64> %v1, <2 x i64> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @small_int_to_float(<2 x float> addrspace(1)* %out, i32 %a) {
  %b = and i32 %a, 255
  %f = uitofp i32 %b to float
  %c = lshr i32 %a, 24
  %g = uitofp i32 %c to float
  %v0 = insertelement <2 x float> undef, float %f, i32 0
  %v1 = insertelement <2 x float> %v0, float %g, i32 1
  store <2 x float> %v1, <2 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mesa_style_bool(i32 addrspace(1)* %out, float %a, float %b) {
  %c = fcmp ogt float %a, %b
  %s = select i1 %c, float 1.0, float 0.0
  %n = fneg float %s
  %i = fptosi float %n to i32
  store i32 %i, i32 addrspace(1)* %out
  ret void
}

declare i16 @llvm.convert.to.fp16.f32(float)
declare float @llvm.convert.from.fp16.f32(i16)
