#version 450
#extension GL_EXT_multiview : require
// The interpolated colour with the view's index in blue (the pixel shader's ViewIndex).
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(v_colour.rg, 0.25 * float(gl_ViewIndex), v_colour.a);
}
