#version 450
// A pattern from the pixel position and the facing.
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(gl_FragCoord.x / 16.0, gl_FragCoord.y / 16.0, gl_FrontFacing ? 1.0 : 0.25,
                      gl_FragCoord.z);
}
