#version 450
// An input array read and an output array written with indices known only at run time
// (gl_VertexIndex % 4 and its low bit), after every output element got a value.
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 extra[2];
layout(location = 0) out vec4 v[4];
void main()
{
    gl_Position = position;
    for (int i = 0; i < 4; i++)
        v[i] = vec4(0.125 * float(i), 0.75 - 0.125 * float(i), 0.5, 0.25 + 0.125 * float(i));
    int k = gl_VertexIndex % 4;
    v[k] = vec4(extra[k & 1], 0.125 * float(k), 1.0);
}
