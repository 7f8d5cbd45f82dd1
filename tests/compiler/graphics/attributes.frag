#version 450
layout(location = 0) flat in vec4 v_colour;
layout(location = 1) flat in uvec4 v_integers;
layout(location = 2) flat in vec4 v_floats;
layout(location = 0) out vec4 out_colour;
layout(location = 1) out vec4 out_integers;
layout(location = 2) out vec4 out_floats;
void main()
{
    out_colour = v_colour;
    out_integers = vec4(v_integers) / 255.0;
    out_floats = v_floats;
}
