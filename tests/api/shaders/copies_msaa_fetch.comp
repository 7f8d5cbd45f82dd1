#version 450
// Reads every sample of every pixel of every layer of a multisampled 2D array view (2, 4 or 8
// samples) with texelFetch and stores the raw bits: sample s of pixel (x, y) of layer z at
// ((z * height + y) * width + x) * 8 + s (room for 8 samples; the rest is left alone). UINT=1
// reads a usampler (integer colour, stencil), else a sampler (float, normalized, depth).
// The multisampled copies' readback (test_copies_msaa.cpp): no resolve takes part.
layout(local_size_x = 8, local_size_y = 8) in;
#if UINT
layout(set = 0, binding = 0) uniform usampler2DMSArray image;
#define BITS(v) (v)
#else
layout(set = 0, binding = 0) uniform sampler2DMSArray image;
#define BITS(v) floatBitsToUint(v)
#endif
layout(set = 0, binding = 1, std430) buffer Out { uvec4 texels[]; };
layout(push_constant) uniform Size { uint width; uint height; };
void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (p.x >= int(width) || p.y >= int(height))
        return;
    int samples = textureSamples(image);
    for (int s = 0; s < samples; s++)
        texels[((p.z * int(height) + p.y) * int(width) + p.x) * 8 + s] = BITS(texelFetch(image, p, s));
}
