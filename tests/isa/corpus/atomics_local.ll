; Corpus: LDS atomics, with and without a used return value.
; Exercises: LDS_ADD/LDS_SUB/LDS_AND/LDS_OR/LDS_XOR/LDS_MIN_INT/LDS_MAX_INT/
; LDS_MIN_UINT/LDS_MAX_UINT/LDS_WRXCHG (no-return forms, selected when the
; atomicrmw result is unused) and their *_RET forms, LDS_CMPST_RET (cmpxchg,
; always the returning form), with the returned value read from OQAP.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @lds_atomic_noret(i32 addrspace(3)* %p, i32 %v) {
  %r0 = atomicrmw add i32 addrspace(3)* %p, i32 %v seq_cst
  %p1 = getelementptr i32, i32 addrspace(3)* %p, i32 1
  %r1 = atomicrmw sub i32 addrspace(3)* %p1, i32 %v seq_cst
  %p2 = getelementptr i32, i32 addrspace(3)* %p, i32 2
  %r2 = atomicrmw and i32 addrspace(3)* %p2, i32 %v seq_cst
  %p3 = getelementptr i32, i32 addrspace(3)* %p, i32 3
  %r3 = atomicrmw or i32 addrspace(3)* %p3, i32 %v seq_cst
  %p4 = getelementptr i32, i32 addrspace(3)* %p, i32 4
  %r4 = atomicrmw xor i32 addrspace(3)* %p4, i32 %v seq_cst
  ret void
}

define amdgpu_kernel void @lds_atomic_minmax_noret(i32 addrspace(3)* %p, i32 %v) {
  %r0 = atomicrmw min i32 addrspace(3)* %p, i32 %v seq_cst
  %p1 = getelementptr i32, i32 addrspace(3)* %p, i32 1
  %r1 = atomicrmw max i32 addrspace(3)* %p1, i32 %v seq_cst
  %p2 = getelementptr i32, i32 addrspace(3)* %p, i32 2
  %r2 = atomicrmw umin i32 addrspace(3)* %p2, i32 %v seq_cst
  %p3 = getelementptr i32, i32 addrspace(3)* %p, i32 3
  %r3 = atomicrmw umax i32 addrspace(3)* %p3, i32 %v seq_cst
  %p4 = getelementptr i32, i32 addrspace(3)* %p, i32 4
  %r4 = atomicrmw xchg i32 addrspace(3)* %p4, i32 %v seq_cst
  ret void
}

define amdgpu_kernel void @lds_atomic_ret(<4 x i32> addrspace(1)* %out, i32 addrspace(3)* %p, i32 %v) {
  %r0 = atomicrmw add i32 addrspace(3)* %p, i32 %v seq_cst
  %p1 = getelementptr i32, i32 addrspace(3)* %p, i32 1
  %r1 = atomicrmw sub i32 addrspace(3)* %p1, i32 %v seq_cst
  %p2 = getelementptr i32, i32 addrspace(3)* %p, i32 2
  %r2 = atomicrmw and i32 addrspace(3)* %p2, i32 %v seq_cst
  %p3 = getelementptr i32, i32 addrspace(3)* %p, i32 3
  %r3 = atomicrmw or i32 addrspace(3)* %p3, i32 %v seq_cst
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @lds_atomic_ret2(<4 x i32> addrspace(1)* %out, i32 addrspace(3)* %p, i32 %v) {
  %r0 = atomicrmw xor i32 addrspace(3)* %p, i32 %v seq_cst
  %p1 = getelementptr i32, i32 addrspace(3)* %p, i32 1
  %r1 = atomicrmw min i32 addrspace(3)* %p1, i32 %v seq_cst
  %p2 = getelementptr i32, i32 addrspace(3)* %p, i32 2
  %r2 = atomicrmw max i32 addrspace(3)* %p2, i32 %v seq_cst
  %p3 = getelementptr i32, i32 addrspace(3)* %p, i32 3
  %r3 = atomicrmw umin i32 addrspace(3)* %p3, i32 %v seq_cst
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @lds_atomic_ret3(<4 x i32> addrspace(1)* %out, i32 addrspace(3)* %p, i32 %v, i32 %c) {
  %r0 = atomicrmw umax i32 addrspace(3)* %p, i32 %v seq_cst
  %p1 = getelementptr i32, i32 addrspace(3)* %p, i32 1
  %r1 = atomicrmw xchg i32 addrspace(3)* %p1, i32 %v seq_cst
  %p2 = getelementptr i32, i32 addrspace(3)* %p, i32 2
  %pair = cmpxchg i32 addrspace(3)* %p2, i32 %c, i32 %v seq_cst seq_cst
  %r2 = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  %r3 = zext i1 %ok to i32
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @lds_cmpxchg_noret(i32 addrspace(3)* %p, i32 %c, i32 %v) {
  %pair = cmpxchg i32 addrspace(3)* %p, i32 %c, i32 %v seq_cst seq_cst
  ret void
}
