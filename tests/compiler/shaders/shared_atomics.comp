#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
shared uint counters[4];
void main() {
   uint i = gid(); uint t = gl_LocalInvocationID.x; if (t < 4u) counters[t] = t == 1u ? 0xffffffffu : 0u; barrier(); uint x = ints.v[i]; uint before = atomicAdd(counters[0], x & 7u); atomicMin(counters[1], x); atomicMax(counters[2], x >> 1); atomicXor(counters[3], x); barrier(); result.v[i] = counters[t & 3u] + (before & 0u);
}
