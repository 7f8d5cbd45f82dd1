#version 450
// Unsigned integers from the pixel's position, small enough for every unsigned target format
// (A2B10G10R10's 2-bit alpha included), the same on every rasterizer.
layout(location = 0) out uvec4 out_value;
void main()
{
    uvec2 p = uvec2(gl_FragCoord.xy);
    out_value = uvec4(p.x, p.y, (p.x * p.y) % 61u, (p.x + p.y) % 4u);
}
