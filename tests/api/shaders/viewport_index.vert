#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// gl_ViewportIndex from the vertex shader (shaderOutputViewportIndex, multiViewport): with
// per_triangle 0 one triangle per instance, the instance choosing the viewport; with 1 four
// small triangles in one draw, triangle t to viewport t. Positions come from the vertex index.
layout(push_constant) uniform Push { int per_triangle; };
layout(location = 0) flat out vec4 colour;
layout(location = 1) flat out int index_passed; // what the fragment shader's ViewportIndex must read
const vec2 corners[3] = vec2[3](vec2(-0.84, -0.78), vec2(0.84, -0.59), vec2(-0.34, 0.78));
const vec4 palette[4] = vec4[4](vec4(0.8, 0.6, 0.2, 1.0), vec4(0.2, 0.6, 0.6, 1.0),
                                vec4(0.6, 0.2, 0.8, 1.0), vec4(0.2, 0.8, 0.2, 1.0));
void main()
{
   int triangle = gl_VertexIndex / 3;
   int index = per_triangle != 0 ? triangle : gl_InstanceIndex;
   vec2 p = corners[gl_VertexIndex % 3];
   if (per_triangle != 0)
      p = p * 0.35 + vec2(float(triangle & 1) - 0.5, float(triangle >> 1) - 0.5);
   gl_ViewportIndex = index;
   index_passed = index;
   gl_Position = vec4(p, 0.0, 1.0);
   colour = per_triangle != 0 ? vec4(1.0 - palette[index].rgb, 1.0) : palette[index];
}
