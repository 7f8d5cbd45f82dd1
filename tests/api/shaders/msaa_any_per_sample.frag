#version 450
// Per-sample shading at any sample count: target 0 gets SamplePosition, SampleID and
// SampleMaskIn; target 1 the window position interpolated at the sample and FragCoord (both
// at the sample: x + position, y + position) (2x/8x tests).
layout(location = 0) noperspective in vec2 v_window;
layout(location = 0) out vec4 built_ins;
layout(location = 1) out vec4 positions;
void main()
{
    built_ins = vec4(gl_SamplePosition, float(gl_SampleID), float(gl_SampleMaskIn[0]));
    positions = vec4(interpolateAtSample(v_window, gl_SampleID), gl_FragCoord.xy);
}
