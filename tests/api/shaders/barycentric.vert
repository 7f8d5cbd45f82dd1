#version 450
// A clip-space position and two values per vertex, passed on for the fragment shader to read
// per vertex (pervertexEXT) or interpolated (the barycentrics API test and gallery scene).
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 values;
layout(location = 0) out vec2 v_values;
layout(location = 1) out vec2 v_smooth;
void main()
{
    gl_Position = position;
    v_values = values;
    v_smooth = values;
}
