#version 450
// Must be refused (the test counts it): explicit gradients on a cube (textureGrad of a
// samplerCube) are not compiled yet. (This file held sample-rate interpolation, then the
// SampleMask output, then the stencil reference output, then textureGrad of a 2D image; all
// four compile now.)
layout(set = 0, binding = 0) uniform samplerCube image;
layout(location = 0) sample in vec4 value;
layout(location = 0) out vec4 colour;
void main()
{
    colour = textureGrad(image, value.xyz, vec3(0.125, 0.0, 0.0), vec3(0.0, 0.125, 0.0));
}
