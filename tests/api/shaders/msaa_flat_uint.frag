#version 450
// The triangle's flat colour as integers (x 1000, exact: the colours are multiples of 1/8)
// into an unsigned integer target.
layout(location = 0) flat in vec4 v_colour;
layout(location = 0) out uvec4 out_colour;
void main()
{
    out_colour = uvec4(v_colour * 1000.0) + uvec4(0u, 70000u, 0u, 4000000000u);
}
