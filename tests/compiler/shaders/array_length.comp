#version 450
// OpArrayLength: the runtime-sized arrays of three storage buffers, one after a 16-byte header
// (length = (range - 16) / 4), read from the sizes the driver puts in its constants.
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { vec4 head; float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid();
   uint lengths = uint(ints.v.length()) + uint(result.v.length()) * 3u + uint(floats.v.length()) * 7u;
   result.v[i] = lengths + (uint(floats.v.length()) - i % 7u);
}
