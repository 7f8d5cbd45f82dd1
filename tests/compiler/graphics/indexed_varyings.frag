#version 450
// An input array read with indices known only at run time, directly and through
// interpolateAtOffset and interpolateAtCentroid (indexed_varyings.vert).
layout(location = 0) in vec4 v[4];
layout(location = 0) out vec4 out_colour;
void main()
{
    int i = int(gl_FragCoord.x) % 4;
    int j = int(gl_FragCoord.y) % 4;
    out_colour = vec4(v[i].x, interpolateAtOffset(v[j], vec2(0.25, -0.125)).y,
                      interpolateAtCentroid(v[(i + j) % 4]).z, v[j].w);
}
