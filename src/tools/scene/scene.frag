#version 450
// terakan-scene's fragment shader: the mipmapped tile texture (implicit level of detail,
// trilinear) tints the albedo; diffuse light from the interpolated per-vertex normal takes its
// colour from a small ramp texture read through a sampler with unnormalized coordinates
// (texel units, textureLod at level 0), plus an ambient term.
layout(set = 0, binding = 0) uniform Frame {
    mat4 view_projection;
    vec4 light_direction;
    vec4 ambient;
} frame;
layout(set = 0, binding = 1) uniform sampler2D tiles; // normalized, mipmapped, repeat
layout(set = 0, binding = 2) uniform sampler2D ramp;  // unnormalized coordinates, linear, clamp

layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 2) in vec4 v_colour;
layout(location = 0) out vec4 out_colour;

void main()
{
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, frame.light_direction.xyz), 0.0);
    // Texel centres are at 0.5, 1.5, ...: diffuse 0 reads the first texel, 1 the last.
    vec3 light_colour = textureLod(ramp, vec2(0.5 + diffuse * frame.ambient.w, 0.5), 0.0).rgb;
    vec3 albedo = v_colour.rgb * mix(vec3(1.0), texture(tiles, v_uv).rgb, v_colour.a);
    out_colour = vec4(albedo * (frame.ambient.rgb + light_colour * diffuse), 1.0);
}
