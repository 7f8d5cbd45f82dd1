#version 450
// Reads the stencil aspect of a depth/stencil image (api-sampled-depth): the 8-bit value at
// this pixel (texelFetch of an unsigned-integer view), written out as value / 255 in r, the
// view's other components (0, 0, 1) in g, b, a.
layout(set = 0, binding = 0) uniform usampler2D stencil;
layout(location = 0) out vec4 colour;
void main()
{
    uvec4 s = texelFetch(stencil, ivec2(gl_FragCoord.xy), 0);
    colour = vec4(s) / vec4(255.0, 1.0, 1.0, 1.0);
}
