#version 450
// Set 0: the input; set 1: a dynamic storage buffer for the output and a uniform buffer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(set = 1, binding = 0) writeonly buffer Out { uint results[]; };
layout(set = 1, binding = 1) uniform Params { uint bias; uint scale; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   results[i] = values[i] * scale + bias;
}
