// An array of 80 structs (vec3, float, uint) indexed at run time: every vec4 slot of a struct
// is a scratch element; vec3 stores write three channels (COMP_MASK 0x7).
#version 450
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { uint n; float f; uint mask; uint count; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
struct Particle { vec3 position; float weight; uint id; };
void main() {
   uint i = gid();
   Particle ps[80];
   for (uint k = 0u; k < 80u; k++) {
      ps[k].position = vec3(floats.v[(i + k) & 1023u], float(k), -float(k));
      ps[k].weight = floats.v[(i + 2u * k) & 1023u];
      ps[k].id = ints.v[(i + k) & 1023u];
   }
   uint a = ints.v[i] % 80u, b = (a + 1u + (ints.v[(i + 3u) & 1023u] & 7u)) % 80u;
   ps[a].id ^= 0x5555u;
   ps[b].position.y += 2.0;
   Particle p = ps[a], q = ps[b];
   result.v[i] = p.id + floatBitsToUint(p.position.x + q.position.y) * 3u + floatBitsToUint(q.weight - p.position.z);
}
