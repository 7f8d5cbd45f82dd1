#version 450
// A sample-qualified input (the Sample decoration). It used to be refused; test_graphics.cpp
// now checks that it compiles to a shader that runs per sample from the PERSP_SAMPLE pair.
layout(location = 0) sample in vec4 v_colour;
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = v_colour;
}
