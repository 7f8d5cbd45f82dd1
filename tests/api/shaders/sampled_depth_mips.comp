#version 450
// Reads every texel of one level of both layers of a depth view that has all the levels
// (api-sampled-depth-mips): x through texelFetch (LD), y through textureLod with nearest
// filtering at the texel's centre (SAMPLE_L).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2DArray depth;
layout(set = 0, binding = 1, std430) buffer Values {
    vec2 values[];
};
layout(push_constant) uniform Level {
    int level;
    int width;
    int height;
    int first; // where the level's values start in `values`
} pc;
void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (p.x >= pc.width || p.y >= pc.height)
        return;
    vec2 uv = (vec2(p.xy) + 0.5) / vec2(pc.width, pc.height);
    values[pc.first + (p.z * pc.height + p.y) * pc.width + p.x] =
        vec2(texelFetch(depth, p, pc.level).r, textureLod(depth, vec3(uv, p.z), float(pc.level)).r);
}
