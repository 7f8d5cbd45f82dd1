#version 450
// VK_KHR_workgroup_memory_explicit_layout: three views of the same workgroup memory, laid out
// explicitly (one std430, one scalar), written through one and read through the others.
#extension GL_EXT_shared_memory_block : require
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
shared Words { uint words[64]; } as_words;
shared Pairs { uvec2 pairs[32]; } as_pairs;
layout(scalar) shared Scalars { uint first; uvec3 triples[21]; } as_scalars;
layout(std430, set = 0, binding = 0) buffer Out {
   uint from_pairs[64];
   uint from_triples[64];
   uint after_pair_writes[64];
} o;
void main()
{
   uint i = gl_LocalInvocationIndex;
   as_words.words[i] = i * 7u + 3u;
   barrier();
   o.from_pairs[i] = as_pairs.pairs[i / 2u][i % 2u];
   o.from_triples[i] = i == 0u ? as_scalars.first : as_scalars.triples[(i - 1u) / 3u][(i - 1u) % 3u];
   barrier();
   if (i < 32u)
      as_pairs.pairs[i] = uvec2(i * 100u, i * 100u + 1u);
   barrier();
   o.after_pair_writes[i] = as_words.words[i];
}
