#version 450
// Records each group's id and the group count (direct and indirect dispatches).
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Out { uint words[]; };
void main()
{
   uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x * (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
   uint lane = gl_LocalInvocationIndex;
   uint base = (group * 8u + lane) * 4u;
   words[base + 0u] = gl_WorkGroupID.x | (gl_WorkGroupID.y << 8) | (gl_WorkGroupID.z << 16);
   words[base + 1u] = gl_NumWorkGroups.x | (gl_NumWorkGroups.y << 8) | (gl_NumWorkGroups.z << 16);
   words[base + 2u] = gl_GlobalInvocationID.x + 100u * gl_GlobalInvocationID.y;
   words[base + 3u] = lane;
}
