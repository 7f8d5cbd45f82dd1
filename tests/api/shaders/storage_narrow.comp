#version 450
// 8- and 16-bit storage formats: invocation i loads element i of `src` (a texel buffer, or texel
// (i % 8, i / 8) of a 2D image with IMAGE), mixes its channels into every stored channel and
// stores the result at the same place in `dst`, which has no format (the descriptor's decides).
// KIND: 0 float, 1 uint, 2 int. The source is read with the format qualifier FMT, or without
// one (FORMATLESS_READ: Terakan, which offers these formats without
// shaderStorageImageExtendedFormats).
#ifdef FORMATLESS_READ
#extension GL_EXT_shader_image_load_formatted : require
#define SRC_LAYOUT layout(set = 0, binding = 0)
#else
#define SRC_LAYOUT layout(set = 0, binding = 0, FMT)
#endif
layout(local_size_x = 8) in;

#if KIND == 0
#define VEC vec4
#define T(name) name
#elif KIND == 1
#define VEC uvec4
#define T(name) u##name
#else
#define VEC ivec4
#define T(name) i##name
#endif

#ifdef IMAGE
#define IMAGE_TYPE T(image2D)
#define COORD(i) ivec2((i) % 8, (i) / 8)
#else
#define IMAGE_TYPE T(imageBuffer)
#define COORD(i) (i)
#endif

SRC_LAYOUT uniform readonly IMAGE_TYPE src;
layout(set = 0, binding = 1) uniform writeonly IMAGE_TYPE dst;
layout(push_constant) uniform Push {
   int count; // elements (or texels) to touch
   uint mask; // integer classes: results are (...) & mask, minus bias for int: in range
   int bias;
};

void main()
{
   int i = int(gl_GlobalInvocationID.x);
   if (i >= count)
      return;
   VEC v = imageLoad(src, COORD(i));
#if KIND == 0
   // Sources are multiples of 1/8 below 26 in magnitude: every result is exact in 16 bits.
   VEC result = vec4(v.x * 0.5 + v.y, v.y - v.x * 0.5, v.x + 1.0, v.y * 2.0) + float(i) * 0.125;
#else
   VEC result = ((v * 3 + v.yxwz + VEC(i)) & VEC(mask)) - VEC(bias);
#endif
   imageStore(dst, COORD(i), result);
}
