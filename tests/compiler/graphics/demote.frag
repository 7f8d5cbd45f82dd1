#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// A checkerboard demoted: the demoted pixels go on as helpers, so the survivors' fine
// differences read them, and helperInvocationEXT() is true on them from the demote on.
layout(location = 0) out vec4 out_colour;
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    float before = helperInvocationEXT() ? 1.0 : 0.0;
    if (((p.x + p.y) & 1) != 0)
        demote;
    float product = gl_FragCoord.x * gl_FragCoord.y / 256.0;
    float h = helperInvocationEXT() ? 1.0 : 0.0;
    out_colour = vec4(0.5 + 8.0 * dFdxFine(product), 0.5 + 8.0 * dFdyFine(product), 0.5 + 0.5 * dFdxFine(h),
                      1.0 - h - 0.5 * before);
}
