#version 450
// gl_HelperInvocation over a triangle whose edges cut quads. Helpers write nothing, so their
// flag reaches the target through the quad's fine differences: 0.5 where the row (column)
// neighbour is a valid pixel too, 1.0 or 0.0 where it is a helper.
layout(location = 0) out vec4 out_colour;
void main()
{
    float h = gl_HelperInvocation ? 1.0 : 0.0;
    out_colour = vec4(0.5 + 0.5 * dFdxFine(h), 0.5 + 0.5 * dFdyFine(h), 1.0 - h, 1.0);
}
