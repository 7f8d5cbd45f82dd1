#version 450
// Samples a depth view through a plain sampler and a comparison sampler (api-sampled-depth):
// r the depth, g texture() (SAMPLE_C), b textureLod() with a run-time LOD (SAMPLE_C_L, the
// reference in z), a textureLodOffset() at a constant 0 and a texel offset of (1, -1)
// (SAMPLE_C_LZ with OFFSET_X/Y). Each band of the target is one draw; the quarter-texel offset
// of uv puts bilinear footprints across texel edges.
layout(set = 0, binding = 0) uniform sampler2D depth;
layout(set = 0, binding = 1) uniform sampler2DShadow shadow;
layout(push_constant) uniform Band {
    vec4 band; // x: the band's first row, y and z: references, w: an LOD of 0 the compiler cannot see
} pc;
layout(location = 0) out vec4 colour;
void main()
{
    vec2 uv = (gl_FragCoord.xy - vec2(0.0, pc.band.x) + vec2(0.25)) / 16.0;
    colour = vec4(texture(depth, uv).r,
                  texture(shadow, vec3(uv, pc.band.y)),
                  textureLod(shadow, vec3(uv, pc.band.z), pc.band.w),
                  textureLodOffset(shadow, vec3(uv, pc.band.y), 0.0, ivec2(1, -1)));
}
