; Corpus: 32- and 64-bit integer arithmetic.
; Exercises: ADD_INT, SUB_INT, MULLO_INT (mul), MULHI_INT (mulhs via i64
; sext mul), MULHI (unsigned mulhi via i64 zext mul; printed "MULHI"),
; MIN_INT/MAX_INT/MIN_UINT/MAX_UINT (llvm.smin/smax/umin/umax), LSHL, LSHR,
; ASHR, AND_INT, OR_INT, XOR_INT, NOT_INT, SUB_INT-based neg, udiv/urem
; (RECIP_UINT on evergreen/NI, RECIP_IEEE+UINT_TO_FLT emulation on cayman),
; sdiv/srem, 64-bit add/sub (ADDC_UINT/SUBB_UINT via carry), uadd/usub with
; overflow (ADDC_UINT / SUBB_UINT), 64-bit shifts (shl/srl/sra parts),
; 64-bit multiply, abs.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @add_sub_mul(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %s = add i32 %a, %b
  %d = sub i32 %a, %b
  %m = mul i32 %s, %d
  store i32 %m, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @add_literal(i32 addrspace(1)* %out, i32 %a) {
  %s = add i32 %a, 123456
  %t = sub i32 7, %s
  store i32 %t, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mulhi_signed(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %ea = sext i32 %a to i64
  %eb = sext i32 %b to i64
  %m = mul i64 %ea, %eb
  %h = lshr i64 %m, 32
  %t = trunc i64 %h to i32
  store i32 %t, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mulhi_unsigned(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  %ea = zext i32 %a to i64
  %eb = zext i32 %b to i64
  %m = mul i64 %ea, %eb
  %h = lshr i64 %m, 32
  %t = trunc i64 %h to i32
  store i32 %t, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @min_max(<4 x i32> addrspace(1)* %out, i32 %a, i32 %b) {
  %r0 = call i32 @llvm.smin.i32(i32 %a, i32 %b)
  %r1 = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  %r2 = call i32 @llvm.umin.i32(i32 %a, i32 %b)
  %r3 = call i32 @llvm.umax.i32(i32 %a, i32 %b)
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @shifts(<4 x i32> addrspace(1)* %out, i32 %a, i32 %b) {
  %r0 = shl i32 %a, %b
  %r1 = lshr i32 %a, %b
  %r2 = ashr i32 %a, %b
  %r3 = ashr i32 %a, 5
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @logic(<4 x i32> addrspace(1)* %out, i32 %a, i32 %b) {
  %r0 = and i32 %a, %b
  %r1 = or i32 %a, %b
  %r2 = xor i32 %a, %b
  %r3 = xor i32 %a, -1
  %v0 = insertelement <4 x i32> undef, i32 %r0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %r1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %r2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %r3, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @udiv_urem(<2 x i32> addrspace(1)* %out, i32 %a, i32 %b) {
  %q = udiv i32 %a, %b
  %r = urem i32 %a, %b
  %v0 = insertelement <2 x i32> undef, i32 %q, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %r, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @sdiv_srem(<2 x i32> addrspace(1)* %out, i32 %a, i32 %b) {
  %q = sdiv i32 %a, %b
  %r = srem i32 %a, %b
  %v0 = insertelement <2 x i32> undef, i32 %q, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %r, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @udiv_const(i32 addrspace(1)* %out, i32 %a) {
  %q = udiv i32 %a, 7
  store i32 %q, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @add_sub_i64(i64 addrspace(1)* %out, i64 %a, i64 %b) {
  %s = add i64 %a, %b
  %d = sub i64 %s, %b
  %x = xor i64 %s, %d
  store i64 %x, i64 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @uadd_usub_overflow(<4 x i32> addrspace(1)* %out, i32 %a, i32 %b) {
  %p = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %a, i32 %b)
  %ps = extractvalue { i32, i1 } %p, 0
  %pc = extractvalue { i32, i1 } %p, 1
  %m = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %a, i32 %b)
  %ms = extractvalue { i32, i1 } %m, 0
  %mc = extractvalue { i32, i1 } %m, 1
  %pcz = zext i1 %pc to i32
  %mcz = zext i1 %mc to i32
  %v0 = insertelement <4 x i32> undef, i32 %ps, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %pcz, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %ms, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %mcz, i32 3
  store <4 x i32> %v3, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @shifts_i64(<2 x i64> addrspace(1)* %out, i64 %a, i64 %b) {
  %l = shl i64 %a, %b
  %r = lshr i64 %a, %b
  %s = ashr i64 %l, %b
  %x = xor i64 %r, %s
  %v0 = insertelement <2 x i64> undef, i64 %l, i32 0
  %v1 = insertelement <2 x i64> %v0, i64 %x, i32 1
  store <2 x i64> %v1, <2 x i64> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @mul_i64(i64 addrspace(1)* %out, i64 %a, i64 %b) {
  %m = mul i64 %a, %b
  store i64 %m, i64 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @abs_neg(<2 x i32> addrspace(1)* %out, i32 %a) {
  %n = sub i32 0, %a
  %b = call i32 @llvm.abs.i32(i32 %a, i1 false)
  %v0 = insertelement <2 x i32> undef, i32 %n, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %b, i32 1
  store <2 x i32> %v1, <2 x i32> addrspace(1)* %out
  ret void
}

declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.abs.i32(i32, i1)
declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.usub.with.overflow.i32(i32, i32)
