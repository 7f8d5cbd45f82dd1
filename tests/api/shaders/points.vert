#version 450
// coloured.vert for point lists: the point size must be written (Vulkan), and 1 is drawn.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 colour;
layout(location = 0) out vec4 v_colour;
void main()
{
    gl_Position = position;
    gl_PointSize = 1.0;
    v_colour = colour;
}
