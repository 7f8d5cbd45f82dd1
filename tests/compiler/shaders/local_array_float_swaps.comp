#version 450
// A local array of floats written and read at run-time indices (NIR's indirect-deref lowering
// makes each access a chain of selects over every element). The selects of one group read many
// GPRs per channel (no bank swizzle fits, so the group is split) and the register allocator
// hands places on within the group, so the operations can read each other's results in a
// cycle: this once failed with "a group with no legal bank swizzle cannot be split".
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid();
   uint j = ints.v[i] & 3u;
   float t[6];
   for (uint k = 0u; k < 6u; k++) t[k] = floats.v[i + k];
   float a = floats.v[i + 100u], b = floats.v[i + 200u];
   t[(j + 3u) % 6u] = a + b;
   t[j] = b * t[j];
   uint m = ints.v[i + 6u] % 6u;
   t[m] = 2.0 - t[m];
   uint p = ints.v[i + 7u] % 6u, q = ints.v[i + 8u] % 6u;
   float x = t[p]; t[p] = t[q]; t[q] = x;
   uint r = ints.v[i + 9u] % 6u, u = ints.v[i + 10u] % 6u;
   float y = t[r]; t[r] = t[u]; t[u] = y;
   result.v[i] = floatBitsToUint(t[0] + t[1] * 2.0 + t[2] * 3.0 + t[3] * 4.0 + t[4] * 5.0 + t[5] * 6.0 + t[3] * a);
}
