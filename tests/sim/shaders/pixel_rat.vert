#version 450
// The position as it is (test_pixel_rats.cpp).
layout(location = 0) in vec4 position;
void main()
{
    gl_Position = position;
}
