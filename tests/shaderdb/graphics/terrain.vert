#version 450
// Terrain patch: heights and normals from attributes, world-space texture coordinates, fog.
layout(location = 0) in vec2 grid;
layout(location = 1) in float height;
layout(location = 2) in vec3 normal;
layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; vec4 eye; } camera;
layout(set = 0, binding = 1) uniform Patch { vec4 origin_scale; vec4 fog; } patch_data;
layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 detail_uv;
layout(location = 2) out float fog_factor;
layout(location = 3) out float out_height;
void main() {
   vec3 world = vec3(patch_data.origin_scale.x + grid.x * patch_data.origin_scale.z, height,
                     patch_data.origin_scale.y + grid.y * patch_data.origin_scale.z);
   out_normal = normal;
   detail_uv = world.xz * 0.125;
   float distance = length(world - camera.eye.xyz);
   fog_factor = clamp((patch_data.fog.y - distance) / (patch_data.fog.y - patch_data.fog.x), 0.0, 1.0);
   out_height = height;
   gl_Position = camera.view_projection * vec4(world, 1.0);
}
