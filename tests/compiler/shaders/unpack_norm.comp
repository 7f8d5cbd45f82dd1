// groups: 1 1 1
// tolerance: 1e-6 unpack*Norm divide by 65535, 32767, 255 and 127 as a multiply by RECIP_IEEE of the constant
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
void main() {
   uint i = gl_LocalInvocationID.x;
   uint x = ints.v[i];
   uint o = i * 12u;
   vec2 a = unpackUnorm2x16(x);
   vec2 b = unpackSnorm2x16(x);
   vec4 c = unpackUnorm4x8(x);
   vec4 d = unpackSnorm4x8(x);
   result.v[o + 0u] = floatBitsToUint(a.x);
   result.v[o + 1u] = floatBitsToUint(a.y);
   result.v[o + 2u] = floatBitsToUint(b.x);
   result.v[o + 3u] = floatBitsToUint(b.y);
   result.v[o + 4u] = floatBitsToUint(c.x);
   result.v[o + 5u] = floatBitsToUint(c.y);
   result.v[o + 6u] = floatBitsToUint(c.z);
   result.v[o + 7u] = floatBitsToUint(c.w);
   result.v[o + 8u] = floatBitsToUint(d.x);
   result.v[o + 9u] = floatBitsToUint(d.y);
   result.v[o + 10u] = floatBitsToUint(d.z);
   result.v[o + 11u] = floatBitsToUint(d.w);
}
