#version 450
// A plane seen at a grazing angle: clip-space positions with w growing away from the viewer,
// texture coordinates interpolated with perspective (tests/api/test_anisotropy.cpp).
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;
void main()
{
    gl_Position = position;
    v_uv = uv;
}
