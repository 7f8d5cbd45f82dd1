#version 450
// A triangle over the whole target; the vertex stage passes the element counts of the texel
// buffers at bindings 2-5 (textureSize, imageSize) to the pixel shader as a flat varying.
layout(set = 0, binding = 2) uniform usamplerBuffer a;
layout(set = 0, binding = 3) uniform samplerBuffer b;
layout(set = 0, binding = 4, r32ui) uniform readonly uimageBuffer c;
layout(set = 0, binding = 5) uniform samplerBuffer d;
layout(location = 0) flat out uvec4 vertex_sizes;
void main()
{
    vec2 corner = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);
    gl_Position = vec4(corner, 0.0, 1.0);
    vertex_sizes = uvec4(textureSize(a), textureSize(b), imageSize(c), textureSize(d));
}
