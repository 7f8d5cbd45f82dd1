#version 450
#extension GL_EXT_fragment_shader_barycentric : require
// An integer PerVertexKHR input: refused (the SPI keeps the other vertices as float
// differences from the first).
layout(location = 0) pervertexEXT in ivec2 v_int[];
layout(location = 0) out vec4 colour;
void main()
{
    colour = vec4(v_int[1], 0.0, 1.0);
}
