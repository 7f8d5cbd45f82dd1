// A loop writing a private array of 128 uints in one shuffled order and another loop reading
// and rewriting it in a second order: each read must see the write before it (the WAIT_ACK
// between a MEM_SCRATCH and a later READ_SCRATCH of the same element).
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid();
   uint data[128];
   for (uint k = 0u; k < 128u; k++) data[(k * 37u + i) & 127u] = ints.v[(i + k) & 1023u] + k;
   uint acc = 0u;
   for (uint k = 0u; k < 128u; k++) {
      uint j = (k * 91u + 5u) & 127u;
      acc = acc * 31u + data[j];
      data[j] = acc;
      data[(j + 1u) & 127u] ^= acc;
   }
   result.v[i] = acc ^ data[ints.v[i] & 127u];
}
