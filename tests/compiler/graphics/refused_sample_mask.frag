#version 450
// The SampleMask output. It used to be refused; test_graphics.cpp now checks its mask export
// (PIXEL 61 z, DB_SHADER_CONTROL.MASK_EXPORT_ENABLE) and the discard of a mask that keeps none
// of the draw's samples.
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(1.0);
    gl_SampleMask[0] = 1;
}
