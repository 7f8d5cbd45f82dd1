#version 450
// A loop whose variable is rewritten in a chain of branches from a fetch with an index it
// computed itself (dEQP memory.pipeline_barrier's pixel shader, as a compute shader): the
// variable has several writers, some waiting for the fetch and some not. The scheduler once
// kept every reader of such a variable out of every clause ("made no progress").
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
layout(set = 0, binding = 3) uniform Params { uvec4 table[64]; } params;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid();
   uint value = ints.v[i];
   for (uint k = 0u; k < (pc.count & 7u) + 2u; k++) {
      uvec4 entry = params.table[value % 64u];
      if (value % 4u == 0u)
         value = entry.x;
      else if (value % 4u == 1u)
         value = entry.y;
      else if (value % 4u == 2u)
         value = entry.z;
      else
         value = entry.w ^ k;
   }
   result.v[i] = value;
}
