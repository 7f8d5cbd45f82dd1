#version 450
// Per sample (gl_SampleID): each invocation keeps its sample only when the sample number is
// odd, so the resolve shows the odd samples' 4 x SampleId in their channels and 0 elsewhere.
layout(location = 0) out vec4 first;
layout(location = 1) out vec4 second;
void main()
{
    gl_SampleMask[0] = (gl_SampleID & 1) != 0 ? -1 : 0;
    first = vec4(0.0);
    first[gl_SampleID] = 4.0 * float(gl_SampleID);
    second = vec4(1.0);
}
