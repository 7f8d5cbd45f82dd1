#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid(); vec4 v = vec4(floats.v[i], floats.v[i+1u], floats.v[i+2u], 1.0); mat4 m = mat4(1.0, 2.0, 0.5, 0.0, -1.0, 0.25, 3.0, 0.0, 0.0, 1.0, -2.0, 0.0, pc.f, 1.0, 0.0, 1.0); vec4 r = m * v; result.v[i] = floatBitsToUint(r.x - r.y + r.z * r.w);
}
