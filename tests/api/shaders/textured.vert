#version 450
// Texture coordinates from an attribute, a scale from a uniform buffer, an offset from the
// push constants (descriptors and push constants in a vertex shader).
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 colour;
layout(location = 0) out vec4 v_colour;
layout(location = 1) out vec2 v_uv;
layout(set = 0, binding = 0) uniform Parameters {
    vec4 tint;
    vec2 uv_scale;
} parameters;
layout(push_constant) uniform Push {
    vec2 uv_offset;
    float brightness;
} push;
void main()
{
    gl_Position = position;
    v_colour = colour;
    v_uv = colour.xy * parameters.uv_scale + push.uv_offset;
}
