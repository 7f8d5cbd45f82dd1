#version 450
// The position as it is, and the vertex's index (test_draw_packets.cpp).
layout(location = 0) in vec4 position;
layout(location = 0) flat out uint vertex_index;
void main()
{
    gl_Position = position;
    vertex_index = uint(gl_VertexIndex);
}
