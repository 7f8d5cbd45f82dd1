; Corpus: local data share (LDS) reads and writes, and the group barrier.
; Exercises: LDS_WRITE, LDS_BYTE_WRITE, LDS_SHORT_WRITE, LDS_READ_RET,
; LDS_BYTE_READ_RET, LDS_UBYTE_READ_RET, LDS_SHORT_READ_RET,
; LDS_USHORT_READ_RET (results read back through the OQAP queue, i.e. MOV
; from OQAP), vector LDS accesses split into scalar ops, GROUP_BARRIER
; (llvm.r600.group.barrier), work-item indexed addressing.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

@lds_i32 = internal addrspace(3) global [64 x i32] undef, align 4
@lds_i16 = internal addrspace(3) global [64 x i16] undef, align 2
@lds_i8 = internal addrspace(3) global [64 x i8] undef, align 1
@lds_v4 = internal addrspace(3) global [16 x <4 x i32>] undef, align 16

define amdgpu_kernel void @lds_rw_i32(i32 addrspace(1)* %out, i32 %v) {
  %tid = call i32 @llvm.r600.read.tidig.x()
  %p = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds_i32, i32 0, i32 %tid
  store i32 %v, i32 addrspace(3)* %p
  call void @llvm.r600.group.barrier()
  %n = xor i32 %tid, 1
  %q = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds_i32, i32 0, i32 %n
  %r = load i32, i32 addrspace(3)* %q
  %o = getelementptr i32, i32 addrspace(1)* %out, i32 %tid
  store i32 %r, i32 addrspace(1)* %o
  ret void
}

define amdgpu_kernel void @lds_rw_i8(<2 x i32> addrspace(1)* %out, i32 %v) {
  %tid = call i32 @llvm.r600.read.tidig.x()
  %p = getelementptr [64 x i8], [64 x i8] addrspace(3)* @lds_i8, i32 0, i32 %tid
  %t = trunc i32 %v to i8
  store i8 %t, i8 addrspace(3)* %p
  call void @llvm.r600.group.barrier()
  %n = add i32 %tid, 3
  %q = getelementptr [64 x i8], [64 x i8] addrspace(3)* @lds_i8, i32 0, i32 %n
  %r = load i8, i8 addrspace(3)* %q
  %s = sext i8 %r to i32
  %z = zext i8 %r to i32
  %r2 = load volatile i8, i8 addrspace(3)* %q
  %z2 = zext i8 %r2 to i32
  %zz = add i32 %z, %z2
  %v0 = insertelement <2 x i32> undef, i32 %s, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %zz, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @lds_rw_i16(<2 x i32> addrspace(1)* %out, i32 %v) {
  %tid = call i32 @llvm.r600.read.tidig.x()
  %p = getelementptr [64 x i16], [64 x i16] addrspace(3)* @lds_i16, i32 0, i32 %tid
  %t = trunc i32 %v to i16
  store i16 %t, i16 addrspace(3)* %p
  call void @llvm.r600.group.barrier()
  %n = add i32 %tid, 5
  %q = getelementptr [64 x i16], [64 x i16] addrspace(3)* @lds_i16, i32 0, i32 %n
  %r = load volatile i16, i16 addrspace(3)* %q
  %s = sext i16 %r to i32
  %r2 = load volatile i16, i16 addrspace(3)* %q
  %z = zext i16 %r2 to i32
  %v0 = insertelement <2 x i32> undef, i32 %s, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %z, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @lds_vector(<4 x i32> addrspace(1)* %out, <4 x i32> %v) {
  %tid = call i32 @llvm.r600.read.tidig.x()
  %p = getelementptr [16 x <4 x i32>], [16 x <4 x i32>] addrspace(3)* @lds_v4, i32 0, i32 %tid
  store <4 x i32> %v, <4 x i32> addrspace(3)* %p
  call void @llvm.r600.group.barrier()
  %n = sub i32 15, %tid
  %q = getelementptr [16 x <4 x i32>], [16 x <4 x i32>] addrspace(3)* @lds_v4, i32 0, i32 %n
  %r = load <4 x i32>, <4 x i32> addrspace(3)* %q
  store <4 x i32> %r, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @lds_ptr_arg(i32 addrspace(1)* %out, i32 addrspace(3)* %lp, i32 %i) {
  %p = getelementptr i32, i32 addrspace(3)* %lp, i32 %i
  %a = load i32, i32 addrspace(3)* %p
  %b = load i32, i32 addrspace(3)* %lp
  %s = add i32 %a, %b
  store i32 %s, i32 addrspace(3)* %lp
  store i32 %s, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @barrier_only(i32 addrspace(1)* %out) {
  call void @llvm.r600.group.barrier()
  store i32 1, i32 addrspace(1)* %out
  ret void
}

declare i32 @llvm.r600.read.tidig.x()
declare void @llvm.r600.group.barrier()
