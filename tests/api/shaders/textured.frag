#version 450
// A sampled texture times the uniform buffer's tint and the push constant's brightness
// (descriptors and push constants in a pixel shader).
layout(location = 0) in vec4 v_colour;
layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 out_colour;
layout(set = 0, binding = 0) uniform Parameters {
    vec4 tint;
    vec2 uv_scale;
} parameters;
layout(set = 0, binding = 1) uniform sampler2D image;
layout(push_constant) uniform Push {
    vec2 uv_offset;
    float brightness;
} push;
void main()
{
    out_colour = textureLod(image, v_uv, 0.0) * parameters.tint * push.brightness;
}
