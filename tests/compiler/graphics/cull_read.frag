#version 450
// Reads only the cull distances: the vertex shader (clip_read_three.vert) has three clip
// distances before them, which this stage does not declare.
in float gl_CullDistance[2];
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(gl_CullDistance[0], gl_CullDistance[1], 0.0, 1.0);
}
