// tolerance: 1e-5 length and normalize use SQRT_IEEE and RECIPSQRT_IEEE
// push: 1065353216 1073741824 1069547520 3204448256
#version 450
// Dot products as DOT4_IEEE groups: fdot2/3/4, fdph (dot with a vec4 ending in 1.0), negated
// operands, more distinct literals than one group holds (moved into registers first), push
// constants (kcache operands: 1.0, 2.0, 1.5, -0.5), normalize and length.
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
layout(push_constant) uniform Push { vec4 p; } pc;
uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
void main() {
   uint i = gid();
   vec4 a = vec4(floats.v[i], floats.v[i + 1u], floats.v[i + 2u], floats.v[i + 3u]);
   vec4 b = vec4(floats.v[i + 4u], floats.v[i + 5u], -floats.v[i + 6u], floats.v[i + 7u]);
   float d2 = dot(a.xy, b.zw);
   float d3 = dot(a.xyz, -b.yzw);
   float d4 = dot(a, b);
   float ph = dot(vec4(a.zyx, 1.0), b);
   float lits = dot(vec4(a.x, 1.5, 2.5, 3.5), vec4(4.5, a.y, 5.5, a.z));
   float kc = dot(pc.p, a.wzyx);
   vec3 n = normalize(a.xyz + vec3(0.0, 0.0, 1.0));
   float len = length(b.xy) + length(n);
   result.v[i] = floatBitsToUint(d2 + 2.0 * d3 - d4 * ph + lits * 0.125 + kc * n.y + len);
}
