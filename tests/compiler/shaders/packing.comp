// groups: 1 1 1
#version 450
// The packing built-ins and frexp, all exact: packHalf2x16 / unpackHalf2x16 (FLT32_TO_FLT16,
// FLT16_TO_FLT32) with values around the smallest normal half and beyond the largest half,
// packUnorm/Snorm 2x16 and 4x8 (NIR's arithmetic lowering), frexp's significand and exponent.
// (OpQuantizeToF16 has no GLSL form; dEQP's spirv_assembly opquantize cases cover it.)
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
void main() {
   uint i = gl_LocalInvocationID.x;
   float f = floats.v[i], g = floats.v[i + 1u];
   vec4 unit = vec4(f, g, -g, f * g) * 0.1;
   uint o = i * 12u;
   result.v[o + 0u] = packHalf2x16(vec2(f, g * 1000.0));
   result.v[o + 1u] = floatBitsToUint(unpackHalf2x16(ints.v[i]).x);
   result.v[o + 2u] = floatBitsToUint(unpackHalf2x16(ints.v[i] & 0x7bff7bffu).y);
   result.v[o + 3u] = packUnorm2x16(unit.xy * 2.0);
   result.v[o + 4u] = packSnorm2x16(unit.zw);
   result.v[o + 5u] = packUnorm4x8(unit);
   result.v[o + 6u] = packSnorm4x8(unit * 1.5);
   /* Around 2^-14 (the smallest normal half) and beyond the largest half. */
   float q = f * (i % 3u == 0u ? 1.0 / 65536.0 : (i % 3u == 1u ? 1.0 / 16384.0 : 7000.0));
   result.v[o + 7u] = packHalf2x16(vec2(q, -q));
   result.v[o + 8u] = floatBitsToUint(unpackHalf2x16(packHalf2x16(vec2(g, q))).y);
   int e;
   float m = frexp(f * 37.5, e);
   result.v[o + 9u] = floatBitsToUint(m);
   result.v[o + 10u] = uint(e);
   result.v[o + 11u] = floatBitsToUint(frexp(g * 1e-3, e)) ^ uint(e);
}
