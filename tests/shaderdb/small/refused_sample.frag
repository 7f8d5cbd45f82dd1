#version 450
// Must be refused (the test counts it): the stencil reference output (a stencil export) is not
// supported yet. (This file held sample-rate interpolation, then the SampleMask output; both
// compile now.)
#extension GL_ARB_shader_stencil_export : require
layout(location = 0) sample in vec4 value;
layout(location = 0) out vec4 colour;
void main()
{
    colour = value;
    gl_FragStencilRefARB = 3;
}
