#version 450
// Storage-buffer atomics whose old value is used, where the values depend on the order in
// which invocations run: unique slots from atomicAdd, maximum, minimum and exchange on one
// word each, and a bounded compare-exchange loop adding every invocation's number. The test
// checks order-independent properties on the CPU and the order-independent words against
// lavapipe. Three-dimensional groups of 128 invocations (two waves of 64).
layout(local_size_x = 16, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0) buffer Counters {
   uint next_slot, maximum, minimum, exchanged, cas_sum;
} counters;
layout(set = 0, binding = 1) buffer Slots { uint v[]; } slots;   // per invocation: its slot
layout(set = 0, binding = 2) buffer Owners { uint v[]; } owners; // per slot: invocation + 1
layout(set = 0, binding = 3) buffer Seen { uint v[]; } seen;     // per invocation: 4 values
layout(push_constant) uniform Push { uint cas_bound; } pc;
void main()
{
   uint id = gl_LocalInvocationIndex + 128u * gl_WorkGroupID.x;
   uint slot = atomicAdd(counters.next_slot, 1u);
   slots.v[id] = slot;
   owners.v[slot] = id + 1u;
   uint key = ((id * 2654435761u) >> 4u) | 1u; // never 0, below 2^28
   seen.v[4u * id + 0u] = atomicMax(counters.maximum, key);
   seen.v[4u * id + 1u] = atomicMin(counters.minimum, key);
   seen.v[4u * id + 2u] = atomicExchange(counters.exchanged, id + 1u);
   uint expected = 0u, tries = 0u;
   for (; tries < pc.cas_bound; tries++) {
      uint was = atomicCompSwap(counters.cas_sum, expected, expected + id + 1u);
      if (was == expected)
         break;
      expected = was;
   }
   seen.v[4u * id + 3u] = tries;
}
