#version 450
// Must be refused (the test counts it): explicit gradients with a depth comparison on a cube
// (textureGrad of a samplerCubeShadow) are not compiled yet. (This file held sample-rate
// interpolation, then the SampleMask output, then the stencil reference output, then
// textureGrad of a 2D image, then of a samplerCube; all five compile now.)
layout(set = 0, binding = 0) uniform samplerCubeShadow image;
layout(location = 0) sample in vec4 value;
layout(location = 0) out vec4 colour;
void main()
{
    colour = vec4(textureGrad(image, value, vec3(0.125, 0.0, 0.0), vec3(0.0, 0.125, 0.0)));
}
