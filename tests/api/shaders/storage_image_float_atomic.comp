#version 450
// A float image atomic: refused by the driver (api-storage-images-*, UnsupportedImageAtomicsAreRefused).
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, r32f) uniform image2D sums;

void main()
{
   imageAtomicAdd(sums, ivec2(gl_GlobalInvocationID.xy), 1.0);
}
