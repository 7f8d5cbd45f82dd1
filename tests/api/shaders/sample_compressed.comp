#version 450
// A 16x16 block-compressed image with 5 levels (16, 8, 4 texels: whole blocks; 2 and 1: one
// partly used block each): every texel of every level fetched, and filtered samples at three
// levels of detail, each value as round(v * scale) + 2^20 (scale: a specialization constant,
// 4096 for normalized formats, 64 for BC6H's half floats).
layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const float scale = 4096.0;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D image;
uvec4 scaled(vec4 v) { return uvec4(ivec4(round(v * scale)) + (1 << 20)); }
void main()
{
   ivec2 p = ivec2(gl_GlobalInvocationID.xy);
   uint base = (gl_GlobalInvocationID.y * 16u + gl_GlobalInvocationID.x) * 8u;
   for (int level = 0; level < 5; level++) {
      int size = 16 >> level;
      o[base + uint(level)] = scaled(texelFetch(image, p % size, level));
   }
   vec2 c = (vec2(p) + vec2(0.25, 0.75)) / 16.0;
   o[base + 5u] = scaled(textureLod(image, c, 0.0));
   o[base + 6u] = scaled(textureLod(image, c.yx, 1.0));
   o[base + 7u] = scaled(textureLod(image, c, 2.5));
}
