#version 450
// Dual-source outputs and a storage-buffer store together (test_fragment_stores.cpp: the
// pipeline is refused).
layout(location = 0, index = 0) out vec4 colour;
layout(location = 0, index = 1) out vec4 factor;
layout(set = 0, binding = 0) buffer Words { uint words[]; };
void main()
{
    words[uint(gl_FragCoord.x)] = 1u;
    colour = vec4(1.0);
    factor = vec4(0.5);
}
