#version 450
// Every kind of memory write a pixel shader can make (test_fragment_stores.cpp), with
// results that do not depend on the order of the invocations: per-pixel words and texels
// indexed by FragCoord (the same value whichever instance writes last), atomics on counters
// and on an R32UI image, a storage-buffer load, while two colour attachments are written.
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour0;
layout(location = 1) out vec4 colour1;

layout(set = 0, binding = 0) buffer Pixels { uint pixels[]; };
layout(set = 0, binding = 1) buffer Counters {
    uint covered;
    uint sum_x;
    uint max_y;
    uint or_bits;
    uint min_x;
    uint xor_bits;
    int lowest;
    int highest;
    uint and_bits;
};
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D painted;
layout(set = 0, binding = 3, r32ui) uniform uimage2D hits;
layout(set = 0, binding = 4, rgba32ui) uniform writeonly uimageBuffer texels;
layout(set = 0, binding = 5) readonly buffer Keys { uint keys[]; };

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint i = uint(p.y * 32 + p.x);
    pixels[i] = packUnorm4x8(v_colour) ^ keys[i];
    atomicAdd(covered, 1u);
    atomicAdd(sum_x, uint(p.x));
    atomicMax(max_y, uint(p.y));
    atomicOr(or_bits, 1u << uint(p.x & 31));
    atomicMin(min_x, uint(p.x));
    atomicXor(xor_bits, keys[i]);
    atomicMin(lowest, p.x - 2 * p.y);
    atomicMax(highest, 3 * p.x - p.y);
    atomicAnd(and_bits, ~(1u << uint(p.y & 31)));
    imageStore(painted, p, v_colour.bgra);
    imageAtomicAdd(hits, p, 1u + (i & 3u));
    imageStore(texels, int(i), uvec4(uint(p.x), uint(p.y), i, keys[i]));
    colour0 = v_colour;
    colour1 = v_colour.gbra;
}
