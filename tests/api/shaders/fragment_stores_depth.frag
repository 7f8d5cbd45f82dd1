#version 450
// Stores under a depth test (test_fragment_stores.cpp): EARLY set, the tests come first and
// the pixels that fail them write nothing; without it, the shader's stores happen whatever
// the later depth test decides.
#if EARLY
layout(early_fragment_tests) in;
#endif
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour;

layout(set = 0, binding = 0) buffer Marks { uint marks[]; };
layout(set = 0, binding = 1) buffer Count { uint count; };

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    marks[p.y * 32 + p.x] = 7u;
    atomicAdd(count, 1u);
    colour = v_colour;
}
