#version 450
// Pixel-shader stores in formats of shaderStorageImageExtendedFormats (test_fragment_stores.cpp
// ExtendedFormatsFromAPixelShader): an RG16_SNORM image, a B10G11R11_UFLOAT image and an
// A2B10G10R10_UNORM texel buffer, each texel written by its pixel. Normalized values are codes
// over the largest code and the packed floats have few mantissa bits, so every stored bit is
// exact whatever an implementation's rounding of ties.
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour0;

layout(set = 0, binding = 0, rg16_snorm) uniform writeonly image2D signed_image;
layout(set = 0, binding = 1, r11f_g11f_b10f) uniform writeonly image2D packed_image;
layout(set = 0, binding = 2, rgb10_a2) uniform writeonly imageBuffer texels;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int i = p.y * 32 + p.x;
    ivec2 codes = (p * ivec2(2111, 977) + ivec2(p.y * 301, p.x * 53)) % 65535 - 32767;
    imageStore(signed_image, p, vec4(vec2(codes) / 32767.0, 0.0, 0.0));
    imageStore(packed_image, p, vec4((1.0 + float(p.x) / 32.0) * exp2(float(p.y % 16 - 8)),
                                     (1.0 + float(p.y) / 32.0) * exp2(float(p.x % 8 - 3)),
                                     (1.0 + float((p.x ^ p.y) & 31) / 32.0) * 0.25, 1.0));
    imageStore(texels, i, vec4(float(p.x * 31 % 1024) / 1023.0, float(p.y * 17 % 1024) / 1023.0,
                               float(i % 1024) / 1023.0, float(i % 4) / 3.0));
    colour0 = v_colour;
}
