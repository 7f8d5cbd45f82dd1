; Corpus: global (RAT) atomics without return value.
; Exercises: MEM_RAT ATOMIC_XCHG_INT, ATOMIC_CMPXCHG_INT, ATOMIC_ADD,
; ATOMIC_SUB, ATOMIC_MIN_INT, ATOMIC_MIN_UINT, ATOMIC_MAX_INT,
; ATOMIC_MAX_UINT, ATOMIC_AND, ATOMIC_OR, ATOMIC_XOR (atomicrmw / cmpxchg on
; addrspace(1) whose result is unused), ATOMIC_INC_UINT / ATOMIC_DEC_UINT
; (atomic add / sub of the constant 1).  LLVM 14 has no patterns for the
; *_RTN forms or RSUB, so atomics whose result is used do not compile (see
; notes).
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @atomic_xchg(i32 addrspace(1)* %p, i32 %v) {
  %r = atomicrmw xchg i32 addrspace(1)* %p, i32 %v seq_cst
  ret void
}

define amdgpu_kernel void @atomic_cmpxchg(i32 addrspace(1)* %p, i32 %cmp, i32 %v) {
  %r = cmpxchg i32 addrspace(1)* %p, i32 %cmp, i32 %v seq_cst seq_cst
  ret void
}

define amdgpu_kernel void @atomic_add(i32 addrspace(1)* %p, i32 %v) {
  %r = atomicrmw add i32 addrspace(1)* %p, i32 %v seq_cst
  ret void
}

define amdgpu_kernel void @atomic_add_offset(i32 addrspace(1)* %p, i32 %v) {
  %q = getelementptr i32, i32 addrspace(1)* %p, i32 4
  %r = atomicrmw add i32 addrspace(1)* %q, i32 %v seq_cst
  ret void
}

define amdgpu_kernel void @atomic_add_const(i32 addrspace(1)* %p) {
  %r = atomicrmw add i32 addrspace(1)* %p, i32 1 seq_cst
  ret void
}

define amdgpu_kernel void @atomic_sub_const(i32 addrspace(1)* %p) {
  %r = atomicrmw sub i32 addrspace(1)* %p, i32 1 seq_cst
  ret void
}

define amdgpu_kernel void @atomic_sub(i32 addrspace(1)* %p, i32 %v) {
  %r = atomicrmw sub i32 addrspace(1)* %p, i32 %v seq_cst
  ret void
}

define amdgpu_kernel void @atomic_min_max(i32 addrspace(1)* %p, i32 %v) {
  %r0 = atomicrmw min i32 addrspace(1)* %p, i32 %v seq_cst
  %q1 = getelementptr i32, i32 addrspace(1)* %p, i32 1
  %r1 = atomicrmw umin i32 addrspace(1)* %q1, i32 %v seq_cst
  %q2 = getelementptr i32, i32 addrspace(1)* %p, i32 2
  %r2 = atomicrmw max i32 addrspace(1)* %q2, i32 %v seq_cst
  %q3 = getelementptr i32, i32 addrspace(1)* %p, i32 3
  %r3 = atomicrmw umax i32 addrspace(1)* %q3, i32 %v seq_cst
  ret void
}

define amdgpu_kernel void @atomic_bitwise(i32 addrspace(1)* %p, i32 %v) {
  %r0 = atomicrmw and i32 addrspace(1)* %p, i32 %v seq_cst
  %q1 = getelementptr i32, i32 addrspace(1)* %p, i32 1
  %r1 = atomicrmw or i32 addrspace(1)* %q1, i32 %v seq_cst
  %q2 = getelementptr i32, i32 addrspace(1)* %p, i32 2
  %r2 = atomicrmw xor i32 addrspace(1)* %q2, i32 %v seq_cst
  ret void
}

define amdgpu_kernel void @atomic_in_branch(i32 addrspace(1)* %p, i32 %v) {
entry:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %then, label %end
then:
  %r = atomicrmw add i32 addrspace(1)* %p, i32 %v monotonic
  br label %end
end:
  ret void
}

declare i32 @llvm.r600.read.tidig.x()
