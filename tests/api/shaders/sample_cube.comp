#version 450
// A cube image sampled along directions on every face: at texel centres (nearest and linear)
// and half way between texels (linear), away from the face edges; and its size.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform samplerCube nearest;
layout(set = 0, binding = 2) uniform samplerCube linear;
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
   // minor components over the major 2: +-0.25 and +-0.75 land on texel centres of a 4x4 face,
   // 0 and +-0.5 half way between texels
   vec3 centre = direction(i, float((i / 6u) % 4u) - 1.5, float((i / 24u) % 3u) - 0.5);
   vec3 between = direction(i, float((i / 6u) % 3u) - 1.0, float((i / 18u) % 3u) - 1.0);
   o[i * 4u + 0u] = bytes(textureLod(nearest, centre, 0.0));
   o[i * 4u + 1u] = bytes(textureLod(linear, centre, 0.0));
   o[i * 4u + 2u] = bytes(textureLod(linear, between, 0.0));
   o[i * 4u + 3u] = uvec4(textureSize(linear, 0), textureQueryLevels(linear), 0);
}
