#version 450
// Depth comparisons in their SAMPLE_C forms (the compiler test DepthComparisonForms reads the
// instructions back): texture() is SAMPLE_C, texture() with a bias SAMPLE_C_LB, textureLod()
// at a run-time LOD SAMPLE_C_L (the reference in z), at a constant 0 SAMPLE_C_LZ; texture() on
// a 2D array is SAMPLE_C with the layer in z and the reference in w, on a cube SAMPLE_C with the
// face in z.
layout(set = 0, binding = 0) uniform sampler2DShadow shadow;
layout(set = 0, binding = 1) uniform sampler2DArrayShadow layers;
layout(set = 0, binding = 2) uniform samplerCubeShadow cube;
layout(push_constant) uniform Values { vec4 v; } pc;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 colour;
void main()
{
    colour = vec4(texture(shadow, vec3(uv, pc.v.x)),
                  texture(shadow, vec3(uv, pc.v.y), pc.v.z),
                  textureLod(shadow, vec3(uv, pc.v.x), pc.v.w) + textureLod(shadow, vec3(uv, pc.v.z), 0.0),
                  texture(layers, vec4(uv, 1.0, pc.v.y)) + texture(cube, vec4(uv, 1.0, pc.v.x)));
}
