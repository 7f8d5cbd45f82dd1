#version 450
#extension GL_ARB_shader_draw_parameters : require
// A quad per instance from gl_VertexIndex - gl_BaseVertex, moved right by the instance's
// number within the draw; the draw parameters as a colour.
layout(location = 2) flat out vec4 v_colour;
const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(-0.5, -1), vec2(-1, 1),
                               vec2(-1, 1), vec2(-0.5, -1), vec2(-0.5, 1));
void main()
{
    vec2 corner = corners[gl_VertexIndex - gl_BaseVertexARB];
    corner.x += 0.5 * float(gl_InstanceIndex - gl_BaseInstanceARB);
    gl_Position = vec4(corner, 0.5, 1.0);
    v_colour = vec4(float(gl_BaseVertexARB) / 16.0, float(gl_BaseInstanceARB) / 8.0,
                    float(gl_DrawIDARB) / 4.0 + 0.25, 1.0);
}
