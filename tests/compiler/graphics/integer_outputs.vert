#version 450
// Flat varyings as a struct (locations 0-1) and an array (locations 2-3), integer and float.
layout(location = 0) in vec4 position;
struct Pair {
    uvec2 u;
    ivec2 i;
};
layout(location = 0) flat out Pair pair;
layout(location = 2) flat out vec4 values[2];
void main()
{
    gl_Position = position;
    int v = gl_VertexIndex;
    pair.u = uvec2(uint(v) * 3u + 1u, 0xfffffff0u + uint(v));
    pair.i = ivec2(-v - 7, v * 100000);
    values[0] = vec4(float(v), -float(v), 0.5, 2.0);
    values[1] = vec4(1.0e6, -3.5, float(v) * 0.25, 0.0);
}
