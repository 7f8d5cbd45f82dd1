#version 450
// A position and a colour per vertex, the colour flat (the multisampled sampling scenes: each
// triangle's samples hold exactly its colour, whatever the drivers' interpolation).
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 colour;
layout(location = 0) flat out vec4 v_colour;
void main()
{
    gl_Position = position;
    v_colour = colour;
}
