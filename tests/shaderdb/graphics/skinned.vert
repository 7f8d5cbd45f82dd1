#version 450
// Skinned mesh: four bones per vertex from a uniform-buffer palette, view-projection, normal out.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 3) in uvec4 bones;
layout(location = 4) in vec4 weights;
layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; vec4 eye; } camera;
layout(set = 0, binding = 1) uniform Palette { mat4 bone[64]; } palette;
layout(location = 0) out vec3 world_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec3 world_position;
void main() {
   mat4 skin = palette.bone[bones.x] * weights.x + palette.bone[bones.y] * weights.y +
               palette.bone[bones.z] * weights.z + palette.bone[bones.w] * weights.w;
   vec4 world = skin * vec4(position, 1.0);
   world_position = world.xyz;
   world_normal = normalize(mat3(skin) * normal);
   out_uv = uv;
   gl_Position = camera.view_projection * world;
}
