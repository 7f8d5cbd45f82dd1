; Corpus: global / constant memory reads through the vertex-fetch path.
; Exercises: VTX_READ_8, VTX_READ_16, VTX_READ_32, VTX_READ_64, VTX_READ_128
; (global addrspace(1) loads of i8/i16/i32/v2i32/v4i32, zext and sext
; i8/i16 loads, loads with constant offsets, constant addrspace(4) loads through
; a pointer argument (buffer id 1) and from a constant global (buffer id 2)).
; In compute kernels LLVM always puts vertex fetches in a CF "TEX" clause
; (the vertex cache is only used for graphics shaders; see shaders.ll for CF
; "VTX" clauses on cypress/barts).
; Compiles for cypress, barts and cayman.
target triple = "r600--"


define amdgpu_kernel void @load_u8(i32 addrspace(1)* %out, i8 addrspace(1)* %in) {
  %v = load i8, i8 addrspace(1)* %in
  %e = zext i8 %v to i32
  store i32 %e, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @load_s8(i32 addrspace(1)* %out, i8 addrspace(1)* %in) {
  %v = load i8, i8 addrspace(1)* %in
  %e = sext i8 %v to i32
  store i32 %e, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @load_u16(i32 addrspace(1)* %out, i16 addrspace(1)* %in) {
  %v = load i16, i16 addrspace(1)* %in
  %e = zext i16 %v to i32
  store i32 %e, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @load_s16(i32 addrspace(1)* %out, i16 addrspace(1)* %in) {
  %v = load i16, i16 addrspace(1)* %in
  %e = sext i16 %v to i32
  store i32 %e, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @load_i32(i32 addrspace(1)* %out, i32 addrspace(1)* %in) {
  %v = load i32, i32 addrspace(1)* %in
  store i32 %v, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @load_i32_offset(i32 addrspace(1)* %out, i32 addrspace(1)* %in) {
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 100
  %v = load i32, i32 addrspace(1)* %p
  %p2 = getelementptr i32, i32 addrspace(1)* %in, i32 3
  %w = load i32, i32 addrspace(1)* %p2
  %s = add i32 %v, %w
  store i32 %s, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @load_v2i32(<2 x i32> addrspace(1)* %out, <2 x i32> addrspace(1)* %in) {
  %v = load <2 x i32>, <2 x i32> addrspace(1)* %in
  %r = add <2 x i32> %v, <i32 1, i32 2>
  store <2 x i32> %r, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @load_v4f32(<4 x float> addrspace(1)* %out, <4 x float> addrspace(1)* %in) {
  %v = load <4 x float>, <4 x float> addrspace(1)* %in
  %r = fmul <4 x float> %v, %v
  store <4 x float> %r, <4 x float> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @load_indexed(float addrspace(1)* %out, float addrspace(1)* %in) {
  %tid = call i32 @llvm.r600.read.tidig.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %tid
  %v = load float, float addrspace(1)* %p
  %q = getelementptr float, float addrspace(1)* %out, i32 %tid
  store float %v, float addrspace(1)* %q
  ret void
}

define amdgpu_kernel void @load_constant_ptr(i32 addrspace(1)* %out, i32 addrspace(4)* %in, <4 x i32> addrspace(4)* %vin) {
  %v = load i32, i32 addrspace(4)* %in
  %w = load <4 x i32>, <4 x i32> addrspace(4)* %vin
  %e = extractelement <4 x i32> %w, i32 2
  %s = add i32 %v, %e
  store i32 %s, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @many_loads(<4 x i32> addrspace(1)* %out, i32 addrspace(1)* %in) {
  %p1 = getelementptr i32, i32 addrspace(1)* %in, i32 4
  %p2 = getelementptr i32, i32 addrspace(1)* %in, i32 8
  %p3 = getelementptr i32, i32 addrspace(1)* %in, i32 12
  %a = load i32, i32 addrspace(1)* %in
  %b = load i32, i32 addrspace(1)* %p1
  %c = load i32, i32 addrspace(1)* %p2
  %d = load i32, i32 addrspace(1)* %p3
  %v0 = insertelement <4 x i32> undef, i32 %a, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %b, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %c, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %d, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

declare i32 @llvm.r600.read.tidig.x()
