#version 450
// Reads the first subpass's colour at this pixel (subpassLoad) and writes it back swizzled
// and brightened, so that the second subpass's picture depends on every channel it read.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput first;
layout(location = 0) out vec4 colour;
void main()
{
    colour = subpassLoad(first).bgra + vec4(0.25, 0.25, 0.25, 0.0);
}
