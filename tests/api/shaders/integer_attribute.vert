#version 450
// Integer vertex attributes (unsigned, or signed with -DSIGNED) shown as a colour: each
// component's low byte over 255, signed ones offset by 128.
layout(location = 0) in vec4 position;
#ifdef SIGNED
layout(location = 1) in ivec4 value;
#else
layout(location = 1) in uvec4 value;
#endif
layout(location = 0) out vec4 v_colour;
void main()
{
    gl_Position = position;
#ifdef SIGNED
    v_colour = vec4((value + 128) & 255) / 255.0;
#else
    v_colour = vec4(value & 255u) / 255.0;
#endif
}
