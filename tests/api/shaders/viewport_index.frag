#version 450
// ViewportIndex read as a flat input: red where it differs from the vertex shader's index.
layout(location = 0) flat in vec4 colour;
layout(location = 1) flat in int index_passed;
layout(location = 0) out vec4 target;
void main()
{
   target = gl_ViewportIndex == index_passed ? colour : vec4(1.0, 0.0, 0.0, 1.0);
}
