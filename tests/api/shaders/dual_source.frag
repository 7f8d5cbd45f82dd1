#version 450
// Dual-source blending: the colour (Index 0) and a second colour (Index 1) the blend factors
// SRC1_* read, both at location 0.
layout(location = 0) in vec4 v_colour;
layout(location = 0, index = 0) out vec4 colour;
layout(location = 0, index = 1) out vec4 factor;
void main()
{
    colour = v_colour;
    factor = vec4(v_colour.a, 1.0 - v_colour.r, 0.5, 0.25);
}
