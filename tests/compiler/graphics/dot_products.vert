#version 450
// Dot products in a vertex shader (DOT4_IEEE groups): a row-vector-times-matrix transform
// (OpVectorTimesMatrix: one dot product per column), fdph (a dot with a vec4 ending in 1.0),
// fdot2/fdot3 and length into a varying.
layout(location = 0) in vec4 position;
layout(location = 0) out vec4 shade;
void main()
{
    /* Columns: x and y kept, z = 0.5 z + 0.125 w (0.25 for the scene's z 0.25, w 1), w kept. */
    const mat4 m = mat4(1.0, 0.0, 0.0, 0.0,  0.0, 1.0, 0.0, 0.0,  0.0, 0.0, 0.5, 0.125,  0.0, 0.0, 0.0, 1.0);
    gl_Position = position * m;
    shade = vec4(dot(position.xy, vec2(0.25, 0.125)) + 0.5,
                 dot(position.xyz, vec3(0.125, -0.25, 0.5)) + 0.5,
                 dot(vec4(position.yxz, 1.0), vec4(0.25, 0.125, 0.5, 0.25)),
                 length(position.xy) * 0.25);
}
