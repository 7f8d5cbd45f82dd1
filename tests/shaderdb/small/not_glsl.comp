#version 450
// Must fail in glslangValidator (the test counts it as refused, not as fatal).
void main() { this is not GLSL; }
