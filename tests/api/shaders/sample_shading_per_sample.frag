#version 450
// Reads gl_SampleID, so it runs once per sample. Each invocation writes its two results, times
// 4, into channel gl_SampleID of the two targets and 0 into the others: the render pass's
// resolve (an average over the 4 samples) gives back each sample's own values.
layout(location = 0) in vec2 v_smooth;
layout(location = 1) noperspective in vec2 v_linear;
layout(location = 0) out vec4 first;
layout(location = 1) out vec4 second;
layout(push_constant) uniform Case { int mode; } pc;
void main()
{
    vec2 r = vec2(0.0);
    switch (pc.mode) {
    case 0: r = vec2(gl_SampleID, gl_SampleMaskIn[0]); break;
    case 1: r = gl_SamplePosition; break;
    case 2: r = fract(gl_FragCoord.xy); break;
    case 3: r = interpolateAtSample(v_smooth, (gl_SampleID + 1) % 4); break;
    case 4: r = interpolateAtSample(v_linear, (gl_SampleID + 3) % 4); break;
    case 5: r = interpolateAtOffset(v_smooth, vec2(0.25, -0.375)); break;
    case 6: r = interpolateAtCentroid(v_linear); break;
    case 7: r = v_smooth; break;
    }
    first = vec4(0.0);
    second = vec4(0.0);
    first[gl_SampleID] = 4.0 * r.x;
    second[gl_SampleID] = 4.0 * r.y;
}
