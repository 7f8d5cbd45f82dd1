// tolerance: 1e-5 the iteration uses RECIP_IEEE-based division
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid(); float a = abs(floats.v[i]) + 1.0; float x = a; int k = 0; while (abs(x * x - a) > 1e-3 * a && k < 40) { x = 0.5 * (x + a / x); k++; } result.v[i] = floatBitsToUint(x);
}
