#version 450
// Storage images and storage texel buffers: every invocation loads its texel of `src`, stores
// a transformed value into `dst` at the same coordinates, and invocation 0 writes imageSize.
// Compiled per dimension (DIM), number class (KIND: 0 float, 1 uint, 2 int) and the source's
// format qualifier (FMT, or none: FORMATLESS_READ) by tests/meson.build. The destination has no
// format: the descriptor's decides (shaderStorageImageWriteWithoutFormat; lavapipe, the
// reference, does not read without a format, so that is only run on Terakan).
#ifdef FORMATLESS_READ
#extension GL_EXT_shader_image_load_formatted : require
#define SRC_LAYOUT layout(set = 0, binding = 0)
#else
#define SRC_LAYOUT layout(set = 0, binding = 0, FMT)
#endif
layout(local_size_x = 4, local_size_y = 4, local_size_z = 2) in;

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

#if DIM == 1
#define IMAGE T(image1D)
#define COORD(id) id.x
#define SIZE_OF(s) ivec4(s, 0, 0, 0)
#elif DIM == 2
#define IMAGE T(image2D)
#define COORD(id) id.xy
#define SIZE_OF(s) ivec4(s, 0, 0)
#elif DIM == 3
#define IMAGE T(image3D)
#define COORD(id) id
#define SIZE_OF(s) ivec4(s, 0)
#elif DIM == 4
#define IMAGE T(image2DArray)
#define COORD(id) id
#define SIZE_OF(s) ivec4(s, 0)
#elif DIM == 5
#define IMAGE T(image1DArray)
#define COORD(id) id.xy
#define SIZE_OF(s) ivec4(s, 0, 0)
#elif DIM == 7
#define IMAGE T(imageCube)
#define COORD(id) id
#define SIZE_OF(s) ivec4(s, 0, 0)
#else
#define IMAGE T(imageBuffer)
#define COORD(id) id.x
#endif

SRC_LAYOUT uniform readonly IMAGE src;
layout(set = 0, binding = 1) uniform writeonly IMAGE dst;
layout(set = 0, binding = 2) buffer Sizes { ivec4 sizes[2]; };
layout(push_constant) uniform Push {
   ivec4 extent;  // the texels to touch: x, y, z (layers or slices)
   vec4 steps;    // float class: v * steps.x + id * steps.y + steps.z (w: -0.25); the test
                  // chooses exact products for float formats and values far from rounding
                  // ties for normalized ones
   uint mask;     // integer classes: (v * 3 + id) & mask, minus bias for int
   int bias;
};

void main()
{
   ivec3 id = ivec3(gl_GlobalInvocationID);
   if (any(greaterThanEqual(id, extent.xyz)))
      return;
#if DIM == 5
   id.y = id.z; // a 1D array's layer is its second coordinate
#endif
   VEC v = imageLoad(src, COORD(id));
#if KIND == 0
   VEC result = v.wzyx * steps.x + vec4(vec3(id) * steps.y + steps.z, -0.25);
#elif KIND == 1
   VEC result = (v.wzyx * 3u + uvec4(id, 5)) & mask;
#else
   VEC result = ((v.wzyx * 3 + ivec4(id, 5)) & int(mask)) - bias;
#endif
   imageStore(dst, COORD(id), result);
#if DIM != 6
   if (all(equal(id, ivec3(0)))) {
      sizes[0] = SIZE_OF(imageSize(dst));
      sizes[1] = SIZE_OF(imageSize(src));
   }
#endif
}
