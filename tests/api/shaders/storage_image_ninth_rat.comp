#version 450
// Eight storage buffers and a storage image stored to: the image's RAT would be the ninth of a
// stage's eight (api-storage-images-*, RatsBeyondTheEightAreRefused).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B0 { uint v[]; } b0;
layout(set = 0, binding = 1) buffer B1 { uint v[]; } b1;
layout(set = 0, binding = 2) buffer B2 { uint v[]; } b2;
layout(set = 0, binding = 3) buffer B3 { uint v[]; } b3;
layout(set = 0, binding = 4) buffer B4 { uint v[]; } b4;
layout(set = 0, binding = 5) buffer B5 { uint v[]; } b5;
layout(set = 0, binding = 6) buffer B6 { uint v[]; } b6;
layout(set = 0, binding = 7) buffer B7 { uint v[]; } b7;
layout(set = 0, binding = 8, r32ui) uniform writeonly uimage2D picture;

void main()
{
   uint i = gl_GlobalInvocationID.x;
   b0.v[i] = b1.v[i] + b2.v[i] + b3.v[i] + b4.v[i] + b5.v[i] + b6.v[i] + b7.v[i];
   imageStore(picture, ivec2(i, 0), uvec4(i));
}
