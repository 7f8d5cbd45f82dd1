#version 450
// Positions from gl_VertexIndex (a table of 12 corners) and a colour from gl_InstanceIndex;
// no vertex inputs at all.
layout(location = 2) flat out vec4 v_colour;
const vec2 corners[12] = vec2[](
    vec2(-1, -1), vec2(1, -1), vec2(-1, 1),      // 0-2: not drawn (base vertex 6)
    vec2(-1, 1), vec2(1, -1), vec2(1, 1),        // 3-5: not drawn
    vec2(-1, -1), vec2(-0.5, -1), vec2(-1, 1),   // 6-8: a strip 4 pixels wide on the left
    vec2(-1, 1), vec2(-0.5, -1), vec2(-0.5, 1)   // 9-11
);
void main()
{
    vec2 corner = corners[gl_VertexIndex];
    // Instance i moves right by i - 3 strips (first instance 3).
    corner.x += 0.5 * float(gl_InstanceIndex - 3);
    gl_Position = vec4(corner, 0.5, 1.0);
    gl_PointSize = 1.0;
    v_colour = vec4(float(gl_VertexIndex) / 16.0, float(gl_InstanceIndex) / 8.0, 0.25, 1.0);
}
