#version 450
// Instancing: a per-instance offset (binding rate INSTANCE) moves each copy, and the colour
// says which vertex and instance drew it (InstanceIndex includes the first instance).
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 colour;
layout(location = 2) in vec2 offset;
layout(location = 0) out vec4 v_colour;
void main()
{
    gl_Position = position + vec4(offset, 0.0, 0.0);
    v_colour = vec4(colour.xy, float(gl_InstanceIndex) / 8.0, float(gl_VertexIndex) / 32.0);
}
