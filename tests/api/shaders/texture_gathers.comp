#version 450
// textureGather on a 2D colour texture (every component), an integer texture, a 2D array and a
// depth texture with comparison, and textureGatherOffset with an offset known only at run time
// (shaderImageGatherExtended) on the colour and integer textures (test_texture_functions.cpp). Invocation i gathers at a point of
// an 8 x 8 grid spread over [-0.59, 1.3]: inside, across the edges and outside the texture,
// never within 3% of a texel of a footprint boundary.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D colour;
layout(set = 0, binding = 1) uniform usampler2D integers;
layout(set = 0, binding = 2) uniform sampler2DArray layers;
layout(set = 0, binding = 3) uniform sampler2DShadow depth;
layout(set = 0, binding = 4, std430) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Reference { float reference; };

void main()
{
   const uint i = gl_GlobalInvocationID.x;
   const vec2 uv = vec2(float(i % 8u) * 0.27 - 0.587, float(i / 8u) * 0.27 - 0.569);
   const uint base = i * 9u;
   const ivec2 offset = ivec2(int(i % 16u) - 8, 7 - int(i % 11u));
   results[base + 0u] = textureGather(colour, uv);
   results[base + 1u] = textureGather(colour, uv, 1);
   results[base + 2u] = textureGather(colour, uv, 2);
   results[base + 3u] = textureGather(colour, uv, 3);
   results[base + 4u] = vec4(textureGather(integers, uv, 1));
   results[base + 5u] = textureGather(layers, vec3(uv, float(i % 3u) + 0.2), 2);
   results[base + 6u] = textureGather(depth, uv, reference);
   results[base + 7u] = textureGatherOffset(colour, uv, offset, 1);
   results[base + 8u] = vec4(textureGatherOffset(integers, uv, offset.yx, 3));
}
