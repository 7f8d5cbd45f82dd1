#version 450
// A position per vertex; the window position (x, y in pixels) goes out as a noperspective
// varying, for interpolateAtSample to be compared with the sample positions (2x/8x tests).
layout(location = 0) in vec4 position;
layout(location = 0) noperspective out vec2 v_window;
layout(push_constant) uniform Size { vec2 size; };
void main()
{
    gl_Position = position;
    v_window = (position.xy / position.w * 0.5 + 0.5) * size;
}
