#version 450
// textureQueryLod of a 2D image and a cube through three samplers each, in blocks of 8 x 8
// pixels whose texture coordinates change by a constant amount per pixel (test_lod_queries.cpp
// has the layout and computes the expected values; tests/gl/scenes_lod_queries.cpp is the same
// scene for r600g).
layout(set = 0, binding = 0) uniform sampler2D u_linear;
layout(set = 0, binding = 1) uniform sampler2D u_nearest;
layout(set = 0, binding = 2) uniform sampler2D u_flat;
layout(set = 0, binding = 3) uniform samplerCube u_cube_linear;
layout(set = 0, binding = 4) uniform samplerCube u_cube_nearest;
layout(set = 0, binding = 5) uniform samplerCube u_cube_flat;
// The same images and first sampler through array views (OpImageQueryLod takes no layer).
layout(set = 0, binding = 6) uniform sampler2DArray u_linear_array;
layout(set = 0, binding = 7) uniform samplerCubeArray u_cube_linear_array;
layout(location = 0) out vec4 result;
void main()
{
    vec2 block = mod(floor(gl_FragCoord.xy / 8.0), 8.0);
    float k = block.x + 8.0 * block.y;
    vec2 p = gl_FragCoord.xy - (floor(gl_FragCoord.xy / 8.0) * 8.0 + 4.0);
    vec2 linear_lod, nearest_lod, flat_lod;
    if (k < 32.0) {
        float s = exp2(mod(k, 9.0) - 3.0) / 64.0;
        float shape = mod(k, 3.0);
        vec2 uv = shape == 0.0 ? p * s : shape == 1.0 ? p * vec2(s, 0.25 * s)
                                                      : vec2(p.x + p.y, p.y - p.x) * (s * 0.70710678);
        uv += 0.5;
        linear_lod = mod(k, 2.0) == 0.0 ? textureQueryLod(u_linear, uv) : textureQueryLod(u_linear_array, uv);
        nearest_lod = textureQueryLod(u_nearest, uv);
        flat_lod = textureQueryLod(u_flat, uv);
    } else {
        float s = exp2(mod(k - 32.0, 6.0) - 3.0) / 32.0;
        vec2 uv = 0.5 + (mod(k, 2.0) == 0.0 ? p * s : p * vec2(s, 0.25 * s));
        vec3 direction = vec3(1.0, 1.0 - 2.0 * uv.y, 1.0 - 2.0 * uv.x);
        linear_lod = mod(k, 4.0) < 2.0 ? textureQueryLod(u_cube_linear, direction)
                                       : textureQueryLod(u_cube_linear_array, direction);
        nearest_lod = textureQueryLod(u_cube_nearest, direction);
        flat_lod = textureQueryLod(u_cube_flat, direction);
    }
    result = vec4(linear_lod, nearest_lod.x + 8.0 * flat_lod.x, nearest_lod.y);
}
