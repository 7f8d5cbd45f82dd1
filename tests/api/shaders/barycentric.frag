#version 450
#extension GL_EXT_fragment_shader_barycentric : require
// Target 0: BaryCoordKHR (perspective weights); target 1: BaryCoordNoPerspKHR; target 2: the
// three vertices' first values (PerVertexKHR, constant indices) and the second value of the
// vertex (x + y) % 3 of the pixel (a run-time index); target 3: the interpolated value and
// the same interpolation done by hand from the weights and the vertices.
layout(location = 0) pervertexEXT in vec2 v_values[];
layout(location = 1) in vec2 v_smooth;
layout(location = 0) out vec4 bary;
layout(location = 1) out vec4 bary_no_persp;
layout(location = 2) out vec4 per_vertex;
layout(location = 3) out vec4 by_hand;
void main()
{
    bary = vec4(gl_BaryCoordEXT, 1.0);
    bary_no_persp = vec4(gl_BaryCoordNoPerspEXT, 1.0);
    int k = (int(gl_FragCoord.x) + int(gl_FragCoord.y)) % 3;
    per_vertex = vec4(v_values[0].x, v_values[1].x, v_values[2].x, v_values[k].y);
    float mine = gl_BaryCoordEXT.x * v_values[0].x + gl_BaryCoordEXT.y * v_values[1].x +
                 gl_BaryCoordEXT.z * v_values[2].x;
    by_hand = vec4(v_smooth.x, mine, 0.0, 1.0);
}
