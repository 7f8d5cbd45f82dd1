#version 450
// More than 124 GPRs in a vertex shader: 140 uvec4 values made from the quad's number, live
// across a loop whose trip count depends on the quad, then folded into a hash passed flat to
// the pixel shader. The compiler spills to the VS scratch ring (docs/compiler.md "Spilling").
layout(location = 0) flat out uvec4 vertex_hash;
const vec2 corners[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0),
                                vec2(0.0, 1.0));
#define V(name, k) uvec4 name = uvec4(seed * (k + 1u), seed ^ (k * 977u), seed + k * 31u, (seed << (k & 7u)) + k);
#define V10(t, k) V(t##0, k) V(t##1, k + 1u) V(t##2, k + 2u) V(t##3, k + 3u) V(t##4, k + 4u) \
   V(t##5, k + 5u) V(t##6, k + 6u) V(t##7, k + 7u) V(t##8, k + 8u) V(t##9, k + 9u)
#define MIX(a) acc = acc * 31u + ((a.x ^ (a.y << 3u)) + (a.z ^ (a.w >> 2u)));
#define MIX10(t) MIX(t##0) MIX(t##1) MIX(t##2) MIX(t##3) MIX(t##4) MIX(t##5) MIX(t##6) MIX(t##7) MIX(t##8) MIX(t##9)
void main()
{
   int v = gl_VertexIndex;
   int quad = v / 6;
   uint seed = uint(quad) * 2654435761u + 12345u;
   V10(a0, 0u) V10(a1, 10u) V10(a2, 20u) V10(a3, 30u) V10(a4, 40u) V10(a5, 50u) V10(a6, 60u)
   V10(a7, 70u) V10(a8, 80u) V10(a9, 90u) V10(a10, 100u) V10(a11, 110u) V10(a12, 120u) V10(a13, 130u)
   uint s = seed;
   for (int k = 0; k < quad + 2; k++)
      s = s * 7u + uint(k);
   uint acc = s;
   MIX10(a0) MIX10(a1) MIX10(a2) MIX10(a3) MIX10(a4) MIX10(a5) MIX10(a6)
   MIX10(a7) MIX10(a8) MIX10(a9) MIX10(a10) MIX10(a11) MIX10(a12) MIX10(a13)
   vertex_hash = uvec4(acc, acc >> 8u, acc >> 16u, acc >> 24u) & 255u;
   gl_Position = vec4(corners[v % 6] + vec2(float(quad & 1), float(quad >> 1)) - 1.0, 0.0, 1.0);
}
