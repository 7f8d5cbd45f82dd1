#version 450
// Unsigned, signed and float colour outputs (UINT, SINT, FLOAT attachments).
struct Pair {
    uvec2 u;
    ivec2 i;
};
layout(location = 0) flat in Pair pair;
layout(location = 2) flat in vec4 values[2];
layout(location = 0) out uvec4 out_unsigned;
layout(location = 1) out ivec4 out_signed;
layout(location = 2) out vec4 out_float;
void main()
{
    out_unsigned = uvec4(pair.u, uint(gl_FragCoord.x), 7u);
    out_signed = ivec4(pair.i, -int(gl_FragCoord.y), -1);
    out_float = values[0] + values[1] * 2.0;
}
