; Corpus: loops.
; Exercises CF instructions: LOOP_START_DX10, END_LOOP, LOOP_BREAK, CONTINUE,
; ALU_PUSH_BEFORE/JUMP/POP inside loop bodies, nested loops (on cayman an
; if inside two nested loops is emitted as PUSH + ALU), loop-carried phis,
; loads and stores inside loops (TEX/VTX clauses and RAT writes in a loop).
; Compiles for cypress, barts and cayman.
target triple = "r600--"

define amdgpu_kernel void @counted_loop(i32 addrspace(1)* %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i32 %acc, %i
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  store i32 %acc.next, i32 addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @float_loop(float addrspace(1)* %out, float %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = phi float [ %x, %entry ], [ %v.next, %loop ]
  %m = fmul float %v, %v
  %v.next = fadd float %m, 0.25
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  store float %v.next, float addrspace(1)* %out
  ret void
}

define amdgpu_kernel void @loop_with_break(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %i
  %v = load i32, i32 addrspace(1)* %p
  %z = icmp eq i32 %v, 0
  br i1 %z, label %exit, label %latch
latch:
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %i
  store i32 %v, i32 addrspace(1)* %q
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define amdgpu_kernel void @loop_with_continue(i32 addrspace(1)* %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %odd = and i32 %i, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %latch, label %body
body:
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %i
  store i32 %i, i32 addrspace(1)* %q
  br label %latch
latch:
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define amdgpu_kernel void @nested_loops(i32 addrspace(1)* %out, i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner.latch ]
  %s = add i32 %i, %j
  %t = and i32 %s, 3
  %tz = icmp eq i32 %t, 0
  br i1 %tz, label %do.store, label %inner.latch
do.store:
  %idx = mul i32 %i, %m
  %idx2 = add i32 %idx, %j
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %idx2
  store i32 %s, i32 addrspace(1)* %q
  br label %inner.latch
inner.latch:
  %j.next = add i32 %j, 1
  %cj = icmp ult i32 %j.next, %m
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %i.next = add i32 %i, 1
  %ci = icmp ult i32 %i.next, %n
  br i1 %ci, label %outer, label %exit
exit:
  ret void
}

define amdgpu_kernel void @while_loop_float_cond(float addrspace(1)* %out, float %x) {
entry:
  br label %loop
loop:
  %v = phi float [ %x, %entry ], [ %h, %loop ]
  %h = fmul float %v, 0.5
  %c = fcmp ogt float %h, 1.0
  br i1 %c, label %loop, label %exit
exit:
  store float %h, float addrspace(1)* %out
  ret void
}
