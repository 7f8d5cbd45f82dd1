; Corpus: structured control flow (if / if-else / nesting / switch).
; Exercises CF instructions: ALU_PUSH_BEFORE, JUMP, ELSE, POP (with
; POP counts > 1), ALU_POP_AFTER, PUSH (barts CF_ALU-bug workaround for deep
; nesting), and the predicate-setting ALU ops
; PRED_SETE/PRED_SETNE/PRED_SETGT/PRED_SETGE and their _INT forms that
; branch conditions are folded into; branch on f32 and on i32 values,
; early return from inside a branch.
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @if_then(i32 addrspace(1)* %out, i32 %a, i32 %b) {
entry:
  %c = icmp eq i32 %a, 0
  br i1 %c, label %then, label %end
then:
  store i32 %b, i32 addrspace(1)* %out
  br label %end
end:
  ret void
}

define amdgpu_kernel void @if_else_int(i32 addrspace(1)* %out, i32 %a, i32 %b) {
entry:
  %c = icmp sgt i32 %a, %b
  br i1 %c, label %then, label %else
then:
  %x = mul i32 %a, %b
  store i32 %x, i32 addrspace(1)* %out
  br label %end
else:
  %y = sub i32 %b, %a
  %g = getelementptr i32, i32 addrspace(1)* %out, i32 1
  store i32 %y, i32 addrspace(1)* %g
  br label %end
end:
  ret void
}

define amdgpu_kernel void @if_else_float(float addrspace(1)* %out, float %a, float %b) {
entry:
  %c = fcmp oge float %a, %b
  br i1 %c, label %then, label %else
then:
  %x = fmul float %a, %b
  store float %x, float addrspace(1)* %out
  br label %end
else:
  %y = fadd float %a, %b
  %g = getelementptr float, float addrspace(1)* %out, i32 2
  store float %y, float addrspace(1)* %g
  br label %end
end:
  ret void
}

define amdgpu_kernel void @branch_on_float_ne(float addrspace(1)* %out, float %a, float %b) {
entry:
  %c = fcmp une float %a, 0.0
  br i1 %c, label %then, label %end
then:
  %x = fmul float %a, %b
  store float %x, float addrspace(1)* %out
  br label %end
end:
  ret void
}

define amdgpu_kernel void @branch_on_float_gt(float addrspace(1)* %out, float %a, float %b) {
entry:
  %c = fcmp ogt float %a, 0.0
  br i1 %c, label %then, label %end
then:
  store float %b, float addrspace(1)* %out
  br label %end
end:
  ret void
}

define amdgpu_kernel void @branch_on_int_ge(i32 addrspace(1)* %out, i32 %a, i32 %b) {
entry:
  %c = icmp sge i32 %a, %b
  br i1 %c, label %then, label %end
then:
  store i32 %b, i32 addrspace(1)* %out
  br label %end
end:
  ret void
}

define amdgpu_kernel void @nested_if(i32 addrspace(1)* %out, i32 %a, i32 %b, i32 %c) {
entry:
  %c0 = icmp ne i32 %a, 0
  br i1 %c0, label %l1, label %end
l1:
  %c1 = icmp ugt i32 %b, %c
  br i1 %c1, label %l2, label %l1e
l2:
  %c2 = icmp slt i32 %c, 10
  br i1 %c2, label %l3, label %l2e
l3:
  store i32 %a, i32 addrspace(1)* %out
  br label %l2e
l2e:
  %g1 = getelementptr i32, i32 addrspace(1)* %out, i32 1
  store i32 %b, i32 addrspace(1)* %g1
  br label %l1e
l1e:
  %g2 = getelementptr i32, i32 addrspace(1)* %out, i32 2
  store i32 %c, i32 addrspace(1)* %g2
  br label %end
end:
  ret void
}

define amdgpu_kernel void @if_phi(i32 addrspace(1)* %out, i32 %a, i32 %b) {
entry:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %c = icmp ult i32 %tid, %a
  br i1 %c, label %then, label %end
then:
  %x = udiv i32 %b, %a
  br label %end
end:
  %p = phi i32 [ %x, %then ], [ 0, %entry ]
  %g = getelementptr i32, i32 addrspace(1)* %out, i32 %tid
  store i32 %p, i32 addrspace(1)* %g
  ret void
}

define amdgpu_kernel void @switch_stmt(i32 addrspace(1)* %out, i32 %a, i32 %b) {
entry:
  switch i32 %a, label %def [
    i32 0, label %c0
    i32 1, label %c1
    i32 5, label %c5
  ]
c0:
  store i32 %b, i32 addrspace(1)* %out
  br label %end
c1:
  %x = add i32 %b, 1
  store i32 %x, i32 addrspace(1)* %out
  br label %end
c5:
  %y = mul i32 %b, %b
  store i32 %y, i32 addrspace(1)* %out
  br label %end
def:
  store i32 0, i32 addrspace(1)* %out
  br label %end
end:
  ret void
}

define amdgpu_kernel void @early_exit(i32 addrspace(1)* %out, i32 %a, i32 %b) {
entry:
  %c = icmp eq i32 %a, %b
  br i1 %c, label %ret1, label %more
ret1:
  store i32 1, i32 addrspace(1)* %out
  ret void
more:
  %d = icmp sgt i32 %a, 100
  br i1 %d, label %ret2, label %ret3
ret2:
  store i32 2, i32 addrspace(1)* %out
  ret void
ret3:
  ret void
}

; Five nested ifs: deep enough that barts (CF_ALU bug workaround, stack
; sub-entries > 3) splits ALU_PUSH_BEFORE into a separate PUSH + ALU.
define amdgpu_kernel void @deep_nesting(i32 addrspace(1)* %out, i32 %a, i32 %b) {
entry:
  %tid = call i32 @llvm.r600.read.tidig.x()
  %x = xor i32 %tid, %a
  %c1 = icmp ugt i32 %x, 1
  br i1 %c1, label %l1, label %end
l1:
  %g1 = getelementptr i32, i32 addrspace(1)* %out, i32 %x
  store i32 1, i32 addrspace(1)* %g1
  %c2 = icmp ugt i32 %x, %b
  br i1 %c2, label %l2, label %end
l2:
  %y = mul i32 %x, %b
  %g2 = getelementptr i32, i32 addrspace(1)* %out, i32 %y
  store i32 2, i32 addrspace(1)* %g2
  %c3 = icmp ne i32 %y, 7
  br i1 %c3, label %l3, label %end
l3:
  %z = add i32 %y, %tid
  %g3 = getelementptr i32, i32 addrspace(1)* %out, i32 %z
  store i32 3, i32 addrspace(1)* %g3
  %c4 = icmp slt i32 %z, 1000
  br i1 %c4, label %l4, label %end
l4:
  %w = and i32 %z, 255
  %g4 = getelementptr i32, i32 addrspace(1)* %out, i32 %w
  store i32 4, i32 addrspace(1)* %g4
  %c5 = icmp eq i32 %w, 3
  br i1 %c5, label %l5, label %end
l5:
  %g5 = getelementptr i32, i32 addrspace(1)* %out, i32 %tid
  store i32 5, i32 addrspace(1)* %g5
  %c6 = icmp ne i32 %tid, %b
  br i1 %c6, label %l6, label %end
l6:
  %g6 = getelementptr i32, i32 addrspace(1)* %out, i32 %a
  store i32 6, i32 addrspace(1)* %g6
  br label %end
end:
  ret void
}

declare i32 @llvm.r600.read.tidig.x()
