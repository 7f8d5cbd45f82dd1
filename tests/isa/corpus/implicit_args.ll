; Corpus: work-item ids and implicit kernel arguments.
; Exercises: llvm.r600.read.tidig.{x,y,z} (T0.XYZ live-ins),
; llvm.r600.read.tgid.{x,y,z} (T1.XYZ live-ins), llvm.r600.read.ngroups.*,
; llvm.r600.read.global.size.*, llvm.r600.read.local.size.* (kcache reads of
; the implicit-parameter area of CB0), llvm.r600.implicitarg.ptr loads
; (VTX fetch from the parameter buffer), global id arithmetic
; (MULLO_INT/MUL_UINT24/ADD_INT) and scattered stores.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

; Note: storing the raw T0.X/Y/Z (or T1.X/Y/Z) live-ins straight into a
; vector makes llc-14 segfault in the instruction emitter, so every id goes
; through an ALU op first.
define amdgpu_kernel void @tidig_xyz(<4 x i32> addrspace(1)* %out, i32 %k) {
  %x = call i32 @llvm.r600.read.tidig.x()
  %y = call i32 @llvm.r600.read.tidig.y()
  %z = call i32 @llvm.r600.read.tidig.z()
  %xa = add i32 %x, %k
  %ya = xor i32 %y, %k
  %za = sub i32 %z, %k
  %v0 = insertelement <4 x i32> undef, i32 %xa, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %ya, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %za, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %k, i32 3
  %p = getelementptr <4 x i32>, <4 x i32> addrspace(1)* %out, i32 %x
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %p
  ret void
}

define amdgpu_kernel void @tgid_xyz(<4 x i32> addrspace(1)* %out, i32 %k) {
  %x = call i32 @llvm.r600.read.tgid.x()
  %y = call i32 @llvm.r600.read.tgid.y()
  %z = call i32 @llvm.r600.read.tgid.z()
  %xa = or i32 %x, %k
  %ya = and i32 %y, %k
  %za = shl i32 %z, %k
  %v0 = insertelement <4 x i32> undef, i32 %xa, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %ya, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %za, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 1, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @ngroups_globalsize(<4 x i32> addrspace(1)* %out) {
  %nx = call i32 @llvm.r600.read.ngroups.x()
  %ny = call i32 @llvm.r600.read.ngroups.y()
  %nz = call i32 @llvm.r600.read.ngroups.z()
  %gx = call i32 @llvm.r600.read.global.size.x()
  %gy = call i32 @llvm.r600.read.global.size.y()
  %gz = call i32 @llvm.r600.read.global.size.z()
  %a = add i32 %nx, %gx
  %b = add i32 %ny, %gy
  %c = add i32 %nz, %gz
  %v0 = insertelement <4 x i32> undef, i32 %a, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %b, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %c, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %nx, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @local_size(<4 x i32> addrspace(1)* %out) {
  %x = call i32 @llvm.r600.read.local.size.x()
  %y = call i32 @llvm.r600.read.local.size.y()
  %z = call i32 @llvm.r600.read.local.size.z()
  %m = mul i32 %x, %y
  %v0 = insertelement <4 x i32> undef, i32 %x, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %y, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %z, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %m, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @global_id_2d(float addrspace(1)* %out, float addrspace(1)* %in, i32 %width) {
  %tx = call i32 @llvm.r600.read.tidig.x()
  %ty = call i32 @llvm.r600.read.tidig.y()
  %gx = call i32 @llvm.r600.read.tgid.x()
  %gy = call i32 @llvm.r600.read.tgid.y()
  %lx = call i32 @llvm.r600.read.local.size.x()
  %ly = call i32 @llvm.r600.read.local.size.y()
  %bx = mul i32 %gx, %lx
  %by = mul i32 %gy, %ly
  %x = add i32 %bx, %tx
  %y = add i32 %by, %ty
  %row = mul i32 %y, %width
  %idx = add i32 %row, %x
  %p = getelementptr float, float addrspace(1)* %in, i32 %idx
  %v = load float, float addrspace(1)* %p
  %w = fmul float %v, 2.0
  %q = getelementptr float, float addrspace(1)* %out, i32 %idx
  store float %w, float addrspace(1)* %q
  ret void
}

define amdgpu_kernel void @implicitarg_ptr(i32 addrspace(1)* %out, i32 %i) {
  %ip = call i8 addrspace(7)* @llvm.r600.implicitarg.ptr()
  %p = bitcast i8 addrspace(7)* %ip to i32 addrspace(7)*
  %a = load i32, i32 addrspace(7)* %p
  %q = getelementptr i32, i32 addrspace(7)* %p, i32 %i
  %b = load i32, i32 addrspace(7)* %q
  %s = add i32 %a, %b
  store i32 %s, i32 addrspace(1)* %out
  ret void
}

declare i32 @llvm.r600.read.tidig.x()
declare i32 @llvm.r600.read.tidig.y()
declare i32 @llvm.r600.read.tidig.z()
declare i32 @llvm.r600.read.tgid.x()
declare i32 @llvm.r600.read.tgid.y()
declare i32 @llvm.r600.read.tgid.z()
declare i32 @llvm.r600.read.ngroups.x()
declare i32 @llvm.r600.read.ngroups.y()
declare i32 @llvm.r600.read.ngroups.z()
declare i32 @llvm.r600.read.global.size.x()
declare i32 @llvm.r600.read.global.size.y()
declare i32 @llvm.r600.read.global.size.z()
declare i32 @llvm.r600.read.local.size.x()
declare i32 @llvm.r600.read.local.size.y()
declare i32 @llvm.r600.read.local.size.z()
declare i8 addrspace(7)* @llvm.r600.implicitarg.ptr()
