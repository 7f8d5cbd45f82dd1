#version 450
// textureGather and textureGrad on cubes (test_texture_functions.cpp, namespace cubes).
// Invocation i (64 of them) gathers every component of an 8 x 8 RGBA8 cube on face i % 6 at
// face coordinates (s[i % 8], t[i / 8]), some across an edge, and samples a 32 x 32 cube of six
// one-colour levels, and the second cube of a two-cube array view of such levels, with
// gradient pair i % 16 along the face at a direction whose major component is 1 or 2.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCube colours;
layout(set = 0, binding = 1) uniform samplerCube levels;
layout(set = 0, binding = 2) uniform samplerCubeArray level_array;
layout(set = 0, binding = 3, std430) readonly buffer Gradients { vec4 gradients[]; };
layout(set = 0, binding = 4, std430) writeonly buffer Results { vec4 results[]; };

vec3 direction(uint face, float s, float t)
{
    float sc = 2.0 * s - 1.0, tc = 2.0 * t - 1.0;
    if (face == 0u) return vec3(1.0, -tc, -sc);
    if (face == 1u) return vec3(-1.0, -tc, sc);
    if (face == 2u) return vec3(sc, 1.0, tc);
    if (face == 3u) return vec3(sc, -1.0, -tc);
    if (face == 4u) return vec3(sc, -tc, 1.0);
    return vec3(-sc, -tc, -1.0);
}

void main()
{
    const float s_list[8] = float[8](0.02, 0.13, 0.29, 0.46, 0.55, 0.71, 0.88, 0.985);
    const float t_list[8] = float[8](0.04, 0.21, 0.33, 0.52, 0.6, 0.77, 0.92, 0.97);
    const uint i = gl_GlobalInvocationID.x;
    const vec3 d = direction(i % 6u, s_list[i % 8u], t_list[i / 8u]);
    const uint base = i * 6u;
    results[base + 0u] = textureGather(colours, d, 0);
    results[base + 1u] = textureGather(colours, d, 1);
    results[base + 2u] = textureGather(colours, d, 2);
    results[base + 3u] = textureGather(colours, d, 3);
    // Face +X at (0.37, 0.56) scaled by 1 or 2; the gradients move along the face's z and y.
    const float scale = (i / 16u) % 2u == 0u ? 1.0 : 2.0;
    const vec3 at = scale * vec3(1.0, -0.12, 0.26);
    const vec4 g = gradients[i % 16u] * scale;
    results[base + 4u] = textureGrad(levels, at, vec3(0.0, g.y, g.x), vec3(0.0, g.w, g.z));
    results[base + 5u] = textureGrad(level_array, vec4(at, 1.0), vec3(0.0, g.y, g.x), vec3(0.0, g.w, g.z));
}
