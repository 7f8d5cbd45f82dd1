#version 450
// Vulkan's shaderStorageImageExtendedFormats: invocation i loads element i of `src` (a texel
// buffer, or texel (i % width, i / width) of a 2D image with IMAGE), both views declared with the
// format qualifier FMT, and stores a mix of its channels at the same place in `dst`.
// KIND: 0 unorm, 1 snorm, 2 uint, 3 int, 4 unsigned packed float (r11f_g11f_b10f).
// Normalized values are brought back to their integer codes (`top` per channel: 2^bits - 1,
// or 2^(bits-1) - 1 for snorm), mixed as integers and stored as code / top: every stored
// value is a code to within rounding error, so no implementation's rounding of ties matters.
// Packed floats are scaled by powers of two, which is exact for the sources the test makes.
layout(local_size_x = 8) in;

#if KIND == 2
#define VEC uvec4
#define T(name) u##name
#elif KIND == 3
#define VEC ivec4
#define T(name) i##name
#else
#define VEC vec4
#define T(name) name
#endif

#ifdef IMAGE
#define IMAGE_TYPE T(image2D)
#define COORD(i) ivec2((i) % width, (i) / width)
#else
#define IMAGE_TYPE T(imageBuffer)
#define COORD(i) (i)
#endif

layout(set = 0, binding = 0, FMT) uniform readonly IMAGE_TYPE src;
layout(set = 0, binding = 1, FMT) uniform writeonly IMAGE_TYPE dst;
layout(push_constant) uniform Push {
   ivec4 top; // the largest code of each channel (unorm, snorm, uint) or the largest value (int)
   int count; // elements (or texels) to touch
   int width; // of the image
};

void main()
{
   int i = int(gl_GlobalInvocationID.x);
   if (i >= count)
      return;
   VEC v = imageLoad(src, COORD(i));
#if KIND == 0
   ivec4 k = ivec4(round(v * vec4(top)));
   VEC result = vec4((k * 3 + k.yxwz + i) % (top + 1)) / vec4(top);
#elif KIND == 1
   ivec4 k = ivec4(round(v * vec4(top))) + top; // 0 .. 2 top
   VEC result = vec4((k * 3 + k.yxwz + i) % (2 * top + 1) - top) / vec4(top);
#elif KIND == 2
   VEC result = (v * 3u + v.yxwz + uint(i)) % uvec4(top + 1);
#elif KIND == 3
   ivec4 k = v + top + 1; // 0 .. 2 top + 1
   VEC result = (k * 3 + k.yxwz + i) % (2 * top + 2) - top - 1;
#else
   VEC result = vec4(v.x * 2.0, v.y * 0.5, v.z * 4.0, 1.0);
#endif
   imageStore(dst, COORD(i), result);
}
