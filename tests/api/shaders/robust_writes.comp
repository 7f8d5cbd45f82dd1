#version 450
// Reads and writes (plain and atomic) past the end of the bound range, for robustBufferAccess:
// reads outside the range give zeros on both drivers, writes stay inside the range (Terakan
// clamps them onto its last dword; lavapipe drops them).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) readonly buffer Source { uint source[]; };
layout(push_constant) uniform Push { uint stride; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   data[i * stride * 2u] = source[i * 3u] + i;
   atomicAdd(data[i * stride * 2u + 1u], 7u);
}
