// The computation of LLVM kernel @nested_if in tests/sim/kernels/compute.ll, for GPR comparison.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } src;
layout(set = 0, binding = 1) writeonly buffer Out { uint v[]; } dst;
layout(push_constant) uniform Push { uint n; } pc;
void main() {
   uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
   uint x = src.v[i]; uint r; if ((x & 1u) != 0u) r = ((x & 2u) != 0u ? 11u : 22u) * pc.n; else r = (x & 4u) != 0u ? x + pc.n : 44u; dst.v[i] = r;
}
