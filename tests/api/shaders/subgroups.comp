#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
// Every advertised subgroup operation, per invocation, with values that differ between
// invocations: the test computes each answer for subgroups of the size the device reports.
layout(local_size_x = 8, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main()
{
   uint i = gl_LocalInvocationIndex + gl_WorkGroupID.x * 16u;
   uint x = i * 7u + 3u;
   int s = int(i) - 20;
   float f = float(i) * 0.5 - 3.0;
   uint b = i * 32u;
   o[b + 0u] = gl_SubgroupSize;
   o[b + 1u] = gl_SubgroupInvocationID;
   o[b + 2u] = gl_NumSubgroups;
   o[b + 3u] = gl_SubgroupID;
   o[b + 4u] = subgroupElect() ? 1u : 0u;
   o[b + 5u] = (subgroupAll(x % 3u == 0u) ? 1u : 0u) | (subgroupAny(x % 3u == 0u) ? 2u : 0u) |
               (subgroupAllEqual(x) ? 4u : 0u);
   uvec4 ballot = subgroupBallot(x % 2u == 1u);
   o[b + 6u] = ballot.x;
   o[b + 7u] = ballot.y | ballot.z | ballot.w;
   o[b + 8u] = subgroupBallotBitCount(uvec4(x, 0x0f0u, 0u, 1u));
   o[b + 9u] = subgroupBallotInclusiveBitCount(uvec4(x, 0u, 0u, 0u)) * 16u +
               subgroupBallotExclusiveBitCount(uvec4(x, 0u, 0u, 0u));
   o[b + 10u] = subgroupBallotFindLSB(uvec4(x | 1u, x << 4, 0u, 0u));
   o[b + 11u] = subgroupBallotFindMSB(uvec4(x | 1u, 0u, i + 1u, 0u));
   o[b + 12u] = subgroupBallotBitExtract(uvec4(x, 0u, 0u, 0u), 0u) ? 1u : 0u;
   o[b + 13u] = gl_SubgroupEqMask.x | (gl_SubgroupGeMask.x << 8) | (gl_SubgroupGtMask.x << 16) |
                (gl_SubgroupLeMask.x << 24);
   o[b + 14u] = gl_SubgroupLtMask.x;
   o[b + 15u] = subgroupBroadcastFirst(x);
   o[b + 16u] = subgroupBroadcast(x, 0u);
   o[b + 17u] = subgroupAdd(x);
   o[b + 18u] = subgroupMul(x);
   o[b + 19u] = uint(subgroupMin(s));
   o[b + 20u] = uint(subgroupMax(s));
   o[b + 21u] = subgroupAnd(x) ^ subgroupOr(x << 1) ^ subgroupXor(x << 2);
   o[b + 22u] = floatBitsToUint(subgroupAdd(f));
   o[b + 23u] = subgroupInclusiveAdd(x);
   o[b + 24u] = subgroupExclusiveAdd(x);
   o[b + 25u] = subgroupExclusiveMul(x);
   o[b + 26u] = uint(subgroupExclusiveMin(s));
   o[b + 27u] = uint(subgroupExclusiveMax(s));
   o[b + 28u] = subgroupExclusiveAnd(x);
   o[b + 29u] = floatBitsToUint(subgroupExclusiveMin(f));
   o[b + 30u] = subgroupShuffle(x, gl_SubgroupInvocationID) ^ subgroupShuffleXor(x, 0u);
   o[b + 31u] = subgroupShuffleUp(x, 0u) + subgroupShuffleDown(x, 0u);
}
