#version 450
// A pixel shader writing the fifth storage buffer of its set (RAT slot 4), for the refusal of
// pipelines whose RATs and colour attachments do not fit in CB_COLOR0-7 together.
layout(location = 0) out vec4 colour;
layout(set = 0, binding = 4) buffer Fifth { uint words[]; };
void main()
{
    words[uint(gl_FragCoord.x)] = 1u;
    colour = vec4(1.0);
}
