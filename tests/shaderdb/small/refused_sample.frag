#version 450
// Must be refused (the test counts it): explicit gradients (textureGrad, SAMPLE_G) are not
// compiled yet. (This file held sample-rate interpolation, then the SampleMask output, then the
// stencil reference output; all three compile now.)
layout(set = 0, binding = 0) uniform sampler2D image;
layout(location = 0) sample in vec4 value;
layout(location = 0) out vec4 colour;
void main()
{
    colour = textureGrad(image, value.xy, vec2(0.125, 0.0), vec2(0.0, 0.125));
}
