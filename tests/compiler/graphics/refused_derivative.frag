#version 450
// Explicit gradients (textureGrad, SAMPLE_G) are not compiled yet.
layout(set = 0, binding = 0) uniform sampler2D image;
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = textureGrad(image, v_colour.xy, vec2(0.125, 0.0), vec2(0.0, 0.125));
}
