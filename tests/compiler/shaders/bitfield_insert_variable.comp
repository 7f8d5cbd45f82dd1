#version 450
// bitfieldInsert with offset and width known only at run time, widths 0 to 32 included
// (width 0 leaves the base unchanged; width 32 at offset 0 replaces it).
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid();
   uint x = ints.v[i];
   int bits = int(i % 33u);
   int offset = bits == 32 ? 0 : int((x >> 3) % uint(33 - bits));
   result.v[i] = bitfieldInsert(x, ints.v[i + 1u], offset, bits);
}
