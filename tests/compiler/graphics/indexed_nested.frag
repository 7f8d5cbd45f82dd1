#version 450
// Run-time indices into input structs holding arrays and input arrays of arrays, directly and
// through interpolateAtOffset and interpolateAtCentroid (indexed_nested.vert).
struct S { vec4 a; vec2 b[3]; };
layout(location = 0) in S s[2];
layout(location = 8) flat in ivec2 k;
layout(location = 9) in vec4 m[2][3];
layout(location = 0) out vec4 out_colour;
void main()
{
    int x = int(gl_FragCoord.x) % 2, y = int(gl_FragCoord.y) % 3;
    vec4 sum = s[x].a * 0.5 + vec4(s[k.x].b[y], interpolateAtOffset(s[y % 2].b[k.y], vec2(0.125, -0.25)).x, 0.0) * 0.25
             + m[x][y] * 0.25 + interpolateAtCentroid(m[1][k.y]) * 0.125;
    out_colour = clamp(sum, 0.0, 1.0);
}
