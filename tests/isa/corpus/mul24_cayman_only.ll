; Corpus: signed 24-bit multiplies that only exist on Cayman (VLIW4).
; CAYMAN ONLY: llvm.amdgcn.mul.i24 / llvm.amdgcn.mulhi.i24 cannot be selected
; on cypress/barts (no MUL_INT24 / MULADD_INT24 / MULHI_INT24 there).
; Exercises: MUL_INT24, MULADD_INT24 (mul.i24 + add), MULHI_INT24.
target triple = "r600--"

define amdgpu_kernel void @intr_mul_i24(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %m = call i32 @llvm.amdgcn.mul.i24(i32 %a, i32 %b)
  store i32 %m, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @intr_mad_i24(i32 addrspace(1)* %out, i32 %a, i32 %b, i32 %c) {
  %m = call i32 @llvm.amdgcn.mul.i24(i32 %a, i32 %b)
  %s = add i32 %m, %c
  store i32 %s, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @intr_mulhi_i24(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %m = call i32 @llvm.amdgcn.mulhi.i24(i32 %a, i32 %b)
  store i32 %m, i32 addrspace(1)* %out
  ret void
}

declare i32 @llvm.amdgcn.mul.i24(i32, i32)
declare i32 @llvm.amdgcn.mulhi.i24(i32, i32)
