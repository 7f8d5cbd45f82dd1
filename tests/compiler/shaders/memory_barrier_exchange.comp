#version 450
// Invocations write a storage buffer, wait for the writes at memoryBarrierBuffer() (a WAIT_ACK
// after MARKed RAT writes) and a workgroup barrier, then read what a neighbour wrote.
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) coherent buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
void main() {
   uint base = gl_WorkGroupID.x * 64u, t = gl_LocalInvocationID.x;
   result.v[base + t] = ints.v[base + t] * 3u + t;
   memoryBarrierBuffer();
   barrier();
   uint neighbour = result.v[base + (t ^ 5u)];
   memoryBarrierBuffer();
   barrier();
   result.v[base + t] = neighbour + 1u;
}
