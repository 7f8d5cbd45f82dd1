// groups: 2
#version 450
// Products the compiler selects as MUL_UINT24 / MULADD_UINT24 (both operands provably below
// 2^24) next to ones it must not (an operand of 25 bits), with the edge values of binding 0
// (0, 0xffffffff masked to 0xffffff, ...) and wrapping 48-bit products; and store indices
// computed as quarters of their byte offsets (g * 20 + 4k -> g * 5 + k, g * 12 + 640 * 4 ...).
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
void main() {
   uint g = gl_GlobalInvocationID.x;
   uint x = ints.v[g], y = ints.v[g + 128u], z = ints.v[g + 256u];
   uint base = g * 5u;
   /* Both at most 2^24 - 1: MUL_UINT24, the low 32 bits of a 48-bit product. */
   result.v[base + 0u] = (x & 0xffffffu) * (y & 0xffffffu);
   /* 25 bits on one side: must stay a full 32-bit multiply. */
   result.v[base + 1u] = (x & 0x1ffffffu) * (y & 0xffu);
   /* A product read once, by an add: MULADD_UINT24. */
   result.v[base + 2u] = (x & 0xffffffu) * (z & 0xfffu) + y;
   /* Workgroup and invocation ids are bounded (65535 groups at most, 64 invocations). */
   result.v[base + 3u] = gl_WorkGroupID.x * 300000u + gl_LocalInvocationID.x * (y & 0xffffu);
   /* A negative factor is no 24-bit operand. */
   result.v[base + 4u] = (x & 0xffu) * uint(-3);
   /* Indices from shifts and odd strides. */
   result.v[640u + g * 3u] = (y & 0xffffu) * (z & 0xffu) + (x & 0xffffffu) * 7u;
   result.v[641u + g * 3u] = uint(g * 0x10000u + 5u);
   result.v[642u + (g << 1) + g] = (z >> 8) * (g + 1u);
}
