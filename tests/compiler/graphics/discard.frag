#version 450
// A checkerboard: odd pixels are discarded inside a branch, even ones get a colour.
layout(location = 0) out vec4 out_colour;
void main()
{
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    if (((pixel.x + pixel.y) & 1) != 0)
        discard;
    out_colour = vec4(1.0, 0.5, float(pixel.x) / 16.0, 1.0);
}
