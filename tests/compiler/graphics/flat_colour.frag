#version 450
layout(location = 2) flat in vec4 v_colour;
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(0.0, v_colour.y, v_colour.z, 1.0);
}
