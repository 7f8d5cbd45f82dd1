#version 450
// Loads whose byte offset NIR writes as x + constant with an x that is "negative" as an unsigned
// number: reversed indices (c - i), reversed vectors (each component at offset + 4k), a reversed
// uniform-buffer read, and an index that wraps around 2^32 on purpose (0xffffffff + 2 = 1).
// The fetch unit does not wrap, so none of these constants may go into the fetch's OFFSET field.
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Vectors { uvec4 v[]; } vectors;
layout(set = 0, binding = 3) uniform Uniforms { vec4 v[64]; } uniforms;
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint l = gl_LocalInvocationID.x;
   uint o = i * 4u;
   result.v[o + 0u] = ints.v[1023u - i] + ints.v[63u - l];
   uvec4 w = vectors.v[255u - i];
   result.v[o + 1u] = w.x ^ w.y * 3u ^ w.z * 5u ^ w.w * 7u;
   result.v[o + 2u] = floatBitsToUint(uniforms.v[63u - (i & 63u)].z + uniforms.v[31u - (l & 31u)].y);
   const uint edges[5] = uint[5](0u, 1u, 2u, 5u, 6u); /* ints.v there: 0, 1, 0xffffffff, 2, 3 */
   result.v[o + 3u] = ints.v[ints.v[edges[i % 5u]] + 2u] + ints.v[(7u - (l & 7u)) * 4u + 2u];
}
