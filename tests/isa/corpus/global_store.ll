; Corpus: global memory writes through the RAT (random access target).
; Exercises: MEM_RAT_CACHELESS STORE_RAW (cypress/barts) and STORE_DWORD
; (cayman) for 32-, 64- and 128-bit stores, with and without the
; end-of-program bit (a store that is / is not the last CF instruction),
; MEM_RAT MSKOR (i8 / i16 truncating stores), MEM_RAT STORE_TYPED
; (llvm.r600.rat.store.typed with different RAT ids), several stores in a row.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @store_i32(i32 addrspace(1)* %out, i32 %a) {
  store i32 %a, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @store_v2i32(<2 x i32> addrspace(1)* %out, <2 x i32> %a) {
  store <2 x i32> %a, <2 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @store_v4i32(<4 x i32> addrspace(1)* %out, <4 x i32> %a) {
  store <4 x i32> %a, <4 x i32> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @store_i64_double(i64 addrspace(1)* %out, i64 %a, double %d) {
  store i64 %a, i64 addrspace(1)* %out
  %p = getelementptr i64, i64 addrspace(1)* %out, i32 1
  %q = bitcast i64 addrspace(1)* %p to double addrspace(1)*
  store double %d, double addrspace(1)* %q
  ret void
}

define amdgpu_kernel void @store_i8(i8 addrspace(1)* %out, i32 %a) {
  %t = trunc i32 %a to i8
  store i8 %t, i8 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @store_i16(i16 addrspace(1)* %out, i32 %a) {
  %t = trunc i32 %a to i16
  store i16 %t, i16 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @store_v4i8(<4 x i8> addrspace(1)* %out, <4 x i32> %a) {
  %t = trunc <4 x i32> %a to <4 x i8>
  store <4 x i8> %t, <4 x i8> addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @store_multiple(i32 addrspace(1)* %out, i32 %a, i32 %b) {
  store i32 %a, i32 addrspace(1)* %out
  %p = getelementptr i32, i32 addrspace(1)* %out, i32 1
  store i32 %b, i32 addrspace(1)* %p
  %p2 = getelementptr i32, i32 addrspace(1)* %out, i32 7
  %c = add i32 %a, %b
  store i32 %c, i32 addrspace(1)* %p2
  ret void
}

define amdgpu_kernel void @store_vectors_not_last(<4 x i32> addrspace(1)* %out, <4 x i32> %a, <2 x i32> %b) {
  store <4 x i32> %a, <4 x i32> addrspace(1)* %out
  %p = getelementptr <4 x i32>, <4 x i32> addrspace(1)* %out, i32 1
  %q = bitcast <4 x i32> addrspace(1)* %p to <2 x i32> addrspace(1)*
  store <2 x i32> %b, <2 x i32> addrspace(1)* %q
  %r = getelementptr <4 x i32>, <4 x i32> addrspace(1)* %out, i32 2
  %t = bitcast <4 x i32> addrspace(1)* %r to i32 addrspace(1)*
  %x = extractelement <4 x i32> %a, i32 0
  store i32 %x, i32 addrspace(1)* %t
  ret void
}

define amdgpu_kernel void @store_typed(<4 x i32> %data, <4 x i32> %coord) {
  call void @llvm.r600.rat.store.typed(<4 x i32> %data, <4 x i32> %coord, i32 0)
  call void @llvm.r600.rat.store.typed(<4 x i32> %coord, <4 x i32> %data, i32 3)
  ret void
}

define amdgpu_kernel void @store_typed_last(<4 x i32> %data, <4 x i32> %coord) {
  call void @llvm.r600.rat.store.typed(<4 x i32> %data, <4 x i32> %coord, i32 11)
  ret void
}

declare void @llvm.r600.rat.store.typed(<4 x i32>, <4 x i32>, i32)
