#version 450
// Run-time indices into a vertex-input array and into output structs holding arrays and
// output arrays of arrays (indexed_nested.frag reads them back the same way).
struct S { vec4 a; vec2 b[3]; };
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 offsets[3];
layout(location = 0) out S s[2];
layout(location = 8) flat out ivec2 k;
layout(location = 9) out vec4 m[2][3];
void main()
{
    int i = gl_VertexIndex % 2, j = gl_VertexIndex % 3;
    gl_Position = position;
    vec4 shifted = position * 0.25 + offsets[j];
    s[0] = S(vec4(0.1), vec2[3](vec2(0.2), vec2(0.3), vec2(0.4)));
    s[1] = S(vec4(0.5), vec2[3](vec2(0.6), vec2(0.7), vec2(0.8)));
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 3; y++)
            m[x][y] = vec4(0.05 * float(x * 3 + y));
    s[i].a = shifted;
    s[i].b[j] = shifted.yx;
    s[1 - i].b[2 - j].y = 0.9;
    m[i][j] = shifted.wzyx;
    k = ivec2(i, j);
}
