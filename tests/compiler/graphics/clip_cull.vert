#version 450
// Two clip distances that cut along pixel edges (window x >= 4, y <= 14) and a cull
// distance that drops instance 1 whole and keeps instance 0, whose vertices differ in sign.
layout(location = 0) in vec4 position;
layout(location = 2) flat out vec4 v_colour;
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[2];
    float gl_CullDistance[1];
};
void main()
{
    gl_Position = position;
    gl_ClipDistance[0] = position.x + 0.5;
    gl_ClipDistance[1] = 0.75 - position.y;
    gl_CullDistance[0] = gl_InstanceIndex == 1 ? -1.0 : float(gl_VertexIndex) - 0.5;
    v_colour = vec4(1.0, 0.5, float(gl_InstanceIndex) * 0.5, 1.0);
}
