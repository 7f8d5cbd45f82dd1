#version 450
// Shadow map read with a 2x2 percentage-closer filter done by hand (four depth samples).
layout(location = 0) in vec3 world_normal;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 light_position;
layout(set = 0, binding = 2) uniform sampler2D albedo;
layout(set = 0, binding = 3) uniform sampler2D shadow_map;
layout(set = 0, binding = 4) uniform Sun { vec4 direction; vec4 colour; vec4 ambient; vec4 texel_bias; } sun;
layout(location = 0) out vec4 colour;
void main() {
   vec3 p = light_position.xyz / light_position.w;
   vec2 st = p.xy * 0.5 + 0.5;
   float reference = p.z - sun.texel_bias.z;
   float lit = 0.0;
   for (int y = 0; y < 2; y++)
      for (int x = 0; x < 2; x++)
         lit += texture(shadow_map, st + vec2(x, y) * sun.texel_bias.xy).r >= reference ? 0.25 : 0.0;
   float diffuse = max(dot(normalize(world_normal), -sun.direction.xyz), 0.0) * lit;
   vec4 base = texture(albedo, uv);
   colour = vec4(base.rgb * (sun.ambient.rgb + sun.colour.rgb * diffuse), base.a);
}
