; Corpus: graphics-stage shaders (amdgpu_vs / amdgpu_ps / amdgpu_gs /
; amdgpu_es / amdgpu_hs / amdgpu_ls / amdgpu_cs calling conventions, inputs
; arrive in T-registers; only <4 x float> arguments are accepted).
; Exercises CF instructions: EXPORT / EXPORT_DONE with pixel (type 0),
; position (type 1) and parameter (type 2) targets and different array bases
; (llvm.r600.store.swizzle), export swizzles with constant 0/1 and repeated
; components (EXPORT T0.XY01 style), stream-out buffer exports
; (llvm.r600.store.stream.output to streams 0..3 = MEM_STREAM0..3, printed
; "EXPORT Tn"), CALL_FS (vertex shaders call the fetch shader), CF "VTX"
; vertex-cache fetch clauses (graphics shaders on cypress/barts; cayman has no
; vertex cache and uses "TEX"), KILLGT (llvm.r600.kill), TEX_SAMPLE in a
; pixel shader, control flow in a pixel shader.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_vs void @vs_pos_param(<4 x float> inreg %pos, <4 x float> inreg %color, <4 x float> inreg %tc) {
  %p = fmul <4 x float> %pos, <float 2.0, float 2.0, float 1.0, float 1.0>
  call void @llvm.r600.store.swizzle(<4 x float> %p, i32 60, i32 1)
  call void @llvm.r600.store.swizzle(<4 x float> %color, i32 0, i32 2)
  call void @llvm.r600.store.swizzle(<4 x float> %tc, i32 1, i32 2)
  ret void
}

define amdgpu_vs void @vs_fetch(<4 x float> inreg %pos, <4 x float> inreg %addr) {
  %b = bitcast <4 x float> %addr to <4 x i32>
  %a = extractelement <4 x i32> %b, i32 0
  %ptr = inttoptr i32 %a to <4 x float> addrspace(1)*
  %v = load <4 x float>, <4 x float> addrspace(1)* %ptr
  %a1 = extractelement <4 x i32> %b, i32 1
  %ptr1 = inttoptr i32 %a1 to float addrspace(1)*
  %w = load float, float addrspace(1)* %ptr1
  %s = fadd <4 x float> %v, %pos
  %sw = insertelement <4 x float> %s, float %w, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %sw, i32 60, i32 1)
  call void @llvm.r600.store.swizzle(<4 x float> %v, i32 0, i32 2)
  ret void
}

define amdgpu_vs void @vs_swizzle_consts(<4 x float> inreg %pos, <4 x float> inreg %in) {
  %x = extractelement <4 x float> %in, i32 2
  %y = extractelement <4 x float> %in, i32 1
  %v0 = insertelement <4 x float> undef, float %x, i32 0
  %v1 = insertelement <4 x float> %v0, float %y, i32 1
  %v2 = insertelement <4 x float> %v1, float 0.0, i32 2
  %v3 = insertelement <4 x float> %v2, float 1.0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %v3, i32 60, i32 1)
  %w0 = insertelement <4 x float> undef, float %y, i32 0
  %w1 = insertelement <4 x float> %w0, float %x, i32 1
  %w2 = insertelement <4 x float> %w1, float %x, i32 2
  %w3 = insertelement <4 x float> %w2, float %y, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %w3, i32 0, i32 2)
  ret void
}

define amdgpu_vs void @vs_stream_out(<4 x float> inreg %a, <4 x float> inreg %b) {
  call void @llvm.r600.store.stream.output(<4 x float> %a, i32 0, i32 0, i32 15)
  call void @llvm.r600.store.stream.output(<4 x float> %b, i32 4, i32 1, i32 3)
  call void @llvm.r600.store.stream.output(<4 x float> %a, i32 8, i32 2, i32 7)
  call void @llvm.r600.store.stream.output(<4 x float> %b, i32 12, i32 3, i32 1)
  call void @llvm.r600.store.swizzle(<4 x float> %a, i32 60, i32 1)
  ret void
}

define amdgpu_ps void @ps_color(<4 x float> inreg %c0, <4 x float> inreg %c1) {
  %m = fmul <4 x float> %c0, %c1
  call void @llvm.r600.store.swizzle(<4 x float> %m, i32 0, i32 0)
  call void @llvm.r600.store.swizzle(<4 x float> %c1, i32 1, i32 0)
  ret void
}

define amdgpu_ps void @ps_kill_tex(<4 x float> inreg %in0, <4 x float> inreg %tc) {
  %x = extractelement <4 x float> %in0, i32 0
  call void @llvm.r600.kill(float %x)
  %t = call <4 x float> @llvm.r600.tex(<4 x float> %tc, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1)
  %r = fmul <4 x float> %t, %in0
  call void @llvm.r600.store.swizzle(<4 x float> %r, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @ps_kill_const() {
  call void @llvm.r600.kill(float -1.0)
  call void @llvm.r600.store.swizzle(<4 x float> zeroinitializer, i32 0, i32 0)
  ret void
}

define amdgpu_ps void @ps_branch(<4 x float> inreg %in0, <4 x float> inreg %in1) {
entry:
  %x = extractelement <4 x float> %in0, i32 0
  %c = fcmp ogt float %x, 0.5
  br i1 %c, label %then, label %else
then:
  %a = fmul <4 x float> %in0, %in1
  br label %end
else:
  %b = fadd <4 x float> %in0, %in1
  br label %end
end:
  %r = phi <4 x float> [ %a, %then ], [ %b, %else ]
  call void @llvm.r600.store.swizzle(<4 x float> %r, i32 0, i32 0)
  ret void
}

define amdgpu_gs void @gs_main(<4 x float> inreg %a, <4 x float> inreg %b) {
  %s = fsub <4 x float> %a, %b
  call void @llvm.r600.store.swizzle(<4 x float> %s, i32 60, i32 1)
  ret void
}

define amdgpu_es void @es_main(<4 x float> inreg %a) {
  call void @llvm.r600.store.swizzle(<4 x float> %a, i32 0, i32 2)
  ret void
}

define amdgpu_hs void @hs_main(<4 x float> inreg %a) {
  %m = fmul <4 x float> %a, %a
  call void @llvm.r600.store.swizzle(<4 x float> %m, i32 0, i32 2)
  ret void
}

define amdgpu_ls void @ls_main(<4 x float> inreg %a) {
  call void @llvm.r600.store.swizzle(<4 x float> %a, i32 61, i32 1)
  ret void
}

define amdgpu_cs void @cs_main(<4 x float> inreg %a, <4 x float> inreg %b) {
  %d = call float @llvm.r600.dot4(<4 x float> %a, <4 x float> %b)
  %v = insertelement <4 x float> %a, float %d, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %v, i32 0, i32 0)
  ret void
}

declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
declare void @llvm.r600.store.stream.output(<4 x float>, i32, i32, i32)
declare void @llvm.r600.kill(float)
declare <4 x float> @llvm.r600.tex(<4 x float>, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare float @llvm.r600.dot4(<4 x float>, <4 x float>)
