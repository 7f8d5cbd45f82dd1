#version 450
// clip_read.vert with three clip distances: in NIR's combined array the cull distances start
// at element 3, inside the first vector (cull_read.frag reads them).
layout(location = 0) in vec4 position;
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[3];
    float gl_CullDistance[2];
};
void main()
{
    gl_Position = position;
    gl_ClipDistance[0] = (position.x + 1.0) * 0.25 + 0.0625;
    gl_ClipDistance[1] = 0.75 - position.y;
    gl_ClipDistance[2] = position.y * 0.25 + 0.5;
    gl_CullDistance[0] = 0.5 - position.x * 0.125;
    gl_CullDistance[1] = (position.x + position.y) * 0.125 + 0.25;
}
