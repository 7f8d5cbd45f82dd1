#version 450
// The texture with an implicit level of detail: the sampler decides how it is filtered.
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;
layout(set = 0, binding = 0) uniform sampler2D image;
void main()
{
    colour = texture(image, v_uv);
}
