#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
shared uint slots[64];
void main() {
   uint i = gid(); uint t = gl_LocalInvocationID.x; slots[t] = t; barrier(); uint old = atomicExchange(slots[63u - t], ints.v[i]); barrier(); uint swapped = atomicCompSwap(slots[t], ints.v[i ^ 63u], 5u); barrier(); result.v[i] = old * 3u + slots[t] + (swapped == ints.v[i ^ 63u] ? 1u : 0u);
}
