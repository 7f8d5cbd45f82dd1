#version 450
// The pixel side of transform_feedback.vert: its varyings as a colour.
layout(location = 0) in vec4 v_full;
layout(location = 1) in vec2 v_pair;
layout(location = 1, component = 2) in float v_single;
layout(location = 2) flat in ivec3 v_ints;
layout(location = 0) out vec4 colour;

void main()
{
   colour = vec4(fract(v_full.x), v_pair.x + 0.5, v_single * 0.25, float(v_ints.x & 7) / 7.0);
}
