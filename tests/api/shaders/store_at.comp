#version 450
// Stores 1 at the word the push constant names: a far index makes a GPU fault.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(push_constant) uniform Push { uint index; };
void main()
{
   data[index] = 1u;
}
