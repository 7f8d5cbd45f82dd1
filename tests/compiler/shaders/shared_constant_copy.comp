#version 450
// Two buffers copied into workgroup memory at constant addresses and read back (the shape of
// dEQP's workgroup_memory_explicit_layout.copy_memory): 32 LDS_WRITEs and 32 LDS_READ_RETs
// whose addresses are literals, so a returning read and its pop straddled the end of a full
// 128-slot ALU clause (its pop was lost once).
layout(local_size_x = 1, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
shared uint first[16];
shared uint second[16];
void main() {
   for (uint k = 0u; k < 16u; k++)
      first[k] = ints.v[k];
   for (uint k = 0u; k < 16u; k++)
      second[k] = floatBitsToUint(floats.v[k]);

   for (uint k = 0u; k < 16u; k++)
      result.v[k] = first[k];
   for (uint k = 0u; k < 16u; k++)
      result.v[16u + k] = second[k];
}
