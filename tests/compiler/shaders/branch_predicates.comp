#version 450
// groups: 1
// Branch predicates (src/compiler/branch_predicates.cpp): each comparison kind as a branch
// condition, so that the If's PRED_SET* compares the operands itself. Plain ifs (the store in
// each keeps it a branch) give the comparison as it is; `if (c) break; rest` in a loop is
// selected as if (!c) { rest } else { break }, whose predicate is the comparison's negation.
// Operands: GPR values, literals, push constants and uniform-buffer constants (the constant
// cache), and float NaNs (a quarter of the lanes). tests/scripts/branch_predicates_test.py
// checks the predicates that come out.
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
layout(set = 0, binding = 3) uniform Params { vec4 table[64]; } params;
void main() {
   uint i = gl_LocalInvocationID.x;
   uint a = ints.v[i], other = ints.v[(i * 7u + 3u) & 1023u];
   uint b = (i % 5u) == 0u ? a : other; /* some lanes compare equal values */
   int sa = int(a), sb = int(b);
   float fa = floats.v[i], fb = (i % 6u) == 0u ? fa : floats.v[(i * 3u + 1u) & 1023u];
   if ((i & 3u) == 1u) fa = uintBitsToFloat(0x7fc00000u | (a & 0xffu)); /* NaN */
   if ((i & 7u) == 2u) fb = uintBitsToFloat(0xffc00001u);                /* NaN */
   uint base = i * 16u;
   if (sa < sb) result.v[base + 0u] = 1u;
   if (sa >= sb) result.v[base + 1u] = 2u;
   if (a < b) result.v[base + 2u] = 3u;
   if (a >= b) result.v[base + 3u] = 4u;
   if (a == b) result.v[base + 4u] = 5u;
   if (a != b) result.v[base + 5u] = 6u;
   if (fa < fb) result.v[base + 6u] = 7u;
   if (fa >= fb) result.v[base + 7u] = 8u;
   if (fa == fb) result.v[base + 8u] = 9u;
   if (fa != fb) result.v[base + 9u] = 10u;
   if (a > 0x12345678u) result.v[base + 10u] = 11u;   /* a literal */
   if (sa < int(pc.n)) result.v[base + 11u] = 12u;   /* a push constant */
   if (fa < params.table[3].y) result.v[base + 12u] = 13u; /* a uniform constant */

   /* Inverted predicates: each loop leaves at the first k where its comparison holds. */
   uint k0 = 0u, k1 = 0u, k2 = 0u, k3 = 0u, k4 = 0u, k5 = 0u, k6 = 0u, k7 = 0u;
   for (uint k = 0u; k < pc.count + 5u; k++) { if (sa + int(k) >= sb) break; k0 += k + 1u; }
   for (uint k = 0u; k < pc.count + 5u; k++) { if (a < b + k) break; k1 += k + 2u; }
   for (uint k = 0u; k < pc.count + 5u; k++) { if ((a & 7u) == k) break; k2 += k + 3u; }
   for (uint k = 0u; k < pc.count + 5u; k++) { if (fa != fb + float(k)) break; k3 += k + 4u; }
   for (uint k = 0u; k < pc.count + 5u; k++) { if (fa == fb - float(k)) break; k4 += k + 5u; }
   for (uint k = 0u; k < pc.count + 5u; k++) { if (fa < fb + float(k)) break; k5 += k + 6u; }
   for (uint k = 0u; k < pc.count + 5u; k++) { if (int(k) - 4 > sa) break; k6 += k + 7u; }
   for (uint k = 0u; k < pc.count + 5u; k++) { if ((a & 1u) != (k & 1u)) break; k7 += k + 8u; }
   result.v[base + 13u] = k0 | (k1 << 8u) | (k2 << 16u) | (k3 << 24u);
   result.v[base + 14u] = k4 | (k5 << 8u) | (k6 << 16u) | (k7 << 24u);
}
