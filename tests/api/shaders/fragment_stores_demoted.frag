#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// Demoted pixels must not write (test_fragment_stores.cpp): every covered pixel counts itself,
// a checkerboard of pixels is demoted, then each pixel marks its word with a fine derivative
// (exact only if its demoted neighbour still runs), counts itself, and counts itself once more
// if helperInvocationEXT() says it is not a helper.
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour;

layout(set = 0, binding = 0) buffer Marks { uint marks[]; };
layout(set = 0, binding = 1) buffer Count { uint count; };
layout(set = 0, binding = 2) buffer Before { uint before; };
layout(set = 0, binding = 3) buffer Valid { uint valid; };

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    atomicAdd(before, 1u);
    if (((p.x ^ p.y) & 1) != 0)
        demote;
    float step = dFdxFine(gl_FragCoord.x * gl_FragCoord.x);
    marks[p.y * 32 + p.x] = 1u + uint(step == 2.0 * float(p.x & ~1) + 2.0);
    atomicAdd(count, 1u);
    if (!helperInvocationEXT())
        atomicAdd(valid, 1u);
    colour = v_colour;
}
