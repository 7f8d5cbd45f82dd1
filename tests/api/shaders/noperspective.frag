#version 450
// The colour interpolated without perspective (conservative rasterization's linear varyings).
layout(location = 0) noperspective in vec4 v_colour;
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = v_colour;
}
