#version 450
// Derivatives of a perspective-correct input, a screen-linear (noperspective) input and values
// made from gl_FragCoord: fine, coarse, plain and fwidth. Each difference d is shown as
// 0.5 + 8 d in an 8-bit channel. Coarse forms read only screen-linear values, whose
// differences are the same in every row and column of a quad (Vulkan lets an implementation
// use either row for a coarse derivative).
layout(location = 0) smooth in vec4 v_smooth;
layout(location = 3) noperspective in vec4 v_linear;
layout(location = 0) out vec4 out_fine;
layout(location = 1) out vec4 out_coarse;
layout(location = 2) out vec4 out_width;
void main()
{
    float product = gl_FragCoord.x * gl_FragCoord.y / 256.0;
    out_fine = vec4(0.5) + 8.0 * vec4(dFdxFine(v_smooth.x), dFdyFine(v_smooth.y), dFdxFine(product),
                                      dFdyFine(product));
    out_coarse = vec4(0.5 + 8.0 * dFdxCoarse(v_linear.x), 0.5 + 8.0 * dFdyCoarse(v_linear.y),
                      0.5 + 8.0 * dFdx(v_linear.z),
                      0.25 * dFdxCoarse(gl_FragCoord.x) + 0.5 * dFdy(gl_FragCoord.y));
    out_width = vec4(8.0 * fwidthFine(v_smooth.xy), 8.0 * fwidth(v_linear.z), 4.0 * fwidthFine(product));
}
