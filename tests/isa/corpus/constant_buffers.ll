; Corpus: constant buffer (kcache) reads.
; Exercises: ALU clause kcache locking (KC0/KC1 banks, single and double
; 16-constant lines, CB0 kernel arguments plus CB1..CB15 user buffers
; through addrspace(9..23)), ALU sources reading KC0[n].c / KC1[n].c, clause
; splitting when more than two constant lines are used, constant-buffer
; reads with a dynamic index (fetch through the constant-buffer vertex
; fetch, printed "VTX_READ_eg"), vector constant loads.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @cb1_scalar(float addrspace(1)* %out, float %a) {
  %p = getelementptr float, float addrspace(9)* null, i32 5
  %c = load float, float addrspace(9)* %p
  %r = fmul float %a, %c
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cb_two_banks(float addrspace(1)* %out) {
  %p1 = getelementptr float, float addrspace(10)* null, i32 2
  %c1 = load float, float addrspace(10)* %p1
  %p2 = getelementptr float, float addrspace(13)* null, i32 7
  %c2 = load float, float addrspace(13)* %p2
  %r = fadd float %c1, %c2
  store float %r, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cb_high_bank(<4 x i32> addrspace(1)* %out) {
  %v = load <4 x i32>, <4 x i32> addrspace(23)* null
  %p = getelementptr <4 x i32>, <4 x i32> addrspace(22)* null, i32 40
  %w = load <4 x i32>, <4 x i32> addrspace(22)* %p
  %r = add <4 x i32> %v, %w
  store <4 x i32> %r, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cb_many_lines(float addrspace(1)* %out) {
  %p0 = getelementptr <4 x float>, <4 x float> addrspace(8)* null, i32 0
  %p1 = getelementptr <4 x float>, <4 x float> addrspace(8)* null, i32 17
  %p2 = getelementptr <4 x float>, <4 x float> addrspace(8)* null, i32 35
  %p3 = getelementptr <4 x float>, <4 x float> addrspace(8)* null, i32 70
  %p4 = getelementptr <4 x float>, <4 x float> addrspace(8)* null, i32 100
  %v0 = load <4 x float>, <4 x float> addrspace(8)* %p0
  %v1 = load <4 x float>, <4 x float> addrspace(8)* %p1
  %v2 = load <4 x float>, <4 x float> addrspace(8)* %p2
  %v3 = load <4 x float>, <4 x float> addrspace(8)* %p3
  %v4 = load <4 x float>, <4 x float> addrspace(8)* %p4
  %s0 = fadd <4 x float> %v0, %v1
  %s1 = fadd <4 x float> %s0, %v2
  %s2 = fadd <4 x float> %s1, %v3
  %s3 = fadd <4 x float> %s2, %v4
  %a = extractelement <4 x float> %s3, i32 0
  %b = extractelement <4 x float> %s3, i32 1
  %c = extractelement <4 x float> %s3, i32 2
  %d = extractelement <4 x float> %s3, i32 3
  %e = fadd float %a, %b
  %f = fadd float %c, %d
  %g = fmul float %e, %f
  store float %g, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cb_dynamic_index(<4 x i32> addrspace(1)* %out, i32 %i) {
  %p = getelementptr <4 x i32>, <4 x i32> addrspace(9)* null, i32 %i
  %v = load <4 x i32>, <4 x i32> addrspace(9)* %p
  store <4 x i32> %v, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @cb_dynamic_scalar(i32 addrspace(1)* %out, i32 %i) {
  %p = getelementptr i32, i32 addrspace(12)* null, i32 %i
  %v = load i32, i32 addrspace(12)* %p
  store i32 %v, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @kernel_args_many(float addrspace(1)* %out, float %a, float %b, float %c, float %d, <4 x float> %e, <4 x float> %f, <4 x float> %g, <4 x float> %h) {
  %s = fadd float %a, %b
  %t = fadd float %c, %d
  %u = fmul float %s, %t
  %ev = fadd <4 x float> %e, %f
  %gv = fmul <4 x float> %g, %h
  %w = fadd <4 x float> %ev, %gv
  %x = extractelement <4 x float> %w, i32 0
  %y = extractelement <4 x float> %w, i32 3
  %z = fadd float %x, %y
  %r = fadd float %z, %u
  store float %r, float addrspace(1)* %out
  ret void
}
