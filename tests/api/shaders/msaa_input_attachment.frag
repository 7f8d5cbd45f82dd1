#version 450
// Copies the four samples of a 4-sample input attachment at the fragment's pixel into four
// single-sample targets (sample i to target i): subpassLoad with a sample.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS image;
layout(location = 0) out vec4 s0;
layout(location = 1) out vec4 s1;
layout(location = 2) out vec4 s2;
layout(location = 3) out vec4 s3;
void main()
{
    s0 = subpassLoad(image, 0);
    s1 = subpassLoad(image, 1);
    s2 = subpassLoad(image, 2);
    s3 = subpassLoad(image, 3);
}
