#version 450
// Each pixel claims a slot with an atomic whose result it uses (test_pixel_rats.cpp): the
// return index counts the lane with MBCNT.
layout(location = 0) out vec4 colour;
layout(set = 0, binding = 0) buffer Slots { uint next; uint claimed[]; };
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint slot = atomicAdd(next, 1u);
    claimed[slot] = uint(p.y * 16 + p.x) + 1u;
    colour = vec4(1.0);
}
