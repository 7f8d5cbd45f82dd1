#version 450
// terakan-scene's post-process: reads the resolved picture (texelFetch of a sampled image),
// applies a gentle S-shaped tone curve and a vignette, and writes RGBA8 words to a buffer
// (the driver has no storage images).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D picture;
layout(set = 0, binding = 1) buffer Output { uint pixels[]; };
layout(push_constant) uniform Size { uint width; uint height; } size;

void main()
{
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= size.width || p.y >= size.height)
        return;
    vec3 c = texelFetch(picture, ivec2(p), 0).rgb;
    vec3 curve = c * c * (3.0 - 2.0 * c);
    c = mix(c, curve, 0.4);
    vec2 d = (vec2(p) + 0.5) / vec2(size.width, size.height) - 0.5;
    float vignette = 1.0 - 0.8 * dot(d, d);
    pixels[p.y * size.width + p.x] = packUnorm4x8(vec4(c * vignette, 1.0));
}
