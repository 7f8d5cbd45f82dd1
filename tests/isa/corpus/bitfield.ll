; Corpus: bit-field and bit-count operations.
; Exercises: BFE_UINT (shift+mask, x & ((1<<w)-1), llvm.amdgcn.ubfe),
; BFE_INT (sext_inreg i1/i8/i16, llvm.amdgcn.sbfe), BFI_INT ((y&x)|(z&~x),
; SHA-256 Ch/Ma forms), BIT_ALIGN_INT (llvm.fshr, rotates), BCNT_INT
; (llvm.ctpop i32/i64), FFBH_UINT (llvm.ctlz), FFBL_INT (llvm.cttz), bswap
; and bitreverse expansions.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @bfe_u_shift_mask(i32 addrspace(1)* %out, i32 %a) {
  %s = lshr i32 %a, 7
  %m = and i32 %s, 1023
  store i32 %m, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @bfe_u_var_width(i32 addrspace(1)* %out, i32 %a, i32 %w) {
  %one = shl i32 1, %w
  %msk = add i32 %one, -1
  %m = and i32 %a, %msk
  store i32 %m, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @bfe_intrinsics(<2 x i32> addrspace(1)* %out, i32 %a, i32 %o, i32 %w) {
  %u = call i32 @llvm.amdgcn.ubfe.i32(i32 %a, i32 %o, i32 %w)
  %s = call i32 @llvm.amdgcn.sbfe.i32(i32 %a, i32 %o, i32 %w)
  %v0 = insertelement <2 x i32> undef, i32 %u, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %s, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @sext_inreg(<4 x i32> addrspace(1)* %out, i32 %a) {
  %t8 = trunc i32 %a to i8
  %s8 = sext i8 %t8 to i32
  %t16 = trunc i32 %a to i16
  %s16 = sext i16 %t16 to i32
  %t1 = trunc i32 %a to i1
  %s1 = sext i1 %t1 to i32
  %l = shl i32 %a, 12
  %s20 = ashr i32 %l, 12
  %v0 = insertelement <4 x i32> undef, i32 %s8, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %s16, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %s1, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %s20, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @bfi_select_bits(i32 addrspace(1)* %out, i32 %x, i32 %y, i32 %z) {
  %a = and i32 %y, %x
  %nx = xor i32 %x, -1
  %b = and i32 %z, %nx
  %r = or i32 %a, %b
  store i32 %r, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @sha256_ch_ma(<2 x i32> addrspace(1)* %out, i32 %x, i32 %y, i32 %z) {
  %yz = xor i32 %y, %z
  %a = and i32 %x, %yz
  %ch = xor i32 %z, %a
  %xz = and i32 %x, %z
  %xoz = or i32 %x, %z
  %yxoz = and i32 %y, %xoz
  %ma = or i32 %xz, %yxoz
  %v0 = insertelement <2 x i32> undef, i32 %ch, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %ma, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @bfi_i64(i64 addrspace(1)* %out, i64 %x, i64 %y, i64 %z) {
  %a = and i64 %y, %x
  %nx = xor i64 %x, -1
  %b = and i64 %z, %nx
  %r = or i64 %a, %b
  store i64 %r, i64 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @funnel_rotate(<4 x i32> addrspace(1)* %out, i32 %a, i32 %b, i32 %c) {
  %f = call i32 @llvm.fshr.i32(i32 %a, i32 %b, i32 %c)
  %r = call i32 @llvm.fshr.i32(i32 %a, i32 %a, i32 %c)
  %l = call i32 @llvm.fshl.i32(i32 %a, i32 %a, i32 %c)
  %k = call i32 @llvm.fshl.i32(i32 %a, i32 %b, i32 9)
  %v0 = insertelement <4 x i32> undef, i32 %f, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %l, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %k, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @bit_count(<4 x i32> addrspace(1)* %out, i32 %a, i64 %b) {
  %p = call i32 @llvm.ctpop.i32(i32 %a)
  %lz = call i32 @llvm.ctlz.i32(i32 %a, i1 false)
  %tz = call i32 @llvm.cttz.i32(i32 %a, i1 true)
  %p64 = call i64 @llvm.ctpop.i64(i64 %b)
  %p64t = trunc i64 %p64 to i32
  %v0 = insertelement <4 x i32> undef, i32 %p, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %lz, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %tz, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %p64t, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @bswap_bitreverse(<2 x i32> addrspace(1)* %out, i32 %a) {
  %s = call i32 @llvm.bswap.i32(i32 %a)
  %r = call i32 @llvm.bitreverse.i32(i32 %a)
  %v0 = insertelement <2 x i32> undef, i32 %s, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %r, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

declare i32 @llvm.amdgcn.ubfe.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.sbfe.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.ctpop.i32(i32)
declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.bswap.i32(i32)
declare i32 @llvm.bitreverse.i32(i32)
