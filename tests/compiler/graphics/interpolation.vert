#version 450
// One colour interpolated three ways: perspective-correct, flat (provoking = first vertex) and
// linear in screen space (noperspective).
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 colour;
layout(location = 0) smooth out vec4 v_smooth;
layout(location = 1) flat out vec4 v_flat;
layout(location = 3) noperspective out vec4 v_linear;
void main()
{
    gl_Position = position;
    v_smooth = colour;
    v_flat = colour;
    v_linear = colour;
}
