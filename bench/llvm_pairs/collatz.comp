// The computation of LLVM kernel @collatz in tests/sim/kernels/compute.ll, for GPR comparison.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } src;
layout(set = 0, binding = 1) writeonly buffer Out { uint v[]; } dst;
layout(push_constant) uniform Push { uint n; } pc;
void main() {
   uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
   uint v = src.v[i] & 1023u, k = 0u; while (v > 1u && k < 200u) { v = (v & 1u) != 0u ? 3u * v + 1u : v >> 1; k++; } dst.v[i] = k;
}
