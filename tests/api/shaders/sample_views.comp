#version 450
// Dimensions, levels and texel loads: 1D, 2D array, 3D and a mipmapped 2D image sampled at
// explicit levels of detail, texelFetch and textureSize.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform sampler1D line;
layout(set = 0, binding = 2) uniform sampler2DArray layers;
layout(set = 0, binding = 3) uniform sampler3D volume;
layout(set = 0, binding = 4) uniform sampler2D mips;
layout(push_constant) uniform P { vec2 scale; vec2 offset; float lod; };
uvec4 bytes(vec4 v) { return uvec4(round(v * 255.0)); }
void main()
{
   uvec2 id = gl_GlobalInvocationID.xy;
   vec2 c = vec2(id) * scale + offset;
   uint base = (id.y * 8u + id.x) * 9u;
   o[base + 0u] = bytes(textureLod(line, c.x, 0.0));
   o[base + 1u] = bytes(textureLod(layers, vec3(c, float(id.x % 4u) + 0.4), 0.0));
   o[base + 2u] = bytes(textureLod(volume, vec3(c, c.x * 0.7), 0.0));
   o[base + 3u] = bytes(textureLod(mips, c, lod + float(id.y) * 0.6));
   o[base + 4u] = bytes(texelFetch(mips, ivec2(id) >> ivec2(id.y % 3u), int(id.y % 3u)));
   // Size queries at dynamically uniform levels: lavapipe answers a level that varies per
   // invocation with the first invocation's (seen when this test varied it).
   o[base + 5u] = uvec4(textureSize(mips, 1), textureSize(mips, 3));
   o[base + 6u] = uvec4(textureSize(volume, 0), textureSize(line, 1));
   o[base + 7u] = bytes(texelFetch(layers, ivec3(id.x, id.y, id.x % 4u), 0));
   o[base + 8u] = uvec4(textureSize(layers, 0), textureQueryLevels(mips));
}
