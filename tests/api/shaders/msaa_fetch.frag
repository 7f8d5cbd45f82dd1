#version 450
// Copies the four samples of the pixel under the fragment from a 4-sample image into four
// single-sample targets (sample i to target i). UINT=1 reads a usampler.
#if UINT
layout(set = 0, binding = 0) uniform usampler2DMS image;
layout(location = 0) out uvec4 s0;
layout(location = 1) out uvec4 s1;
layout(location = 2) out uvec4 s2;
layout(location = 3) out uvec4 s3;
#else
layout(set = 0, binding = 0) uniform sampler2DMS image;
layout(location = 0) out vec4 s0;
layout(location = 1) out vec4 s1;
layout(location = 2) out vec4 s2;
layout(location = 3) out vec4 s3;
#endif
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    s0 = texelFetch(image, p, 0);
    s1 = texelFetch(image, p, 1);
    s2 = texelFetch(image, p, 2);
    s3 = texelFetch(image, p, 3);
}
