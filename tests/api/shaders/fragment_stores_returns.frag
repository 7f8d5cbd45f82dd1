#version 450
// Atomics whose results a pixel shader uses (test_fragment_stores.cpp), with order-independent
// results: each invocation claims a slot with atomicAdd and writes its pixel there (the
// claimed slots hold each covered pixel once per instance, in some order); compare-exchange on
// a per-pixel word and exchange on an R32UI image return 0 to the first instance and 5 or 9 to
// the second, so each pixel's total is 14 whatever the order.
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 colour;

layout(set = 0, binding = 0) buffer Next { uint next; };
layout(set = 0, binding = 1) buffer Claimed { uint claimed[]; };
layout(set = 0, binding = 2) buffer Swaps { uint swaps[]; };
layout(set = 0, binding = 3, r32ui) uniform uimage2D owners;
layout(set = 0, binding = 4) buffer Totals { uint totals[]; };

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint i = uint(p.y * 32 + p.x);
    uint slot = atomicAdd(next, 1u);
    claimed[slot] = i + 1u;
    uint before = atomicCompSwap(swaps[i], 0u, 5u);
    uint old = imageAtomicExchange(owners, p, 9u);
    atomicAdd(totals[i], before + old);
    colour = v_colour;
}
