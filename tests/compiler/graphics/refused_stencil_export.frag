#version 450
#extension GL_ARB_shader_stencil_export : require
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(1.0);
    gl_FragStencilRefARB = 3;
}
