// groups: 1
// Storage-buffer atomics whose old value is used (RAT *_RTN and the return buffer), every
// operation chained on one dword per invocation, so that the results do not depend on the
// order in which invocations run; int and uint forms through two blocks at one binding.
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 1) buffer OutSigned { int v[]; } signed_result;
void main() {
   uint i = gl_LocalInvocationIndex;
   uint a = ints.v[i], b = ints.v[(i * 7u + 3u) & 1023u], c = ints.v[(i * 13u + 5u) & 1023u];
   result.v[i] = a;
   uint base = 64u + i * 11u;
   result.v[base + 0u] = atomicAdd(result.v[i], b);
   result.v[base + 1u] = atomicMin(result.v[i], c);
   result.v[base + 2u] = uint(atomicMin(signed_result.v[i], int(b)));
   result.v[base + 3u] = atomicMax(result.v[i], a ^ c);
   result.v[base + 4u] = uint(atomicMax(signed_result.v[i], int(c)));
   result.v[base + 5u] = atomicAnd(result.v[i], b | 0x0f0f0f0fu);
   result.v[base + 6u] = atomicOr(result.v[i], c & 0x30303030u);
   result.v[base + 7u] = atomicXor(result.v[i], a);
   result.v[base + 8u] = atomicExchange(result.v[i], b);
   result.v[base + 9u] = atomicCompSwap(result.v[i], b, c);
   result.v[base + 10u] = atomicCompSwap(result.v[i], b, a + 1u);
}
