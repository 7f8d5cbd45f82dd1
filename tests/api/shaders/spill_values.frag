#version 450
// More than 124 GPRs in a pixel shader: 140 uvec4 values made from the pixel's position and
// the vertex shader's hash, live across a loop whose trip count differs between quads, folded
// into the colour. The compiler spills to the PS scratch ring (docs/compiler.md "Spilling").
layout(location = 0) flat in uvec4 vertex_hash;
layout(location = 0) out vec4 colour;
#define V(name, k) uvec4 name = uvec4(seed * (k + 1u), seed ^ (k * 977u), seed + k * 31u, (seed << (k & 7u)) + k);
#define V10(t, k) V(t##0, k) V(t##1, k + 1u) V(t##2, k + 2u) V(t##3, k + 3u) V(t##4, k + 4u) \
   V(t##5, k + 5u) V(t##6, k + 6u) V(t##7, k + 7u) V(t##8, k + 8u) V(t##9, k + 9u)
#define MIX(a) acc = acc * 31u + ((a.x ^ (a.y << 3u)) + (a.z ^ (a.w >> 2u)));
#define MIX10(t) MIX(t##0) MIX(t##1) MIX(t##2) MIX(t##3) MIX(t##4) MIX(t##5) MIX(t##6) MIX(t##7) MIX(t##8) MIX(t##9)
void main()
{
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint seed = (p.x * 73856093u) ^ (p.y * 19349663u) ^ vertex_hash.x;
   V10(a0, 0u) V10(a1, 10u) V10(a2, 20u) V10(a3, 30u) V10(a4, 40u) V10(a5, 50u) V10(a6, 60u)
   V10(a7, 70u) V10(a8, 80u) V10(a9, 90u) V10(a10, 100u) V10(a11, 110u) V10(a12, 120u) V10(a13, 130u)
   uint s = seed;
   for (uint k = 0u; k < (vertex_hash.y & 3u) + 1u; k++)
      s = s * 5u + k;
   uint acc = s;
   MIX10(a0) MIX10(a1) MIX10(a2) MIX10(a3) MIX10(a4) MIX10(a5) MIX10(a6)
   MIX10(a7) MIX10(a8) MIX10(a9) MIX10(a10) MIX10(a11) MIX10(a12) MIX10(a13)
   colour = vec4(uvec4(acc, acc >> 8u, vertex_hash.z ^ (acc >> 16u), vertex_hash.w) & 255u) / 255.0;
}
