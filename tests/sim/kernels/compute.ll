; Compute kernels for the simulator's LLVM test (tests/sim/test_llvm_kernels.cpp). Written for
; this project. Each elementwise kernel reads in[gid], computes, and writes out[gid], where
; gid = tgid.x * local_size.x + tid.x; the test compares with the same computation on the CPU.
target triple = "r600--"

declare i32 @llvm.r600.read.tidig.x() nounwind readnone
declare i32 @llvm.r600.read.tidig.y() nounwind readnone
declare i32 @llvm.r600.read.tgid.x() nounwind readnone
declare i32 @llvm.r600.read.tgid.y() nounwind readnone
declare i32 @llvm.r600.read.local.size.x() nounwind readnone
declare i32 @llvm.r600.read.local.size.y() nounwind readnone
declare i32 @llvm.r600.read.global.size.x() nounwind readnone
declare void @llvm.r600.group.barrier() nounwind convergent
declare i32 @llvm.ctpop.i32(i32) nounwind readnone
declare i32 @llvm.ctlz.i32(i32, i1) nounwind readnone
declare float @llvm.sqrt.f32(float) nounwind readnone
declare float @llvm.floor.f32(float) nounwind readnone
declare float @llvm.ceil.f32(float) nounwind readnone
declare float @llvm.trunc.f32(float) nounwind readnone
declare float @llvm.minnum.f32(float, float) nounwind readnone
declare float @llvm.maxnum.f32(float, float) nounwind readnone
declare float @llvm.exp2.f32(float) nounwind readnone
declare float @llvm.log2.f32(float) nounwind readnone
declare float @llvm.sin.f32(float) nounwind readnone
declare float @llvm.cos.f32(float) nounwind readnone
declare float @llvm.fabs.f32(float) nounwind readnone

