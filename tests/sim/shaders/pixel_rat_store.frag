#version 450
// Per-pixel stores from a pixel shader, a pattern of pixels discarded first
// (test_pixel_rats.cpp).
layout(location = 0) out vec4 colour;
layout(set = 0, binding = 0) buffer Words { uint words[]; };
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (((p.x ^ p.y) & 3) == 3)
        discard;
    words[p.y * 16 + p.x] = uint(p.x + 1);
    colour = vec4(1.0);
}
