// groups: 1
// push: 1 2 0 5
#version 450
// Branches on push constants (uniform: every lane takes the same side) in several shapes, each
// arm reading its operands at reversed indices and storing to every invocation's element: an
// else-if chain whose middle arm runs, a branch nested in the arm that runs, a divergent branch
// inside a uniform one, a loop inside an else, and an else-if chain whose last arm runs.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer B { uint b[]; };
layout(push_constant) uniform Push { uint phase; uint mode; uint zero; uint count; } pc;
void main() {
   uint i = gl_LocalInvocationID.x;
   if (pc.phase == 0u) {
      a[i] = b[i] * 3u;
   } else if (pc.phase == 1u) {
      a[i] = b[31u - i] + a[i];
   } else {
      a[i] = a[i] ^ b[i];
   }
   if (pc.mode == 0u) {
      result.v[i] = 1u;
   } else {
      if (pc.mode == 2u)
         result.v[i] = b[63u - i];
      else
         result.v[i] = 2u;
   }
   if (pc.zero == 0u) {
      if ((b[i] & 1u) != 0u)
         result.v[32u + i] = b[95u - i];
      else
         result.v[32u + i] = a[i] + b[31u - i];
   }
   if (pc.zero != 0u) {
      result.v[64u + i] = 7u;
   } else {
      uint s = 0u;
      for (uint k = 0u; k < pc.count; k++)
         s += b[127u - i - k];
      result.v[64u + i] = s;
   }
   if (pc.count == 0u)
      result.v[96u + i] = 0u;
   else if (pc.count == 1u)
      result.v[96u + i] = 1u;
   else if (pc.mode == 1u)
      result.v[96u + i] = 2u;
   else
      result.v[96u + i] = b[200u - i] - a[i];
}
