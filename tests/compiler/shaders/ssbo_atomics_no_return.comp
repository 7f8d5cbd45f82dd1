#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid(); atomicAdd(result.v[0], ints.v[i] & 15u); atomicMax(result.v[1], ints.v[i]); atomicMin(result.v[2], ints.v[i] | 1u); atomicOr(result.v[3], 1u << (i & 31u)); atomicXor(result.v[4], ints.v[i]); atomicAnd(result.v[5], ~(1u << (i & 31u))); atomicMax(result.v[6 + (i & 7u)], i);
}
