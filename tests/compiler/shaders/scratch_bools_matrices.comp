// Private arrays of bools (stored as 32-bit words) and of mat2 (two elements each, one per
// column) indexed at run time, in scratch.
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid();
   bool flags[100];
   mat2 ms[70];
   for (uint k = 0u; k < 100u; k++) flags[k] = (ints.v[(i + k) & 1023u] & 1u) != 0u;
   for (uint k = 0u; k < 70u; k++) ms[k] = mat2(float(k), 1.0, 2.0, float(i + k));
   uint a = ints.v[i] % 100u;
   flags[a] = !flags[a];
   ms[a % 70u][1] = vec2(float(a), 3.0);
   result.v[i] = (flags[ints.v[(i + 1u) & 1023u] % 100u] ? 1u : 0u) + (flags[a] ? 2u : 0u) +
                 uint(ms[a % 70u][1].x) * 4u + uint(ms[(a + 5u) % 70u][1].y) * 1024u + uint(ms[a % 70u][0].x) * 65536u;
}
