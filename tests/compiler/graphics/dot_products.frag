#version 450
// Dot products in a pixel shader (DOT4_IEEE groups). Target 0 (float): dot products of pixel
// positions and dyadic constants, whose products and sums are exact in any order. Target 1
// (8-bit): normalize, length, distance and a dot product of the interpolated varying.
layout(location = 0) in vec4 shade;
layout(location = 0) out vec4 exact;
layout(location = 1) out vec4 rounded;
void main()
{
    vec2 p = gl_FragCoord.xy;
    exact = vec4(dot(p, vec2(0.0625, -0.03125)),
                 dot(vec3(p, 1.0), p.yxy),
                 dot(vec4(p, p.yx), vec4(0.5, 0.25, -2.0, 4.0)),
                 dot(vec4(p.x, 1.0, 2.0, 3.0), vec4(p.y, 4.0, 5.0, p.x)));
    vec3 n = normalize(vec3(p.x - 8.0, p.y - 8.0, 4.0));
    rounded = vec4(n.xy * 0.5 + 0.5,
                   distance(p, vec2(8.0)) / 16.0,
                   dot(shade, vec4(0.25)) + length(shade.xy) * 0.125);
}
