// refused: textureGather of integer cube images is not supported
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
layout(set = 0, binding = 4) uniform usamplerCube ids;
void main() {
   uint i = gl_GlobalInvocationID.x;
   result.v[i] = textureGather(ids, vec3(floats.v[i], 1.0, 0.5)).x + ints.v[i];
}
