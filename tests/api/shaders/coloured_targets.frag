#version 450
// Three colour attachments from one interpolated colour: as it is, channels rotated, and
// inverted (independent blending and logic ops per attachment).
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 out_colour;
layout(location = 1) out vec4 out_rotated;
layout(location = 2) out vec4 out_inverted;
void main()
{
    out_colour = v_colour;
    out_rotated = v_colour.gbar;
    out_inverted = vec4(1.0) - v_colour;
}
