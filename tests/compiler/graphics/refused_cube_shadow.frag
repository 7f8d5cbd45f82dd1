#version 450
// A cube depth comparison with a LOD bias: refused (the reference would have to go into z,
// which holds the face; r600g uses SAMPLE_C_G there, which is neither compiled nor simulated).
layout(set = 0, binding = 0) uniform samplerCubeShadow shadow;
layout(location = 0) in vec3 direction;
layout(location = 0) out vec4 colour;
void main()
{
    colour = vec4(texture(shadow, vec4(direction, 0.5), 1.0));
}
