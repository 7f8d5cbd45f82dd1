#version 450
// The pixel shader's own textureSize/imageSize of the texel buffers at bindings 2-5 (target 0)
// beside the vertex stage's (target 1), both R32G32B32A32_UINT.
layout(set = 0, binding = 2) uniform usamplerBuffer a;
layout(set = 0, binding = 3) uniform samplerBuffer b;
layout(set = 0, binding = 4, r32ui) uniform readonly uimageBuffer c;
layout(set = 0, binding = 5) uniform samplerBuffer d;
layout(location = 0) flat in uvec4 vertex_sizes;
layout(location = 0) out uvec4 fragment_sizes;
layout(location = 1) out uvec4 from_vertex;
void main()
{
    fragment_sizes = uvec4(textureSize(d), imageSize(c), textureSize(b), textureSize(a));
    from_vertex = vertex_sizes;
}
