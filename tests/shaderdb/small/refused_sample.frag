#version 450
// Must be refused (the test counts it): sample-rate interpolation is not supported yet.
layout(location = 0) sample in vec4 value;
layout(location = 0) out vec4 colour;
void main() { colour = value; }
