#version 450
// 31 varyings and a clip and a cull distance: with the distances as parameters (a fragment
// shader that reads them) 33 parameters, one more than the SPI takes.
layout(location = 0) in vec4 position;
layout(location = 0) out vec4 v[31];
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[1];
    float gl_CullDistance[1];
};
void main()
{
    gl_Position = position;
    for (int i = 0; i < 31; i++)
        v[i] = position * float(i);
    gl_ClipDistance[0] = position.x;
    gl_CullDistance[0] = position.y;
}
