#version 450
// Helper and killed pixels must not write (test_fragment_stores.cpp): a derivative keeps the
// quads' helper lanes running, a checkerboard of pixels is discarded before the stores, and
// each pixel that stays marks its word (with a value loaded from a storage image the test
// cleared to 7) and counts itself; every covered pixel counts itself before the discard.
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour;

layout(set = 0, binding = 0) buffer Marks { uint marks[]; };
layout(set = 0, binding = 1) buffer Count { uint count; };
layout(set = 0, binding = 2, r32ui) uniform readonly uimage2D sevens;
layout(set = 0, binding = 3) buffer Before { uint before; };

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    float slope = dFdx(v_colour.r) + dFdy(v_colour.g);
    atomicAdd(before, 1u); // every covered pixel, the discarded ones too: it comes first
    if (((p.x ^ p.y) & 1) != 0)
        discard;
    marks[p.y * 32 + p.x] = 1u + uint(slope != 12345.0) + imageLoad(sevens, p).x;
    atomicAdd(count, 1u);
    colour = v_colour;
}
