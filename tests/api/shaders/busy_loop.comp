#version 450
// Keeps the GPU busy for a while: each invocation steps a linear congruential generator
// `steps` times from its own seed and adds the result to its word, so that a submission
// takes long enough to be seen running, and two in a row give a result that depends on
// their order only through the data.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(push_constant) uniform Push { uint steps; uint salt; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint x = i ^ salt;
   for (uint s = 0u; s < steps; s++)
      x = x * 1664525u + 1013904223u;
   data[i] = data[i] * 3u + x;
}
