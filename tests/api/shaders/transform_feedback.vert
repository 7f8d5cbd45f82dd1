#version 450
// Transform feedback capture (test_transform_feedback.cpp): outputs of several sizes and
// types into two buffers, with gaps the capture must leave alone. Buffer 0 (stride 48):
// v_full at 0, v_pair (location 1, x and y) at 16, gl_Position at 24, dwords 10 and 11 left
// alone. Buffer 1 (stride 20): dword 0 left alone, v_single (location 1, component 2) at 4,
// v_ints at 8.
layout(location = 0) in vec4 a_position;
layout(location = 1) in vec4 a_data;

layout(xfb_buffer = 0, xfb_stride = 48) out;
layout(xfb_buffer = 1, xfb_stride = 20) out;

layout(location = 0, xfb_buffer = 0, xfb_offset = 0) out vec4 v_full;
layout(location = 1, xfb_buffer = 0, xfb_offset = 16) out vec2 v_pair;
layout(location = 1, component = 2, xfb_buffer = 1, xfb_offset = 4) out float v_single;
layout(location = 2, xfb_buffer = 1, xfb_offset = 8) flat out ivec3 v_ints;
layout(xfb_buffer = 0) out gl_PerVertex {
   layout(xfb_offset = 24) vec4 gl_Position;
};

void main()
{
   gl_Position = a_position;
   v_full = a_data * 2.0 + float(gl_VertexIndex);
   v_pair = a_position.yx * 0.5;
   v_single = float(gl_InstanceIndex) + 0.25;
   v_ints = ivec3(gl_VertexIndex, -gl_VertexIndex, int(a_data.x * 10.0) + 1000 * gl_InstanceIndex);
}
