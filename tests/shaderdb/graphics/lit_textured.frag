#version 450
// Blinn-Phong with four point lights, albedo, normal and specular maps.
layout(location = 0) in vec3 world_position;
layout(location = 1) in vec3 world_normal;
layout(location = 2) in vec3 world_tangent;
layout(location = 3) in vec3 world_bitangent;
layout(location = 4) in vec2 uv;
struct PointLight { vec4 position_radius; vec4 colour; };
layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; vec4 eye; } camera;
layout(set = 0, binding = 2) uniform Lights { PointLight light[4]; vec4 ambient; } lights;
layout(set = 0, binding = 3) uniform sampler2D albedo_map;
layout(set = 0, binding = 4) uniform sampler2D normal_map;
layout(set = 0, binding = 5) uniform sampler2D specular_map;
layout(location = 0) out vec4 colour;
void main() {
   vec3 t = normalize(world_tangent), b = normalize(world_bitangent), n = normalize(world_normal);
   vec3 tangent_normal = texture(normal_map, uv).xyz * 2.0 - 1.0;
   vec3 normal = normalize(mat3(t, b, n) * tangent_normal);
   vec4 albedo = texture(albedo_map, uv);
   float gloss = texture(specular_map, uv).r;
   vec3 view = normalize(camera.eye.xyz - world_position);
   vec3 lit = lights.ambient.rgb * albedo.rgb;
   for (int i = 0; i < 4; i++) {
      vec3 to_light = lights.light[i].position_radius.xyz - world_position;
      float distance = length(to_light);
      vec3 l = to_light / distance;
      float attenuation = clamp(1.0 - distance / lights.light[i].position_radius.w, 0.0, 1.0);
      attenuation *= attenuation;
      float diffuse = max(dot(normal, l), 0.0);
      float specular = pow(max(dot(normal, normalize(l + view)), 0.0), 32.0) * gloss;
      lit += (albedo.rgb * diffuse + specular) * lights.light[i].colour.rgb * attenuation;
   }
   colour = vec4(lit, albedo.a);
}
