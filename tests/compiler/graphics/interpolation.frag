#version 450
layout(location = 0) smooth in vec4 v_smooth;
layout(location = 1) flat in vec4 v_flat;
layout(location = 3) noperspective in vec4 v_linear;
layout(location = 0) out vec4 out_smooth;
layout(location = 1) out vec4 out_flat;
layout(location = 2) out vec4 out_linear;
void main()
{
    out_smooth = v_smooth;
    out_flat = v_flat;
    out_linear = v_linear;
}
