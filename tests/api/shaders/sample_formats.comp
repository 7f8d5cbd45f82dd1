#version 450
// Texel decoding of the required formats: 8-bit UNORM and sRGB results rounded back to 8 bits
// (their conversion to float may differ in the last bit between implementations), 16- and
// 32-bit float and 32-bit integer texels as their exact bits; texelFetch and nearest sampling.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D bytes8[2];   // R8G8B8A8_SRGB, R8_UNORM
layout(set = 0, binding = 2) uniform sampler2D floats[2];   // R16G16B16A16_SFLOAT, R32G32B32A32_SFLOAT
layout(set = 0, binding = 3) uniform sampler2D single;      // R32_SFLOAT
layout(set = 0, binding = 4) uniform usampler2D integers;   // R32_UINT
void main()
{
   ivec2 id = ivec2(gl_GlobalInvocationID.xy);
   vec2 c = (vec2(id) + 0.5) / 4.0;
   uint base = uint(id.y * 4 + id.x) * 12u;
   for (int i = 0; i < 2; i++) {
      o[base + uint(i)] = uvec4(round(texelFetch(bytes8[i], id, 0) * 255.0));
      o[base + 2u + uint(i)] = uvec4(round(textureLod(bytes8[i], c.yx, 0.0) * 255.0));
      o[base + 4u + uint(i)] = floatBitsToUint(texelFetch(floats[i], id, 0));
      o[base + 6u + uint(i)] = floatBitsToUint(textureLod(floats[i], c.yx, 0.0));
   }
   o[base + 8u] = floatBitsToUint(texelFetch(single, id, 0));
   o[base + 9u] = floatBitsToUint(textureLod(single, c.yx, 0.0));
   o[base + 10u] = texelFetch(integers, id, 0);
   o[base + 11u] = textureLod(integers, c.yx, 0.0);
}
