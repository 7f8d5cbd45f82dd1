#version 450
// Sample-qualified inputs (the Sample decoration), which make the shader run per sample
// without reading gl_SampleID; the results go to every channel (the resolve averages the
// samples' own values).
layout(location = 0) sample in vec2 v_smooth;
layout(location = 1) sample noperspective in vec2 v_linear;
layout(location = 0) out vec4 first;
layout(location = 1) out vec4 second;
void main()
{
    first = vec4(v_smooth, v_linear);
    second = vec4(gl_SampleMaskIn[0]);
}
