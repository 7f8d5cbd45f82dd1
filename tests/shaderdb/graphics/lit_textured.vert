#version 450
// Static mesh with a normal map: model and view-projection matrices, tangent frame out.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 tangent;
layout(location = 3) in vec2 uv;
layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; vec4 eye; } camera;
layout(set = 0, binding = 1) uniform Object { mat4 model; mat4 normal_matrix; vec4 uv_scale_offset; } object;
layout(location = 0) out vec3 world_position;
layout(location = 1) out vec3 world_normal;
layout(location = 2) out vec3 world_tangent;
layout(location = 3) out vec3 world_bitangent;
layout(location = 4) out vec2 out_uv;
void main() {
   vec4 world = object.model * vec4(position, 1.0);
   world_position = world.xyz;
   world_normal = normalize(mat3(object.normal_matrix) * normal);
   world_tangent = normalize(mat3(object.model) * tangent.xyz);
   world_bitangent = cross(world_normal, world_tangent) * tangent.w;
   out_uv = uv * object.uv_scale_offset.xy + object.uv_scale_offset.zw;
   gl_Position = camera.view_projection * world;
}
