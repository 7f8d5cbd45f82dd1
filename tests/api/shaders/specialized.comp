#version 450
// Specialization constants: the multiplier, the addend and the workgroup width.
layout(local_size_x_id = 2) in;
layout(constant_id = 0) const uint MUL = 1u;
layout(constant_id = 1) const uint ADD = 0u;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   data[i] = data[i] * MUL + ADD + gl_WorkGroupSize.x;
}
