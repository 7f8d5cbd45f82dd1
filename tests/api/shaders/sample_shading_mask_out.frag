#version 450
// Writes the SampleMask output: mode 0 keeps the samples (x + y) & 15 of pixel (x, y) (a mask
// per pixel: the shader runs once per pixel), mode 1 keeps none, mode 2 keeps every sample but
// 2. The targets get 1.0 (and the mask written, as a float), so the resolve shows the share of
// samples kept.
layout(location = 0) in vec2 v_smooth;
layout(location = 0) out vec4 first;
layout(location = 1) out vec4 second;
layout(push_constant) uniform Case { int mode; } pc;
void main()
{
    int mask = 0;
    if (pc.mode == 0)
        mask = (int(gl_FragCoord.x) + int(gl_FragCoord.y)) & 15;
    else if (pc.mode == 2)
        mask = ~4;
    gl_SampleMask[0] = mask;
    first = vec4(1.0);
    second = vec4(v_smooth, 0.0, 1.0);
}
