// A private array of 256 floats indexed at run time: too large for the GPR-indexed path (64
// elements), so it lives in the scratch ring (MEM_SCRATCH writes, READ_SCRATCH reads).
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid();
   float table[256];
   for (uint k = 0u; k < 256u; k++) table[k] = floats.v[(i + k) & 1023u] * float(k);
   uint a = ints.v[i] & 255u, b = ints.v[(i + 1u) & 1023u] % 256u;
   table[a] += 1.5;
   table[b] -= 0.25;
   result.v[i] = floatBitsToUint(table[a] + table[b] - table[(a * 7u + 3u) & 255u]);
}
