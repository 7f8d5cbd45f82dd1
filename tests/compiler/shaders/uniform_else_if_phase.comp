// groups: 1
// push: 1 0 0 0
#version 450
// A uniform if / else if / else on a push constant (phase 1 runs the middle arm) whose middle
// arm reads b[31 - i]: the load's byte offset is 124 - 4i, which NIR reassociates into
// (-4i) + 124. Folding the 124 into the fetch's OFFSET field leaves an index that wraps
// around 2^32 for every invocation but the first.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 2) readonly buffer B { uint b[]; };
layout(push_constant) uniform Push { uint phase; } pc;
void main() {
   uint i = gl_LocalInvocationID.x;
   if (pc.phase == 0u) {
      a[i] = b[i] * 3u;
   } else if (pc.phase == 1u) {
      a[i] = b[31u - i] + a[i];
   } else {
      a[i] = a[i] ^ b[i];
   }
}
