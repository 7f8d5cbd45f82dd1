#version 450
// terakan-bench-draw's vertex shader: a position and a colour per vertex, the position moved
// by a push constant (so that the push constants changed between draws are read).
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 colour;
layout(location = 0) out vec4 v_colour;
layout(push_constant) uniform Push {
    vec4 offset;
} push;
void main()
{
    gl_Position = position + push.offset;
    v_colour = colour;
}
