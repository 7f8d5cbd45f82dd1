// refused: bytes of scratch per invocation are not supported (this shader needs 80000
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid(); uint local_table[5000]; for (uint k = 0u; k < 5000u; k++) local_table[k] = ints.v[(i + k) & 1023u]; result.v[i] = local_table[ints.v[i] % 5000u];
}
