#version 450
// Explicit gradients on a cube (textureGrad of a samplerCube, SAMPLE_G) are not compiled yet;
// on 2D images they are.
layout(set = 0, binding = 0) uniform samplerCube image;
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = textureGrad(image, v_colour.xyz, vec3(0.125, 0.0, 0.0), vec3(0.0, 0.125, 0.0));
}
