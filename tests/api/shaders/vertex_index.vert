#version 450
// fullDrawIndexUint32: a vertex placed by the low byte of its index (x = bits 0-3, y = bits
// 4-7 on a 16 x 16 grid over the target) and coloured, flat, by the other three bytes, so a
// triangle is drawn where and as it should be only if its 32-bit indices reached VertexIndex
// whole (api-draws IndicesBeyondTwentyFourBits).
layout(location = 0) flat out vec4 v_colour;
void main()
{
   uint v = uint(gl_VertexIndex);
   vec2 grid = vec2(float(v & 15u), float((v >> 4) & 15u));
   gl_Position = vec4(grid / 8.0 - 1.0, 0.0, 1.0);
   v_colour = unpackUnorm4x8(v >> 8);
}
