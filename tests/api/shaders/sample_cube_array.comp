#version 450
// A cube array of two cubes sampled along directions on every face (texel centres, nearest and
// linear), in each cube and at layer coordinates that round or clamp to one (-0.7, 0.4, 1.4,
// 5.0), its level count and its size (textureSize's z counts cubes).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform samplerCubeArray nearest;
layout(set = 0, binding = 2) uniform samplerCubeArray linear;
uvec4 bytes(vec4 v) { return uvec4(round(v * 255.0)); }
vec3 direction(uint i, float a, float b)
{
   uint axis = i % 3u;
   float major = (i / 3u) % 2u == 0u ? 2.0 : -2.0;
   return axis == 0u ? vec3(major, a, b) : axis == 1u ? vec3(a, major, b) : vec3(a, b, major);
}
void main()
{
   uint i = gl_GlobalInvocationID.x;
   vec3 centre = direction(i, float((i / 6u) % 4u) - 1.5, float((i / 24u) % 3u) - 0.5);
   const float layers[6] = float[](0.0, 1.0, -0.7, 0.4, 1.4, 5.0);
   for (uint l = 0u; l < 6u; l++) {
      o[i * 8u + l] = bytes(textureLod(nearest, vec4(centre, layers[l]), 0.0));
   }
   o[i * 8u + 6u] = bytes(textureLod(linear, vec4(centre, float(i % 2u)), 0.0));
   o[i * 8u + 7u] = uvec4(textureQueryLevels(linear), textureSize(linear, 0));
}
