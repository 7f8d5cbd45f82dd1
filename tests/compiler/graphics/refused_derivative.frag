#version 450
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(dFdx(v_colour.x), dFdyFine(v_colour.y), 0.0, 1.0);
}
