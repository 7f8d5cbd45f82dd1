#version 450
// Derivatives after a discard of every other pixel: the discarded pixels' values must still
// be there for their neighbours' differences (they go on as helper invocations).
layout(location = 0) out vec4 out_colour;
void main()
{
    if (((int(gl_FragCoord.x) + int(gl_FragCoord.y)) & 1) != 0)
        discard;
    float product = gl_FragCoord.x * gl_FragCoord.y / 256.0;
    out_colour = vec4(0.5 + 8.0 * dFdxFine(product), 0.5 + 8.0 * dFdyFine(product),
                      0.5 + 8.0 * dFdyCoarse(gl_FragCoord.x / 16.0), 1.0);
}
