#version 450
// Signed integers from the pixel's position, negative and positive, small enough for every
// signed target format, the same on every rasterizer.
layout(location = 0) out ivec4 out_value;
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    out_value = ivec4(p.x - 16, 15 - p.y, (p.x * p.y) % 61 - 30, (p.x + p.y) % 2 - 1);
}
