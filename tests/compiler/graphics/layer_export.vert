#version 450
#extension GL_ARB_shader_viewport_layer_array : require
layout(location = 0) in vec4 position;
void main()
{
    gl_Position = position;
    gl_Layer = 1;
}
