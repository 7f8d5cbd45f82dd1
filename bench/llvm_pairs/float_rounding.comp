// The computation of LLVM kernel @float_rounding in tests/sim/kernels/compute.ll, for GPR comparison.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } src;
layout(set = 0, binding = 1) writeonly buffer Out { uint v[]; } dst;
layout(push_constant) uniform Push { uint n; } pc;
void main() {
   uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
   float x = uintBitsToFloat(src.v[i]); dst.v[i] = floatBitsToUint(floor(x) + ceil(x) * 2.0 + trunc(x));
}
