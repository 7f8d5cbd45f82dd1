#version 450
// Two triangles over the whole target from a position attribute, nothing else.
layout(location = 0) in vec4 position;
void main()
{
    gl_Position = position;
}
