#version 450
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(gl_HelperInvocation ? 1.0 : 0.0);
}
