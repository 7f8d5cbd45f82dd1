#version 450
// Reads nothing that makes Vulkan shade per sample: it runs once per pixel unless the pipeline's
// minSampleShading asks for more. The results go to every channel.
layout(location = 0) in vec2 v_smooth;
layout(location = 1) noperspective in vec2 v_linear;
layout(location = 0) out vec4 first;
layout(location = 1) out vec4 second;
layout(push_constant) uniform Case { int mode; } pc;
void main()
{
    vec2 r = vec2(0.0);
    switch (pc.mode) {
    case 0: r = vec2(gl_SampleMaskIn[0], 0.0); break;
    case 1: r = fract(gl_FragCoord.xy); break;
    case 2: r = interpolateAtSample(v_smooth, 2); break;
    case 3: r = interpolateAtOffset(v_linear, vec2(-0.5, 0.125)); break;
    case 4: r = interpolateAtCentroid(v_smooth); break;
    case 5: r = v_smooth; break;
    }
    first = vec4(r, r);
    second = vec4(r.yx, r.yx);
}
