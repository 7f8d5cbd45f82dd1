#version 450
#extension GL_EXT_multiview : require
// The draw scenes' vertex layout; each view moves the geometry right by 4 pixels of a 32-pixel
// target and tints it, so every layer of a multiview render pass shows which view drew it.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 colour;
layout(location = 0) out vec4 v_colour;
void main()
{
    gl_Position = position + vec4(0.25 * float(gl_ViewIndex), 0.0, 0.0, 0.0);
    v_colour = colour;
}
