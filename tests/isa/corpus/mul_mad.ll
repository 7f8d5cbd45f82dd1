; Corpus: 24-bit multiply / multiply-add selection.
; Exercises: MUL_UINT24 (llvm.amdgcn.mul.u24), MULADD_UINT24
; (llvm.amdgcn.mul.u24 + add), MULHI_UINT24 (llvm.amdgcn.mulhi.u24 and the
; high half of a 24x24 unsigned i64 product), and on cayman MULHI_INT24 from
; the high half of a signed 24x24 product (on cypress/barts that kernel falls
; back to MULLO_INT/MULHI_INT).  Plain i32 muls of masked values stay
; MULLO_INT: LLVM 14 only forms MUL_U24 for divergent nodes and the r600
; target reports no divergence.  The signed llvm.amdgcn.mul.i24 intrinsic only
; selects on cayman, see mul24_cayman_only.ll.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @intr_mul_u24(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %m = call i32 @llvm.amdgcn.mul.u24(i32 %a, i32 %b)
  store i32 %m, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @intr_mad_u24(i32 addrspace(1)* %out, i32 %a, i32 %b, i32 %c) {
  %m = call i32 @llvm.amdgcn.mul.u24(i32 %a, i32 %b)
  %s = add i32 %m, %c
  store i32 %s, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @intr_mulhi_u24(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %m = call i32 @llvm.amdgcn.mulhi.u24(i32 %a, i32 %b)
  store i32 %m, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mul_u24(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %x = and i32 %a, 16777215
  %y = and i32 %b, 16777215
  %m = mul i32 %x, %y
  store i32 %m, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mad_u24(i32 addrspace(1)* %out, i32 %a, i32 %b, i32 %c) {
  %x = and i32 %a, 16777215
  %y = and i32 %b, 16777215
  %m = mul i32 %x, %y
  %s = add i32 %m, %c
  store i32 %s, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mulhi_u24(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %x = and i32 %a, 16777215
  %y = and i32 %b, 16777215
  %ex = zext i32 %x to i64
  %ey = zext i32 %y to i64
  %m = mul i64 %ex, %ey
  %h = lshr i64 %m, 32
  %t = trunc i64 %h to i32
  store i32 %t, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mul_u24_i64(i64 addrspace(1)* %out, i32 %a, i32 %b) {
  %x = and i32 %a, 16777215
  %y = and i32 %b, 16777215
  %ex = zext i32 %x to i64
  %ey = zext i32 %y to i64
  %m = mul i64 %ex, %ey
  store i64 %m, i64 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mul_i24(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %a1 = shl i32 %a, 8
  %x = ashr i32 %a1, 8
  %b1 = shl i32 %b, 8
  %y = ashr i32 %b1, 8
  %m = mul i32 %x, %y
  store i32 %m, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mad_i24(i32 addrspace(1)* %out, i32 %a, i32 %b, i32 %c) {
  %a1 = shl i32 %a, 8
  %x = ashr i32 %a1, 8
  %b1 = shl i32 %b, 8
  %y = ashr i32 %b1, 8
  %m = mul i32 %x, %y
  %s = add i32 %m, %c
  store i32 %s, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mulhi_i24(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %a1 = shl i32 %a, 8
  %x = ashr i32 %a1, 8
  %b1 = shl i32 %b, 8
  %y = ashr i32 %b1, 8
  %ex = sext i32 %x to i64
  %ey = sext i32 %y to i64
  %m = mul i64 %ex, %ey
  %h = lshr i64 %m, 32
  %t = trunc i64 %h to i32
  store i32 %t, i32 addrspace(1)* %out
  ret void
}

declare i32 @llvm.amdgcn.mul.u24(i32, i32)
declare i32 @llvm.amdgcn.mulhi.u24(i32, i32)
