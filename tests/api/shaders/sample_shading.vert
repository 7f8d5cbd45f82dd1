#version 450
// A clip-space position and two values per vertex, interpolated smooth, noperspective and
// sample-qualified for the sample-shading API test (test_sample_shading.cpp).
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 values;
layout(location = 0) out vec2 v_smooth;
layout(location = 1) noperspective out vec2 v_linear;
void main()
{
    gl_Position = position;
    v_smooth = values;
    v_linear = values;
}
