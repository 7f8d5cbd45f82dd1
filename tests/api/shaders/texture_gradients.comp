#version 450
// textureGrad in a compute shader (test_texture_functions.cpp): invocation i samples a 32 x 32
// texture of six one-colour levels with the gradients of row i of the push constants' table,
// and a 3-layer array of the same levels; the level chosen shows in the colour.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D levels;
layout(set = 0, binding = 1) uniform sampler2DArray layers;
layout(set = 0, binding = 2) uniform sampler2DShadow depth;
layout(set = 0, binding = 4, std430) writeonly buffer Results { vec4 results[]; };
layout(set = 0, binding = 3, std430) readonly buffer Gradients { vec4 gradients[]; };

void main()
{
   const uint i = gl_GlobalInvocationID.x;
   const vec4 g = gradients[i];
   const vec2 uv = vec2(0.3 + 0.01 * float(i), 0.6);
   results[i * 3u + 0u] = textureGrad(levels, uv, g.xy, g.zw);
   results[i * 3u + 1u] = textureGrad(layers, vec3(uv, float(i % 3u)), g.xy, g.zw);
   results[i * 3u + 2u] = vec4(textureGrad(depth, vec3(uv, 0.5), g.xy, g.zw));
}
