#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
layout(push_constant) uniform Table { uint table[4]; } tables;
void main() {
   uint i = gid(); result.v[i] = tables.table[ints.v[i] & 3u] + tables.table[(ints.v[i] >> 2) & 3u] * 3u;
}
