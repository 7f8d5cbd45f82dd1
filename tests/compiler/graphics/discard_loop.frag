#version 450
// discard (OpKill) before a loop that only the kept pixels can leave, and inside a loop that
// the discarded ones would never leave otherwise.
layout(location = 0) out vec4 out_colour;
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    bool keep = ((p.x + p.y) & 1) == 0;
    if (!keep && p.y < 8)
        discard;
    int i = 0;
    while (true) {
        i++;
        if (!keep && i >= 1 + (p.x & 3))
            discard;
        if (keep && i >= 2 + (p.y & 3))
            break;
    }
    out_colour = vec4(float(i) / 8.0, 0.5, 0.75, 1.0);
}
