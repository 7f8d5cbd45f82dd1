#version 450
// Skinned mesh: one directional light, albedo texture, rim term.
layout(location = 0) in vec3 world_normal;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec3 world_position;
layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; vec4 eye; } camera;
layout(set = 0, binding = 2) uniform Light { vec4 direction; vec4 colour; vec4 ambient; } light;
layout(set = 0, binding = 3) uniform sampler2D albedo;
layout(location = 0) out vec4 colour;
void main() {
   vec3 n = normalize(world_normal);
   vec3 v = normalize(camera.eye.xyz - world_position);
   float diffuse = max(dot(n, -light.direction.xyz), 0.0);
   float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0);
   vec4 base = texture(albedo, uv);
   colour = vec4(base.rgb * (light.ambient.rgb + light.colour.rgb * diffuse) + rim * 0.25, base.a);
}
