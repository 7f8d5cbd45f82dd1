#version 450
#extension GL_EXT_terminate_invocation : require
// Half the pixels leave an endless loop only through terminateInvocation: a KILL alone
// would leave them looping beside the quad's other pixels.
layout(location = 0) out vec4 out_colour;
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    bool keep = ((p.x + p.y) & 1) == 0;
    int i = 0;
    while (true) {
        i++;
        if (!keep && i >= 1 + (p.x & 3))
            terminateInvocation;
        if (keep && i >= 2 + (p.y & 3))
            break;
    }
    out_colour = vec4(float(i) / 8.0, 0.5, 0.25, 1.0);
}
