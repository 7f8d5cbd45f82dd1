// tolerance: 1e-5 MULADD_IEEE against lavapipe's multiply and add
#version 450
// A uniform buffer read at constant offsets through the constant cache across all four of its
// 256-byte lines, mixed with push constants (constant buffer 0) and gl_NumWorkGroups (1): more
// lines than one ALU clause locks (two kcache sets), operations with three constant operands
// in three (constant, half) pairs (one is moved into a register), and a dot product of
// constants.
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(set = 0, binding = 3) uniform Params { vec4 table[64]; } params;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid();
   float x = floats.v[i];
   float a = params.table[0].x * x + params.table[17].y;
   float b = params.table[33].z * params.table[50].w + params.table[63].x;
   float c = x * params.table[1].w - params.table[40].y * pc.f;
   float d = float(gl_NumWorkGroups.x) * params.table[20].x + params.table[62].z;
   float e = dot(params.table[5], params.table[47]) + dot(params.table[9].xyz, vec3(x, a, c));
   result.v[i] = floatBitsToUint(a + b * c + d + e);
}
