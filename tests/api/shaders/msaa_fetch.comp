#version 450
// Reads every sample of every pixel of a 4-sample image with texelFetch and stores the raw
// bits, then textureSize and textureSamples after the texels. UINT=1 reads a usampler, ARRAY=1
// a multisampled 2D array view at layer 1.
layout(local_size_x = 8, local_size_y = 8) in;
#if UINT && ARRAY
layout(set = 0, binding = 0) uniform usampler2DMSArray image;
#elif UINT
layout(set = 0, binding = 0) uniform usampler2DMS image;
#elif ARRAY
layout(set = 0, binding = 0) uniform sampler2DMSArray image;
#else
layout(set = 0, binding = 0) uniform sampler2DMS image;
#endif
#if ARRAY
#define AT(p) ivec3(p, 1)
#else
#define AT(p) (p)
#endif
#if UINT
#define BITS(v) (v)
#else
#define BITS(v) floatBitsToUint(v)
#endif
layout(set = 0, binding = 1, std430) buffer Out { uvec4 texels[]; };
layout(push_constant) uniform Size { uint width; uint height; };
void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(width) || p.y >= int(height))
        return;
    for (int s = 0; s < 4; s++)
        texels[(p.y * int(width) + p.x) * 4 + s] = BITS(texelFetch(image, AT(p), s));
    if (p == ivec2(0)) {
        uint at = width * height * 4u;
#if ARRAY
        texels[at] = uvec4(uvec3(textureSize(image)), uint(textureSamples(image)));
#else
        texels[at] = uvec4(uvec2(textureSize(image)), 0u, uint(textureSamples(image)));
#endif
    }
}
