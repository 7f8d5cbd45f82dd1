#version 450
// VK_EXT_vertex_attribute_divisor: instance i draws a square in cell i of an 8 x 8 grid (the cell
// from a per-instance attribute of divisor 1, whose element k holds k - firstInstance); red,
// green and blue come from three per-instance attributes whose bindings have the divisors the
// test chooses, so each channel shows which element its divisor picked.
layout(location = 0) in vec2 corner; // per vertex: the square's corner, in pixels of the cell
layout(location = 1) in float cell;  // per instance, divisor 1
layout(location = 2) in float red;   // per instance, divisor A
layout(location = 3) in float green; // per instance, divisor B
layout(location = 4) in float blue;  // per instance, divisor C
layout(location = 0) out vec4 v_colour;
void main()
{
    const float cell_pixels = 8.0, target_pixels = 64.0;
    vec2 origin = vec2(mod(cell, 8.0), floor(cell / 8.0)) * cell_pixels;
    gl_Position = vec4((origin + corner) / (target_pixels / 2.0) - 1.0, 0.0, 1.0);
    v_colour = vec4(red, green, blue, 1.0);
}
