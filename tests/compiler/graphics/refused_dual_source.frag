#version 450
layout(location = 0, index = 0) out vec4 out_colour;
layout(location = 0, index = 1) out vec4 out_blend;
void main()
{
    out_colour = vec4(1.0);
    out_blend = vec4(0.5);
}
