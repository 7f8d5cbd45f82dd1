#version 450
// A depth from the pixel position (exact in float: sums of small binary fractions).
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(0.5, 0.25, 0.0, 1.0);
    gl_FragDepth = gl_FragCoord.x / 32.0 + gl_FragCoord.y / 64.0;
}
