#version 450
// Reads the clip distances, one of them through an index known only at run time, and a cull
// distance (clip_read.vert).
in float gl_ClipDistance[4];
in float gl_CullDistance[2];
layout(location = 0) out vec4 out_colour;
void main()
{
    int row = int(gl_FragCoord.y) % 4;
    out_colour = vec4(gl_ClipDistance[0], gl_ClipDistance[2], gl_CullDistance[1], gl_ClipDistance[row] * 0.5);
}
