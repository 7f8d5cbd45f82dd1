#version 450
// Uniform texel buffers of several formats, read with texelFetch: float bits as they are,
// 8-bit UNORM rounded back to 8 bits; missing components must read as 0 (alpha 1).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform samplerBuffer floats;        // R32_SFLOAT
layout(set = 0, binding = 2) uniform samplerBuffer bytes;         // R8G8B8A8_UNORM
layout(set = 0, binding = 3) uniform samplerBuffer halves;        // R16G16_SFLOAT
layout(set = 0, binding = 4) uniform usamplerBuffer words;        // R32G32B32A32_UINT
layout(set = 0, binding = 5) uniform isamplerBuffer signed_bytes; // R8_SINT
void main()
{
   int i = int(gl_GlobalInvocationID.x);
   uint base = uint(i) * 5u;
   o[base + 0u] = floatBitsToUint(texelFetch(floats, i));
   o[base + 1u] = uvec4(round(texelFetch(bytes, 63 - i) * 255.0));
   o[base + 2u] = floatBitsToUint(texelFetch(halves, i));
   o[base + 3u] = texelFetch(words, i / 2);
   o[base + 4u] = uvec4(texelFetch(signed_bytes, i));
}
