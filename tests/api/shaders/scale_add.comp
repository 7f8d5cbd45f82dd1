#version 450
// data[i] = data[i] * mul + add, for dependent-dispatch chains.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(push_constant) uniform Push { uint add; uint mul; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   data[i] = data[i] * mul + add;
}
