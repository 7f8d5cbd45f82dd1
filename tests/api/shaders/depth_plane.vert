#version 450
// One triangle covering the whole target at the depth in push constant z (no vertex input),
// flat coloured with z in blue.
layout(push_constant) uniform Depth { float z; };
layout(location = 0) out vec4 v_colour;
void main()
{
    vec2 corner = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, z, 1.0);
    v_colour = vec4(0.2, 0.6, z, 1.0);
}
