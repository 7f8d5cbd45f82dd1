#version 450
// Terrain: three layers blended by slope and height, one sun, linear fog.
layout(location = 0) in vec3 normal;
layout(location = 1) in vec2 uv;
layout(location = 2) in float fog_factor;
layout(location = 3) in float height;
layout(set = 0, binding = 2) uniform sampler2D grass;
layout(set = 0, binding = 3) uniform sampler2D rock;
layout(set = 0, binding = 4) uniform sampler2D snow;
layout(set = 0, binding = 5) uniform Sun { vec4 direction; vec4 colour; vec4 fog_colour; vec4 snow_line; } sun;
layout(location = 0) out vec4 colour;
void main() {
   vec3 n = normalize(normal);
   float slope = 1.0 - n.y;
   float rock_weight = smoothstep(0.3, 0.6, slope);
   float snow_weight = smoothstep(sun.snow_line.x, sun.snow_line.y, height) * (1.0 - rock_weight);
   float grass_weight = max(1.0 - rock_weight - snow_weight, 0.0);
   vec3 albedo = texture(grass, uv).rgb * grass_weight + texture(rock, uv * 0.5).rgb * rock_weight +
                 texture(snow, uv).rgb * snow_weight;
   float light = max(dot(n, -sun.direction.xyz), 0.0) * 0.8 + 0.2;
   colour = vec4(mix(sun.fog_colour.rgb, albedo * light * sun.colour.rgb, fog_factor), 1.0);
}
