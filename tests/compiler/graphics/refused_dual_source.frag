#version 450
// Dual-source blending reads the second colour at location 0 only (Vulkan's rule, and the
// CB's: PIXEL 1 is target 0's second source); Index 1 at location 1 is refused.
layout(location = 0, index = 0) out vec4 out_colour;
layout(location = 1, index = 1) out vec4 out_blend;
void main()
{
    out_colour = vec4(1.0);
    out_blend = vec4(0.5);
}
