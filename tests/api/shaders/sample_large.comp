#version 450
// A 256x256 image with all its levels (2D tiled where the levels are big enough, 1D tiled
// below): texel loads spread over every level and nearest samples at several levels of detail.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D big;
uvec4 bytes(vec4 v) { return uvec4(round(v * 255.0)); }
void main()
{
   uvec2 id = gl_GlobalInvocationID.xy;
   uint base = (id.y * 8u + id.x) * 12u;
   for (int level = 0; level < 9; level++) {
      int size = 256 >> level;
      ivec2 p = ivec2((id * uvec2(37u, 53u) + uvec2(id.y * 11u, id.x * 7u)) % uint(size));
      o[base + uint(level)] = bytes(texelFetch(big, p, level));
   }
   vec2 c = (vec2(id) * 31.0 + 0.5) / 256.0;
   o[base + 9u] = bytes(textureLod(big, c, 0.0));
   o[base + 10u] = bytes(textureLod(big, c.yx, 2.0));
   o[base + 11u] = bytes(textureLod(big, c, 5.0));
}
