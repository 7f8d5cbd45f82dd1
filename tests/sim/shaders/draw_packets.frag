#version 450
// The provoking vertex's index in red, 1 in alpha (test_draw_packets.cpp).
layout(location = 0) flat in uint vertex_index;
layout(location = 0) out vec4 colour;
void main()
{
    colour = vec4(float(vertex_index), 0.0, 0.0, 1.0);
}
