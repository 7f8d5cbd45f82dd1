#version 450
// Mesh lit by a shadowed sun: world position into light space as well.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; vec4 eye; } camera;
layout(set = 0, binding = 1) uniform Object { mat4 model; mat4 light_view_projection; } object;
layout(location = 0) out vec3 world_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec4 light_position;
void main() {
   vec4 world = object.model * vec4(position, 1.0);
   world_normal = mat3(object.model) * normal;
   out_uv = uv;
   light_position = object.light_view_projection * world;
   gl_Position = camera.view_projection * world;
}
