// Register spilling inside a loop: every iteration loads 136 uvec4 values, a branch on a
// loaded value follows (control flow, so the loads cannot be interleaved with their uses),
// then all are combined. The spill stores and reloads run in every iteration, and the values
// of one iteration must not leak into the next.
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
uvec4 load4(uint base, uint n) {
   uint b = base + n * 4u;
   return uvec4(ints.v[b & 1023u], ints.v[(b + 1u) & 1023u], ints.v[(b + 2u) & 1023u], ints.v[(b + 3u) & 1023u]);
}
#define LOAD(name, n) uvec4 name = load4(base, n);
#define LOAD10(t, k) LOAD(t##0, k) LOAD(t##1, k + 1u) LOAD(t##2, k + 2u) LOAD(t##3, k + 3u) LOAD(t##4, k + 4u) \
   LOAD(t##5, k + 5u) LOAD(t##6, k + 6u) LOAD(t##7, k + 7u) LOAD(t##8, k + 8u) LOAD(t##9, k + 9u)
#define MIX(a) acc = acc * 31u + ((a.x ^ (a.y << 3u)) + (a.z ^ (a.w >> 2u)));
#define MIX10(t) MIX(t##0) MIX(t##1) MIX(t##2) MIX(t##3) MIX(t##4) MIX(t##5) MIX(t##6) MIX(t##7) MIX(t##8) MIX(t##9)
void main() {
   uint i = gid();
   uint acc = i;
   for (uint k = 0u; k < pc.count; k++) {
      uint base = i * 11u + k * 97u;
      LOAD10(a0, 0u) LOAD10(a1, 10u) LOAD10(a2, 20u) LOAD10(a3, 30u) LOAD10(a4, 40u) LOAD10(a5, 50u) LOAD10(a6, 60u)
      LOAD10(a7, 70u) LOAD10(a8, 80u) LOAD10(a9, 90u) LOAD10(a10, 100u) LOAD10(a11, 110u) LOAD10(a12, 120u)
      LOAD(a130, 130u) LOAD(a131, 131u) LOAD(a132, 132u) LOAD(a133, 133u) LOAD(a134, 134u) LOAD(a135, 135u)
      if ((a00.x & 3u) == 1u)
         acc ^= ints.v[(acc + k) & 1023u];
      MIX10(a0) MIX10(a1) MIX10(a2) MIX10(a3) MIX10(a4) MIX10(a5) MIX10(a6)
      MIX10(a7) MIX10(a8) MIX10(a9) MIX10(a10) MIX10(a11) MIX10(a12)
      MIX(a130) MIX(a131) MIX(a132) MIX(a133) MIX(a134) MIX(a135)
   }
   result.v[i] = acc;
}
