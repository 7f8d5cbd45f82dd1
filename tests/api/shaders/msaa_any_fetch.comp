#version 450
// Reads every sample of every pixel of a float or normalized multisampled image of any sample
// count with texelFetch and stores them as floats, sample s of pixel p at p * 8 + s (room for
// 8 samples), then textureSize and textureSamples after the texels (2x/8x tests).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2DMS image;
layout(set = 0, binding = 1, std430) buffer Out { vec4 texels[]; };
layout(push_constant) uniform Size { uint width; uint height; };
void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(width) || p.y >= int(height))
        return;
    int samples = textureSamples(image);
    for (int s = 0; s < samples; s++)
        texels[(p.y * int(width) + p.x) * 8 + s] = texelFetch(image, p, s);
    if (p == ivec2(0))
        texels[width * height * 8u] = vec4(vec2(textureSize(image)), 0.0, float(samples));
}
