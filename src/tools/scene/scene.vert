#version 450
// terakan-scene's vertex shader: world-space positions (the CPU placed every object) through
// the camera's view-projection matrix; the normal, texture coordinates and colour pass on.
layout(set = 0, binding = 0) uniform Frame {
    mat4 view_projection;
    vec4 light_direction; // towards the light, unit length
    vec4 ambient;         // rgb: ambient light; w: ramp texels - 1
} frame;

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in vec4 a_colour; // rgb: albedo; a: how much of the texture shows

layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;
layout(location = 2) out vec4 v_colour;

void main()
{
    v_normal = a_normal;
    v_uv = a_uv;
    v_colour = a_colour;
    gl_Position = frame.view_projection * vec4(a_position, 1.0);
}
