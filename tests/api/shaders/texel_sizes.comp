#version 450
// textureSize of uniform texel buffers and imageSize of storage texel buffers in a compute
// shader: the element counts of six views (formats of 1, 2, 4, 8 and 16 bytes, offsets and
// ranges chosen by the test) written to a storage buffer, plus one texel read through a view
// whose size is also asked, so that a size and a fetch of one binding meet in one program.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform usamplerBuffer u8;       // R8_UINT
layout(set = 0, binding = 1) uniform samplerBuffer rgba8;     // R8G8B8A8_UNORM
layout(set = 0, binding = 2) uniform usamplerBuffer rgba32;   // R32G32B32A32_UINT
layout(set = 0, binding = 3, r32ui) uniform readonly uimageBuffer r32;
layout(set = 0, binding = 4, rgba16f) uniform readonly imageBuffer rgba16;
layout(set = 0, binding = 5) uniform writeonly uimageBuffer formatless; // R16_UINT
layout(set = 0, binding = 6) buffer Out { uint sizes[8]; };
void main()
{
    sizes[0] = uint(textureSize(u8));
    sizes[1] = uint(textureSize(rgba8));
    sizes[2] = uint(textureSize(rgba32));
    sizes[3] = uint(imageSize(r32));
    sizes[4] = uint(imageSize(rgba16));
    sizes[5] = uint(imageSize(formatless));
    sizes[6] = texelFetch(rgba32, textureSize(rgba32) - 1).x;
    sizes[7] = uint(textureSize(u8)) + uint(imageSize(r32));
}
