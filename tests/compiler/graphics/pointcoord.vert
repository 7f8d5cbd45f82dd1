#version 450
// Points 4 pixels wide from a position attribute.
layout(location = 0) in vec4 position;
void main()
{
    gl_Position = position;
    gl_PointSize = 4.0;
}
