#version 450
// Every texel of a 16x16 image (level 0) or of a 256-texel buffer, read with texelFetch and
// written as raw bits: floats as their bits, integers as they are. KIND 0 float, 1 uint,
// 2 sint; BUFFER: a texel buffer instead of an image.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
#if KIND == 0
#define VEC4 vec4
#define SAMPLER_2D sampler2D
#define SAMPLER_BUFFER samplerBuffer
#elif KIND == 1
#define VEC4 uvec4
#define SAMPLER_2D usampler2D
#define SAMPLER_BUFFER usamplerBuffer
#else
#define VEC4 ivec4
#define SAMPLER_2D isampler2D
#define SAMPLER_BUFFER isamplerBuffer
#endif
#ifdef BUFFER
layout(set = 0, binding = 1) uniform SAMPLER_BUFFER texels;
#else
layout(set = 0, binding = 1) uniform SAMPLER_2D texels;
#endif
void main()
{
   ivec2 p = ivec2(gl_GlobalInvocationID.xy);
   int i = p.y * 16 + p.x;
#ifdef BUFFER
   VEC4 v = texelFetch(texels, i);
#else
   VEC4 v = texelFetch(texels, p, 0);
#endif
#if KIND == 0
   o[i] = floatBitsToUint(v);
#else
   o[i] = uvec4(v);
#endif
}
