#version 450
// Image atomics (api-storage-images-*, ImageAtomics): results that do not depend on the order
// in which invocations run. Each invocation owns one texel of `own` and one element of
// `counters` from 4 on (returning operations: their old values are known), and every
// invocation hits the 8 texels of `shared` and elements 0-3 of `counters` (the final values
// are known).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D own;
layout(set = 0, binding = 1, r32ui) uniform writeonly uimage2DArray seen;
layout(set = 0, binding = 2, r32i) uniform iimage2DArray shared_texels;
layout(set = 0, binding = 3, r32ui) uniform uimageBuffer counters;

void main()
{
   ivec2 p = ivec2(gl_GlobalInvocationID.xy);
   uint id = uint(p.y * 16 + p.x);
   uint before = imageAtomicAdd(own, p, id * 3u);
   uint swapped = imageAtomicCompSwap(own, p, before + id * 3u, before ^ 0x5a5a5a5au);
   uint exchanged = imageAtomicExchange(own, p, swapped + 1u);
   uint ored = imageAtomicOr(counters, 4 + int(id), id << 8);
   imageStore(seen, ivec3(p, 0), uvec4(before));
   imageStore(seen, ivec3(p, 1), uvec4(swapped ^ exchanged ^ ored));

   imageAtomicAdd(shared_texels, ivec3(0, 0, 0), int(id));
   imageAtomicMin(shared_texels, ivec3(1, 0, 0), int(id) - 100);
   imageAtomicMax(shared_texels, ivec3(2, 0, 0), int((id * 7u) % 61u));
   imageAtomicAnd(shared_texels, ivec3(3, 0, 0), ~(1 << (id % 31u)));
   imageAtomicOr(shared_texels, ivec3(0, 0, 1), 1 << (id % 29u));
   imageAtomicXor(shared_texels, ivec3(1, 0, 1), int(id * 2654435761u));
   imageAtomicAdd(shared_texels, ivec3(2, 0, 1), -int(id));
   imageAtomicMax(shared_texels, ivec3(3, 0, 1), -int(id));
   imageAtomicAdd(counters, int(id % 4u), 1u);
}
