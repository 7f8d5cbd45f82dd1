#version 450
// An integer output for barycentric_int.frag, which reads it per vertex (refused).
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 values;
layout(location = 0) out ivec2 v_int;
void main()
{
    gl_Position = position;
    v_int = ivec2(values);
}