define amdgpu_kernel void @add_const(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %r = add i32 %x, %n
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @sub_mul(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = sub i32 %x, 3
  %r = mul i32 %a, %n
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @mulhi_u(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = zext i32 %x to i64
  %b = zext i32 %n to i64
  %c = mul i64 %a, %b
  %d = lshr i64 %c, 32
  %r = trunc i64 %d to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @shifts(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = shl i32 %x, 3
  %b = lshr i32 %x, 5
  %r = xor i32 %a, %b
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @ashr_var(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %s = and i32 %n, 31
  %r = ashr i32 %x, %s
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @bitops(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = and i32 %x, %n
  %nx = xor i32 %x, -1
  %b = and i32 %nx, 252645135
  %r = or i32 %a, %b
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @minmax_int(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %c1 = icmp slt i32 %x, %n
  %m1 = select i1 %c1, i32 %x, i32 %n
  %nn = sub i32 0, %n
  %c2 = icmp sgt i32 %m1, %nn
  %r = select i1 %c2, i32 %m1, i32 %nn
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @umin(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %c = icmp ult i32 %x, %n
  %r = select i1 %c, i32 %x, i32 %n
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @sdiv(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %d = or i32 %n, 1
  %r = sdiv i32 %x, %d
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @udiv_urem(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %q = udiv i32 %x, 7
  %m = urem i32 %x, 7
  %r = add i32 %q, %m
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @popcount(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %r = call i32 @llvm.ctpop.i32(i32 %x)
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @count_leading_zeros(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %r = call i32 @llvm.ctlz.i32(i32 %x, i1 false)
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @bitfield_extract(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = lshr i32 %x, 4
  %r = and i32 %a, 255
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @sign_extend_byte(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = trunc i32 %x to i8
  %r = sext i8 %a to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @select_compare(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %c = icmp sgt i32 %x, %n
  %a = mul i32 %x, 2
  %b = add i32 %x, 1
  %r = select i1 %c, i32 %a, i32 %b
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @float_arith(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = fmul float %xf, 2.5
  %rf = fadd float %a, %nf
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @float_divide(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %rf = fdiv float %xf, 3.0
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @float_sqrt(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = call float @llvm.fabs.f32(float %xf)
  %rf = call float @llvm.sqrt.f32(float %a)
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @float_rounding(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = call float @llvm.floor.f32(float %xf)
  %b = call float @llvm.ceil.f32(float %xf)
  %c = call float @llvm.trunc.f32(float %xf)
  %b2 = fmul float %b, 2.0
  %s = fadd float %a, %b2
  %rf = fadd float %s, %c
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @float_minmax(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = call float @llvm.minnum.f32(float %xf, float 100.0)
  %rf = call float @llvm.maxnum.f32(float %a, float -100.0)
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @float_to_int(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %r = fptosi float %xf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @int_to_float(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %rf = sitofp i32 %x to float
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @uint_to_float(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %rf = uitofp i32 %x to float
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @float_select(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %c = fcmp olt float %xf, 0.0
  %neg = fneg float %xf
  %h = fmul float %xf, 0.5
  %rf = select i1 %c, float %neg, float %h
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @float_exp_log(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %a = fmul float %xf, 0x3F847AE140000000
  %e = call float @llvm.exp2.f32(float %a)
  %l = call float @llvm.log2.f32(float %e)
  %rf = fadd float %e, %l
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @float_sin_cos(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %s = call float @llvm.sin.f32(float %xf)
  %c = call float @llvm.cos.f32(float %xf)
  %rf = fadd float %s, %c
  %r = bitcast float %rf to i32
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @loop_sum(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %cnt = and i32 %x, 63
  br label %loop
loop:
  %i = phi i32 [ 0, %entry0 ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry0 ], [ %acc1, %loop ]
  %acc1 = add i32 %acc, %i
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %cnt
  br i1 %c, label %loop, label %done
done:
  %r = select i1 true, i32 %acc1, i32 0
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @collatz(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %start = and i32 %x, 1023
  br label %loop
loop:
  %v = phi i32 [ %start, %entry0 ], [ %v1, %body ]
  %i = phi i32 [ 0, %entry0 ], [ %i1, %body ]
  %big = icmp ugt i32 %v, 1
  %lim = icmp ult i32 %i, 200
  %go = and i1 %big, %lim
  br i1 %go, label %body, label %done
body:
  %odd = and i32 %v, 1
  %isodd = icmp ne i32 %odd, 0
  %t3 = mul i32 %v, 3
  %t31 = add i32 %t3, 1
  %half = lshr i32 %v, 1
  %v1 = select i1 %isodd, i32 %t31, i32 %half
  %i1 = add i32 %i, 1
  br label %loop
done:
  %r = add i32 %i, 0
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @nested_if(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %b0 = and i32 %x, 1
  %c0 = icmp ne i32 %b0, 0
  br i1 %c0, label %odd, label %even
odd:
  %b1 = and i32 %x, 2
  %c1 = icmp ne i32 %b1, 0
  %v1 = select i1 %c1, i32 11, i32 22
  %m1 = mul i32 %v1, %n
  br label %join
even:
  %b2 = and i32 %x, 4
  %c2 = icmp ne i32 %b2, 0
  br i1 %c2, label %even4, label %join
even4:
  %m2 = add i32 %x, %n
  br label %join
join:
  %r = phi i32 [ %m1, %odd ], [ 44, %even ], [ %m2, %even4 ]
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @gather(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %gs = call i32 @llvm.r600.read.global.size.x()
  %j = mul i32 %gid, 7
  %jm = urem i32 %j, %gs
  %pj = getelementptr i32, i32 addrspace(1)* %in, i32 %jm
  %y = load i32, i32 addrspace(1)* %pj
  %r = add i32 %y, %x
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}


@lds_data = internal addrspace(3) global [64 x i32] undef, align 4
@lds_counter = internal addrspace(3) global i32 undef, align 4

define amdgpu_kernel void @lds_reverse(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %slot = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds_data, i32 0, i32 %tid
  store i32 %x, i32 addrspace(3)* %slot
  call void @llvm.r600.group.barrier()
  %last = sub i32 %ls, 1
  %other = sub i32 %last, %tid
  %oslot = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds_data, i32 0, i32 %other
  %r = load i32, i32 addrspace(3)* %oslot
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @lds_reduce(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %slot = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds_data, i32 0, i32 %tid
  store i32 %x, i32 addrspace(3)* %slot
  call void @llvm.r600.group.barrier()
  br label %step
step:
  %stride = phi i32 [ 32, %entry0 ], [ %stride1, %next ]
  %active = icmp ult i32 %tid, %stride
  br i1 %active, label %add, label %next
add:
  %peer = add i32 %tid, %stride
  %pslot = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds_data, i32 0, i32 %peer
  %pv = load i32, i32 addrspace(3)* %pslot
  %mv = load i32, i32 addrspace(3)* %slot
  %sum = add i32 %mv, %pv
  store i32 %sum, i32 addrspace(3)* %slot
  br label %next
next:
  call void @llvm.r600.group.barrier()
  %stride1 = lshr i32 %stride, 1
  %more = icmp ne i32 %stride1, 0
  br i1 %more, label %step, label %done
done:
  %first = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds_data, i32 0, i32 0
  %r = load i32, i32 addrspace(3)* %first
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}

define amdgpu_kernel void @lds_atomic_count(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %grp = call i32 @llvm.r600.read.tgid.x()
  %ls = call i32 @llvm.r600.read.local.size.x()
  %base = mul i32 %grp, %ls
  %gid = add i32 %base, %tid
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %xf = bitcast i32 %x to float
  %nf = sitofp i32 %n to float
  %iszero = icmp eq i32 %tid, 0
  br i1 %iszero, label %init, label %wait
init:
  store i32 0, i32 addrspace(3)* @lds_counter
  br label %wait
wait:
  call void @llvm.r600.group.barrier()
  %odd = and i32 %x, 1
  %old = atomicrmw add i32 addrspace(3)* @lds_counter, i32 %odd seq_cst
  call void @llvm.r600.group.barrier()
  %total = load i32, i32 addrspace(3)* @lds_counter
  %r = add i32 %total, 0
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}


define amdgpu_kernel void @two_dimensional(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry0:
  %tx = call i32 @llvm.r600.read.tidig.x()
  %ty = call i32 @llvm.r600.read.tidig.y()
  %gx = call i32 @llvm.r600.read.tgid.x()
  %gy = call i32 @llvm.r600.read.tgid.y()
  %lx = call i32 @llvm.r600.read.local.size.x()
  %ly = call i32 @llvm.r600.read.local.size.y()
  %x0 = mul i32 %gx, %lx
  %col = add i32 %x0, %tx
  %y0 = mul i32 %gy, %ly
  %row = add i32 %y0, %ty
  %rowbase = mul i32 %row, %n
  %gid = add i32 %rowbase, %col
  %pin = getelementptr i32, i32 addrspace(1)* %in, i32 %gid
  %x = load i32, i32 addrspace(1)* %pin
  %rc = mul i32 %row, 1000
  %rcc = add i32 %rc, %col
  %r = add i32 %rcc, %x
  %pout = getelementptr i32, i32 addrspace(1)* %out, i32 %gid
  store i32 %r, i32 addrspace(1)* %pout
  ret void
}
