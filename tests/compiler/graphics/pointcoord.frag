#version 450
// The sprite coordinate: (0, 0) at the point's upper left corner, (1, 1) at its lower right.
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(gl_PointCoord, 0.25, 1.0);
}
