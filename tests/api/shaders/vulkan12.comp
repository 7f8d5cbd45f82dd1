#version 450
// Vulkan 1.2 in one compute shader, compiled to SPIR-V 1.5 (--target-env vulkan1.2):
// a uniform block in the std430 layout (uniformBufferStandardLayout: the float array's stride
// is 4, std140 would make it 16) and a subgroup broadcast from an id that is not a constant
// (subgroupBroadcastDynamicId), both compared with the CPU by api-vulkan12.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) uniform Packed {
   float weights[16]; // offset 0, stride 4
   vec3 direction;    // offset 64
   float scale;       // offset 76: inside the vec3's 16 bytes, as std430 allows
   uint lane;         // offset 80
} u;
layout(std430, set = 0, binding = 1) buffer Out {
   uint broadcast[128];
   float weighted[128];
   uint subgroup_size[128];
} o;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint id = u.lane % gl_SubgroupSize;
   o.broadcast[i] = subgroupBroadcast(i * 3u + 1u, id);
   o.weighted[i] = u.weights[i % 16u] * u.scale + u.direction[i % 3u];
   o.subgroup_size[i] = gl_SubgroupSize;
}
