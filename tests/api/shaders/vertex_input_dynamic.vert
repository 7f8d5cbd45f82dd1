#version 450
// VK_EXT_vertex_input_dynamic_state: instance i draws a square (corners in pixels of its cell)
// in the cell of an 8 x 8 grid its per-instance `cell` attribute names, in its `colour`. Which
// bindings, formats, offsets, strides, rates and divisors feed the three locations is set by
// vkCmdSetVertexInputEXT before each draw (test_vertex_input_dynamic.cpp).
layout(location = 0) in vec2 corner;
layout(location = 1) in float cell;
layout(location = 2) in vec4 colour;
layout(location = 0) out vec4 v_colour;
void main()
{
    const float cell_pixels = 8.0, target_pixels = 64.0;
    vec2 origin = vec2(mod(cell, 8.0), floor(cell / 8.0)) * cell_pixels;
    gl_Position = vec4((origin + corner) / (target_pixels / 2.0) - 1.0, 0.0, 1.0);
    v_colour = colour;
}
