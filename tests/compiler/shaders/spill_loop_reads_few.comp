// Register spilling with a loop that reads some of the live values: 140 uvec4 values loaded
// before a loop (its trip count from a push constant) whose body reads eight of them every
// iteration, all combined after it. The spill choice (docs/compiler.md "Spilling") should take
// the values the loop does not read, so that the loop body has no reloads.
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
uvec4 load4(uint n) {
   uint b = gid() * 3u + n * 4u;
   return uvec4(ints.v[b & 1023u], ints.v[(b + 1u) & 1023u], ints.v[(b + 2u) & 1023u], ints.v[(b + 3u) & 1023u]);
}
#define LOAD(name, n) uvec4 name = load4(n);
#define LOAD10(t, k) LOAD(t##0, k) LOAD(t##1, k + 1u) LOAD(t##2, k + 2u) LOAD(t##3, k + 3u) LOAD(t##4, k + 4u) \
   LOAD(t##5, k + 5u) LOAD(t##6, k + 6u) LOAD(t##7, k + 7u) LOAD(t##8, k + 8u) LOAD(t##9, k + 9u)
#define MIX(a) acc = acc * 31u + ((a.x ^ (a.y << 3u)) + (a.z ^ (a.w >> 2u)));
#define MIX10(t) MIX(t##0) MIX(t##1) MIX(t##2) MIX(t##3) MIX(t##4) MIX(t##5) MIX(t##6) MIX(t##7) MIX(t##8) MIX(t##9)
void main() {
   uint i = gid();
   LOAD10(a0, 0u) LOAD10(a1, 10u) LOAD10(a2, 20u) LOAD10(a3, 30u) LOAD10(a4, 40u) LOAD10(a5, 50u) LOAD10(a6, 60u)
   LOAD10(a7, 70u) LOAD10(a8, 80u) LOAD10(a9, 90u) LOAD10(a10, 100u) LOAD10(a11, 110u) LOAD10(a12, 120u) LOAD10(a13, 130u)
   uvec4 s = uvec4(i);
   for (uint k = 0u; k < pc.count; k++) {
      s = s * 7u + (a00 ^ a13) + (a27 * k) + (a41 | a55) + (a69 >> (k & 7u)) + (a83 - a97);
      s.x += ints.v[(i + k) & 1023u];
   }
   uint acc = s.x ^ s.y ^ s.z ^ s.w;
   MIX10(a0) MIX10(a1) MIX10(a2) MIX10(a3) MIX10(a4) MIX10(a5) MIX10(a6)
   MIX10(a7) MIX10(a8) MIX10(a9) MIX10(a10) MIX10(a11) MIX10(a12) MIX10(a13)
   result.v[i] = acc;
}
